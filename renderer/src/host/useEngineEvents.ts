import { useEffect } from 'react'
import type { EngineEvent, ParallaxApi } from '../../../shared/contract'
import { attachApi, reloadTargets, setAppInfo, setLink } from '../store/actions'
import { useStore, type LinkState } from '../store/store'
import { createApi } from '.'

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
        // The sidebar's targets come at once, beside a long backlog still arriving.
        const [info] = await Promise.all([api.invoke('app.info', {}), reloadTargets(), catchUp(api)])
        setAppInfo(info)
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
 * shared/contract/backlog.ts). A page holds the next BACKLOG_PAGE events by number, so the one after
 * it is asked for before it arrives: with two pages in flight, the engine, the socket and the UI all
 * work at once.
 */
async function catchUp(api: ParallaxApi): Promise<void> {
  let afterSeq = useStore.getState().lastSeq
  const ask = () => {
    const page = api.invoke('events.backlog', { afterSeq, limit: BACKLOG_PAGE })
    page.catch(() => {}) // a page asked for past the end is not awaited: its failure is no one's
    afterSeq += BACKLOG_PAGE
    return page
  }
  const inFlight = [ask(), ask()]
  for (;;) {
    const page = await inFlight.shift()!
    if (page.more) inFlight.push(ask())
    useStore.getState().applyBacklog(page)
    if (!page.more) return // a page asked for past the end holds what the live stream brings anyway
  }
}
