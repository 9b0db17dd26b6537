import { describe, expect, it } from 'vitest'
import { axisTicks, sinceStart, tickStep, wallClock } from '../../renderer/src/views/connection/timeline/axisTicks'
import { fitWindow, panBy, zoomAt } from '../../renderer/src/views/connection/timeline/axisWindow'

// The Timeline's axis from hours down to microseconds: round steps, labels that tell ticks apart, zoom that keeps
// the time under the pointer in place.
const start = new Date(2026, 10, 26, 14, 0, 0, 0).getTime()

describe('the time axis', () => {
  it('steps a person counts in, at every scale', () => {
    expect(tickStep(0.0003)).toBe(0.0005)
    expect(tickStep(0.7)).toBe(1)
    expect(tickStep(3)).toBe(5)
    expect(tickStep(700)).toBe(1000)
    expect(tickStep(11_000)).toBe(15_000)
    expect(tickStep(40 * 60_000)).toBe(3_600_000)
  })

  it.each([
    ['three hours', 3 * 3_600_000, /^\d\d:\d\d$/, /^\+\d+ h \d\d min$|^\+\d+ min$/],
    ['a minute', 60_000, /^\d\d:\d\d:\d\d$/, /^\+\d+ s$|^\+\d+:\d\d$/],
    ['a second', 1_000, /^\d\d:\d\d:\d\d\.\d{3}$/, /^\+\d\.\d s$/],
    ['two milliseconds', 2, /^\d\d:\d\d:\d\d\.\d{3} \d{3}$/, /^\+\d\.\d{4} s$/],
    ['fifty microseconds', 0.05, /^\d\d:\d\d:\d\d\.\d{3} \d{3}$/, /^\+\d\.\d{5} s$/],
  ])('across %s: a handful of ticks, each labelled apart from its neighbours', (_, span, wall, since) => {
    const from = start + 1234.5
    const { ticks } = axisTicks(from, from + span, 1000, start)
    expect(ticks.length).toBeGreaterThanOrEqual(4)
    expect(ticks.length).toBeLessThanOrEqual(12)
    for (const t of ticks) {
      expect(t.wall).toMatch(wall)
      expect(t.since).toMatch(since)
    }
    expect(new Set(ticks.map((t) => t.wall)).size).toBe(ticks.length)
    expect(new Set(ticks.map((t) => t.since)).size).toBe(ticks.length)
  })

  it('says microseconds where the step needs them', () => {
    expect(wallClock(start + 1.25, 0.05)).toBe('14:00:00.001 250')
    expect(sinceStart(0.125, 0.005)).toBe('+0.125 ms')
    expect(sinceStart(250, 50)).toBe('+250 ms')
    expect(sinceStart(2500, 500)).toBe('+2.5 s')
    expect(sinceStart(12_500, 1000)).toBe('+13 s')
  })

  it('zooms about the time under the pointer and pans without losing the session', () => {
    const extent = { start, end: start + 10_000 }
    const whole = fitWindow(extent)
    const at = start + 2_500
    const zoomed = zoomAt(whole, 0.1, at, extent)
    expect(zoomed.to - zoomed.from).toBeCloseTo((whole.to - whole.from) * 0.1, 6)
    expect((at - zoomed.from) / (zoomed.to - zoomed.from)).toBeCloseTo((at - whole.from) / (whole.to - whole.from), 9)
    // Never narrower than the axis can label, never wider than a few sessions.
    expect(zoomAt(whole, 1e-12, at, extent).to - zoomAt(whole, 1e-12, at, extent).from).toBeCloseTo(0.05, 3)
    expect(zoomAt(whole, 1e9, at, extent).to - zoomAt(whole, 1e9, at, extent).from).toBe(40_000)
    const far = panBy(zoomed, 1e9, extent)
    expect(far.from).toBeLessThan(extent.end)
  })
})
