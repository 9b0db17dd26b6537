import { useEffect } from 'react'
import type { EngineEvent, ParallaxApi } from '../../../shared/contract'
import { attachApi, reloadTargets, setAppInfo, setLink } from '../store/actions'
import { showToast, useStore, type LinkState } from '../store/store'
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
      })()
        .catch((error: Error) => {
          // What was missed could not all be read: said, and what happens from now on is shown all the same.
          if (link === 'open') showToast(`Parallax could not read what happened before this page opened: ${error.message}`, 'error')
        })
        .finally(() => {
          synced = true
          flush() // live events that arrived while the backlog was in flight
        })
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

/** Items per backlog page at most: a page holds every event but frames and log lines, and each connection's latest of those. */
const BACKLOG_PAGE = 50_000

/**
 * Fetches what was missed so far, page by page, each starting where the one before ended
 * (shared/contract/backlog.ts): the events, and each connection's latest frames and log lines with how many
 * it has; the rest of those are read by position when shown. So a session of millions of events opens as
 * fast as a short one.
 */
async function catchUp(api: ParallaxApi): Promise<void> {
  let afterSeq = useStore.getState().lastSeq
  for (;;) {
    const page = await api.invoke('events.backlog', { afterSeq, limit: BACKLOG_PAGE })
    useStore.getState().applyBacklog(page)
    if (!page.more) return
    afterSeq = page.lastSeq
  }
}
