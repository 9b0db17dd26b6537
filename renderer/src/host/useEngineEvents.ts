import { useEffect } from 'react'
import type { EngineEvent } from '../../../shared/contract'
import { reloadTargets, useStore } from '../store/store'
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
      useStore.setState({ link })
      if (link !== 'open') {
        synced = false
        return
      }
      void (async () => {
        const api = apiRef
        const [info, backlog] = await Promise.all([
          api.invoke('app.info', {}),
          api.invoke('events.since', { afterSeq: useStore.getState().lastSeq }),
        ])
        useStore.setState({ info })
        useStore.getState().applyEvents(backlog)
        synced = true
        flush() // live events that arrived while the backlog was in flight
        await reloadTargets()
      })().catch(() => {})
    }
    const apiRef = createApi(onLink)
    useStore.setState({ api: apiRef })
    const unsubscribe = apiRef.onEvents(enqueue)
    return () => {
      unsubscribe()
      if (frame) cancelAnimationFrame(frame)
    }
  }, [])
}
