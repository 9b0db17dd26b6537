import { useSyncExternalStore } from 'react'
import type { SessionSearchHit } from '../../../shared/contract'
import { useStore } from './store'

/** Hits kept of one search: past these it stops and says so (a narrower text finds the rest). */
export const MAX_HITS = 5000
/** How long the engine scans per ask, so progress shows and Stop answers at once. */
const BUDGET_MS = 200

/** A search of one connection's whole session (its frames' payloads, its log lines' texts, every event) as it streams. */
export interface SessionSearch {
  text: string
  hits: SessionSearchHit[]
  /** How many of the session's events were scanned, of `total`. */
  next: number
  total: number
  running: boolean
  done: boolean
  /** It stopped at MAX_HITS. */
  capped: boolean
  error?: string
}

// One search per connection, kept while the user moves between its Frames and its Log (each lists its own hits).
const searches = new Map<string, SessionSearch>()
const runs = new Map<string, number>()
const listeners = new Set<() => void>()
let run = 0

function keep(connectionId: string, search: SessionSearch | undefined): void {
  if (search) searches.set(connectionId, search)
  else searches.delete(connectionId)
  for (const listener of listeners) listener()
}

/**
 * Searches a connection's session for `text`, from its first event on: the engine scans for a moment at a time
 * (`sessions.search`), each answer's hits added as it comes, until the whole session is scanned, Stop, or
 * MAX_HITS. A new search replaces the one before.
 */
export async function searchSession(connectionId: string, text: string): Promise<void> {
  const api = useStore.getState().api
  if (!api || !text) return
  const mine = ++run
  runs.set(connectionId, mine)
  let search: SessionSearch = { text, hits: [], next: 0, total: 0, running: true, done: false, capped: false }
  keep(connectionId, search)
  try {
    while (runs.get(connectionId) === mine) {
      const answer = await api.invoke('sessions.search', { connectionId, text, from: search.next, budgetMs: BUDGET_MS, limit: 1000 })
      if (runs.get(connectionId) !== mine) return
      const hits = search.hits.concat(answer.hits).slice(0, MAX_HITS)
      const capped = search.hits.length + answer.hits.length >= MAX_HITS && !answer.done
      const finished = answer.done || capped
      search = { ...search, hits, next: answer.next, total: answer.total, done: answer.done, capped, running: !finished }
      keep(connectionId, search)
      if (finished) break
    }
  } catch (error) {
    if (runs.get(connectionId) === mine) keep(connectionId, { ...search, running: false, error: (error as Error).message })
  } finally {
    if (runs.get(connectionId) === mine) runs.delete(connectionId)
  }
}

/** Stops a search where it got (its hits stay). */
export function stopSearch(connectionId: string): void {
  runs.delete(connectionId)
  const search = searches.get(connectionId)
  if (search?.running) keep(connectionId, { ...search, running: false })
}

/** Forgets a connection's search. */
export function clearSearch(connectionId: string): void {
  runs.delete(connectionId)
  keep(connectionId, undefined)
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** The connection's search as it goes, if there is one. */
export function useSessionSearch(connectionId: string): SessionSearch | undefined {
  return useSyncExternalStore(subscribe, () => searches.get(connectionId))
}

/** Whether a connection has a search (open it again where the user left it). */
export function hasSessionSearch(connectionId: string): boolean {
  return searches.has(connectionId)
}
