import { useEffect, useState } from 'react'
import { askInParts, type FrameEvent } from '../../../shared/contract'
import { useStore } from './store'

// Frames whose payload stayed in the engine (`deferred`: see shared/contract/framePayload.ts) get it when
// opened or copied. The last few hundred fetched are kept, so moving through a list asks once per frame.

const fetched = new Map<string, unknown>()
const KEEP = 500

/** The payloads of `frames` (one connection's), in order: those that came with their event at once, the rest fetched. */
export async function framePayloads(connectionId: string, frames: FrameEvent[]): Promise<unknown[]> {
  const key = (frame: FrameEvent) => `${connectionId}:${frame.seq}`
  const missing = frames.filter((f) => f.deferred && !fetched.has(key(f)))
  const now = new Map<FrameEvent, unknown>()
  if (missing.length) {
    const api = useStore.getState().api
    if (!api) throw new Error('not connected to the engine')
    const payloads = await askInParts(
      missing.map((f) => f.seq),
      async (seqs) => (await api.invoke('frames.payloads', { connectionId, seqs })).payloads,
    )
    missing.forEach((f, i) => now.set(f, payloads[i]))
  }
  const answer = frames.map((f) => (!f.deferred ? f.payload : now.has(f) ? now.get(f) : fetched.get(key(f))))
  for (const [f, payload] of now) fetched.set(key(f), payload)
  for (const old of fetched.keys()) {
    if (fetched.size <= KEEP) break
    fetched.delete(old)
  }
  return answer
}

/** The frame with its payload: at once when it came with one, once fetched otherwise (`loading` meanwhile, or why it failed). */
export function useWholeFrame(connectionId: string, frame: FrameEvent | undefined): { frame?: FrameEvent; loading?: true; error?: string } {
  const [answer, setAnswer] = useState<{ seq: number; payload?: unknown; error?: string }>()
  useEffect(() => {
    if (!frame?.deferred) return
    let current = true
    framePayloads(connectionId, [frame]).then(
      ([payload]) => current && setAnswer({ seq: frame.seq, payload }),
      (error: unknown) => current && setAnswer({ seq: frame.seq, error: (error as Error).message }),
    )
    return () => {
      current = false
    }
  }, [connectionId, frame])
  if (!frame?.deferred) return { frame }
  if (answer?.seq !== frame.seq) return { loading: true }
  if (answer.error !== undefined) return { error: answer.error }
  const { deferred: _deferred, ...whole } = frame
  return { frame: { ...whole, payload: answer.payload } }
}
