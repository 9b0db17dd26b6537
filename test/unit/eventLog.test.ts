import { describe, expect, it } from 'vitest'
import { EventLog } from '../../shared/runtime/eventLog'

describe('EventLog', () => {
  it('stamps monotonic seq and returns exactly the events after a given seq', () => {
    const log = new EventLog()
    for (let i = 0; i < 10; i++) log.emit({ type: 'log', connectionId: 'c', source: 'engine', level: 'info', text: String(i) })
    expect(log.since(0).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(log.since(7).map((e) => e.seq)).toEqual([8, 9, 10])
    expect(log.since(10)).toEqual([])
    expect(log.lastSeq).toBe(10)
  })

  it('keeps delivering to other listeners when one throws', () => {
    const log = new EventLog()
    const seen: number[] = []
    log.subscribe(() => {
      throw new Error('faulty subscriber')
    })
    log.subscribe((e) => seen.push(e.seq))
    log.emit({ type: 'log', connectionId: 'c', source: 'engine', level: 'info', text: 'x' })
    expect(seen).toEqual([1])
  })
})
