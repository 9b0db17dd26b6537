import { describe, expect, it, vi } from 'vitest'
import type { EngineEvent } from '../../shared/contract'
import { EventBatcher } from '../../shared/runtime/batcher'

describe('EventBatcher', () => {
  it('delivers a burst as one batch, and flushes at once when the batch is full', () => {
    vi.useFakeTimers()
    try {
      const batches: EngineEvent[][] = []
      const batcher = new EventBatcher((events) => batches.push(events), 16, 3)
      const event = (seq: number) =>
        ({ seq, ts: 0, connectionId: 'c', type: 'log', source: 'engine', level: 'info', text: '' }) as EngineEvent
      batcher.push(event(1))
      batcher.push(event(2))
      expect(batches).toHaveLength(0)
      vi.advanceTimersByTime(16)
      expect(batches.map((b) => b.map((e) => e.seq))).toEqual([[1, 2]])
      batcher.push(event(3))
      batcher.push(event(4))
      batcher.push(event(5))
      expect(batches.map((b) => b.map((e) => e.seq))).toEqual([
        [1, 2],
        [3, 4, 5],
      ])
      batcher.dispose()
    } finally {
      vi.useRealTimers()
    }
  })
})
