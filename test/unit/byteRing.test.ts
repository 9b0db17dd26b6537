import { describe, expect, it } from 'vitest'
import { ByteRing } from '../../shared/tap/byteRing'

// The tap's relay hands chunks to its reader through this ring: in order, whole, across the ring's end, and
// never by waiting — a full ring drops and counts.
describe('ByteRing', () => {
  it('hands every chunk over in order, whole, with its way and time, across the end of the ring many times', () => {
    const ring = ByteRing.create(1024)
    const sent: { way: number; ts: number; text: string }[] = []
    const got: typeof sent = []
    for (let i = 0; i < 2_000; i++) {
      const text = `message ${i} `.repeat(1 + (i % 17))
      const chunk = { way: i % 3, ts: 1_700_000_000_000 + i / 7, text }
      expect(ring.push(chunk.way, chunk.ts, Buffer.from(text))).toBe(true)
      sent.push(chunk)
      if (i % 3 === 2) for (let c = ring.take(); c; c = ring.take()) got.push({ way: c.way, ts: c.ts, text: c.bytes.toString() })
    }
    for (let c = ring.take(); c; c = ring.take()) got.push({ way: c.way, ts: c.ts, text: c.bytes.toString() })
    expect(got).toEqual(sent)
    expect(ring.dropped).toBe(0)
  })

  it('a reader that falls behind loses what does not fit, counted; what fit is whole, and the ring goes on', () => {
    const ring = ByteRing.create(256)
    const results = Array.from({ length: 20 }, (_, i) => ring.push(0, i, Buffer.alloc(40, 65 + i)))
    expect(results.filter(Boolean).length).toBeGreaterThan(0)
    expect(ring.dropped).toBe(results.filter((r) => !r).length)
    const kept: string[] = []
    for (let c = ring.take(); c; c = ring.take()) kept.push(c.bytes.toString())
    expect(kept).toEqual(results.flatMap((r, i) => (r ? [String.fromCharCode(65 + i).repeat(40)] : [])))
    expect(ring.push(1, 99, Buffer.from('after'))).toBe(true)
    expect(ring.take()?.bytes.toString()).toBe('after')
  })
})
