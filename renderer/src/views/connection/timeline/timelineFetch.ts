import { useCallback, useEffect, useRef, useState } from 'react'
import type { LatencyRow, TimelineView } from '../../../../../shared/contract'
import { useStore } from '../../../store/store'

/** The range a view asks for (epoch ms); none: the whole session. */
export interface Window {
  from: number
  to: number
}

export interface Answer<T> {
  /** The latest answer, drawn while the next is asked for. */
  value?: T
  error?: string
  /** A question is in flight. */
  asking: boolean
}

/** How often a live session's new events ask again (a range the user moves asks at once). */
const LIVE_EVERY_MS = 250

/**
 * Asks the engine for what a view shows, at most once per animation frame and never with more than one question
 * in flight: while one is out, changes only mark the view stale, and the newest range is asked for when it comes
 * back. The last answer stays drawn meanwhile. `key` changing (a new window, more bins) asks again at the next
 * frame; `revision` changing (a live session's new events) at most every quarter second, so a flood of events
 * does not keep the engine drawing the same range.
 */
export function useEngineAnswer<T>(key: string | undefined, ask: () => Promise<T>, revision = 0): Answer<T> {
  const [answer, setAnswer] = useState<Answer<T>>({ asking: false })
  const state = useRef({ inFlight: false, stale: false, frame: 0, timer: 0 as ReturnType<typeof setTimeout> | 0, alive: true, ask })
  state.current.ask = ask
  useEffect(() => {
    const s = state.current
    s.alive = true
    return () => {
      s.alive = false
      cancelAnimationFrame(s.frame)
      if (s.timer) clearTimeout(s.timer)
    }
  }, [])
  // Asks for the newest range (state.current holds what to ask), then again if it changed meanwhile.
  const run = useCallback(function next() {
    const s = state.current
    s.frame = 0
    if (!s.alive || !s.stale) return
    s.stale = false
    s.inFlight = true
    setAnswer((a) => (a.asking ? a : { ...a, asking: true }))
    s.ask().then(
      (value) => {
        s.inFlight = false
        if (!s.alive) return
        setAnswer({ value, asking: s.stale })
        if (s.stale) s.frame = requestAnimationFrame(next)
      },
      (error: unknown) => {
        s.inFlight = false
        if (!s.alive) return
        setAnswer((a) => ({ value: a.value, error: (error as Error).message, asking: false }))
        if (s.stale) s.frame = requestAnimationFrame(next)
      },
    )
  }, [])
  useEffect(() => {
    if (key === undefined) return
    const s = state.current
    s.stale = true
    if (s.inFlight || s.frame) return
    if (s.timer) clearTimeout(s.timer)
    s.timer = 0
    s.frame = requestAnimationFrame(run)
  }, [key, run])
  useEffect(() => {
    const s = state.current
    if (key === undefined || revision === 0) return
    s.stale = true
    if (s.inFlight || s.frame || s.timer) return
    s.timer = setTimeout(() => {
      s.timer = 0
      if (!s.inFlight && !s.frame) s.frame = requestAnimationFrame(run)
    }, LIVE_EVERY_MS)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a live session's new events: the key's own effect asks for a new range
  }, [revision])
  return answer
}

/** A connection's lanes for `window` (the whole session when none) in `bins` bins. */
export function useTimelineView(connectionId: string, window: Window | undefined, bins: number, revision: number): Answer<TimelineView> {
  const key = bins > 0 ? `${connectionId}|${window?.from}|${window?.to}|${bins}` : undefined
  return useEngineAnswer(key, () => ask((api) => api.invoke('timeline.view', { connectionId, ...window, bins })), revision)
}

/** Latency per method over `window`. */
export function useLatency(connectionId: string, window: Window | undefined, revision: number): Answer<{ rows: LatencyRow[] }> {
  return useEngineAnswer(
    `${connectionId}|${window?.from}|${window?.to}`,
    () => ask((api) => api.invoke('timeline.latency', { connectionId, ...window })),
    revision,
  )
}

async function ask<T>(run: (api: NonNullable<ReturnType<typeof useStore.getState>['api']>) => Promise<T>): Promise<T> {
  const api = useStore.getState().api
  if (!api) throw new Error('not connected to the engine')
  return run(api)
}
