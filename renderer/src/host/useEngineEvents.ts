import { useEffect } from 'react'
import type { EngineEvent, ParallaxApi } from '../../../shared/contract'
import { attachApi, reloadTargets, setAppInfo, setLink } from '../store/actions'
import { useStore } from '../store/store'
import { createApi, type LinkState } from '.'

/**
 * The single subscription at the app root: attaches to the engine, fetches the backlog it missed
 * (on first load and after a lost link), and folds events into the store once per animation frame.
 */
export function useEngineEvents(): void {
  useEffect(() => {
    let queued: EngineEvent[] = []
    let frame = 0
    let synced = false
    const flush = () => {
      frame = 0
      const batch = queued
      queued = []
      useStore.getState().applyEvents(batch)
    }
    const enqueue = (events: EngineEvent[]) => {
      for (const event of events) queued.push(event)
      if (synced && !frame) frame = requestAnimationFrame(flush)
    }

    const onLink = (link: LinkState) => {
      setLink(link)
      if (link !== 'open') {
        synced = false
        return
      }
      void (async () => {
        const api = apiRef
        // Targets first: the sidebar is usable while a long backlog is still arriving.
        const [info] = await Promise.all([api.invoke('app.info', {}), reloadTargets()])
        setAppInfo(info)
        await catchUp(api)
        synced = true
        flush() // live events that arrived while the backlog was in flight
      })().catch(() => {})
    }
    const apiRef = createApi(onLink)
    attachApi(apiRef)
    const unsubscribe = apiRef.onEvents(enqueue)
    return () => {
      unsubscribe()
      if (frame) cancelAnimationFrame(frame)
    }
  }, [])
}

/** Events per backlog page: small enough to parse and fold between two paints, large enough to be few. */
const BACKLOG_PAGE = 50_000

/**
 * Fetches the events missed so far page by page (frames and log lines as rows: see
 * shared/contract/backlog.ts), asking for the next page before folding the current one, so the engine
 * prepares a page while the UI folds the last.
 */
async function catchUp(api: ParallaxApi): Promise<void> {
  const page = (afterSeq: number) => api.invoke('events.backlog', { afterSeq, limit: BACKLOG_PAGE })
  let next = page(useStore.getState().lastSeq)
  for (;;) {
    const current = await next
    if (current.more) next = page(current.lastSeq)
    useStore.getState().applyBacklog(current)
    if (!current.more) return
  }
}
