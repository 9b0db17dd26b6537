import { afterEach, expect, it } from 'vitest'
import { INLINE_PAYLOAD_BYTES, type EngineEvent, type FrameEvent } from '../../shared/contract'
import { builtInDemos } from '../../shared/demo/builtIns'
import { Engine } from '../../shared/engine/engine'

// A UI's backlog carries whole only the payloads it folds (notifications) and small ones; the rest come
// when a frame is opened or copied, exactly as the engine keeps them.
let engine: Engine
afterEach(() => engine?.dispose())

it('big frames reach a UI without their payload, which frames.payloads gives back as kept; notifications and small frames come whole', async () => {
  engine = new Engine({ host: 'web', builtIns: builtInDemos(), defaults: { keepaliveIntervalMs: 3_600_000 } })
  const { connectionId } = await engine.invoke('connections.open', { targetId: 'demo:tools' })
  await engine.invoke('connections.wait', { connectionId })
  await engine.invoke('tools.call', { connectionId, tool: 'list_creative_formats', arguments: {} })

  const kept = engine.events.since(0).filter((e): e is FrameEvent => e.type === 'frame' && e.connectionId === connectionId)
  const forUi = ((await engine.execute('events.since', { afterSeq: 0 })) as EngineEvent[]).filter(
    (e): e is FrameEvent => e.type === 'frame' && e.connectionId === connectionId,
  )
  expect(forUi.map((f) => f.seq)).toEqual(kept.map((f) => f.seq))
  const deferred = forUi.filter((f) => f.deferred)
  // tools/list and the call's result are well over the bound; the initialized notification is not deferred.
  expect(deferred.length).toBeGreaterThanOrEqual(2)
  expect(deferred.every((f) => f.payload === undefined && f.bytes > INLINE_PAYLOAD_BYTES && f.kind !== 'notification')).toBe(true)
  for (const f of forUi.filter((f) => !f.deferred)) expect(f.payload).toEqual(kept.find((k) => k.seq === f.seq)!.payload)

  const { payloads } = await engine.invoke('frames.payloads', { connectionId, seqs: deferred.map((f) => f.seq) })
  expect(payloads).toEqual(deferred.map((f) => kept.find((k) => k.seq === f.seq)!.payload))
  expect(JSON.stringify(payloads)).toContain('list_creative_formats')

  // A frame of another connection, or no frame at all, is refused by its number.
  await expect(engine.invoke('frames.payloads', { connectionId: 'nope', seqs: [deferred[0].seq] })).rejects.toThrow(/no frame/)
  const notFrame = engine.events.since(0).find((e) => e.type !== 'frame')!
  await expect(engine.invoke('frames.payloads', { connectionId, seqs: [notFrame.seq] })).rejects.toThrow(`no frame #${notFrame.seq}`)
})
