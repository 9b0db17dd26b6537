/**
 * The time axis's ticks at any scale, from days down to microseconds: a step a person counts in (1, 2, 5 of a
 * unit; 15 s, 30 s, 15 min …), each tick labelled with the wall clock to the precision the step needs and the
 * time since the session began.
 */

const MS = 1
const S = 1000 * MS
const MIN = 60 * S
const H = 60 * MIN

/** Steps above a millisecond, as a clock counts; below it, 1, 2, 5 of each power of ten. */
const CLOCK_STEPS = [
  1,
  2,
  5,
  10,
  20,
  50,
  100,
  200,
  500,
  S,
  2 * S,
  5 * S,
  10 * S,
  15 * S,
  30 * S,
  MIN,
  2 * MIN,
  5 * MIN,
  10 * MIN,
  15 * MIN,
  30 * MIN,
  H,
  2 * H,
  3 * H,
  6 * H,
  12 * H,
  24 * H,
]

/** The smallest step at least `minimum` ms. */
export function tickStep(minimum: number): number {
  if (minimum <= 1) {
    for (let power = -6; power <= 0; power++)
      for (const m of [1, 2, 5]) {
        const step = m * 10 ** power
        if (step >= minimum) return step
      }
  }
  return CLOCK_STEPS.find((s) => s >= minimum) ?? Math.ceil(minimum / (24 * H)) * 24 * H
}

export interface Tick {
  ts: number
  /** The wall clock, as precise as the step needs. */
  wall: string
  /** Since the session's start. */
  since: string
}

/**
 * The ticks between `from` and `to` (epoch ms) for a width of `width` px, at least `spacing` px apart. Ticks
 * sit on round wall-clock times (in the local zone at a minute or more).
 */
export function axisTicks(from: number, to: number, width: number, start: number, spacing = 120): { step: number; ticks: Tick[] } {
  const span = Math.max(to - from, 1e-6)
  const step = tickStep((span / Math.max(width, 1)) * spacing)
  const offset = step >= MIN ? new Date(from).getTimezoneOffset() * -MIN : 0
  const first = Math.ceil((from + offset) / step) * step - offset
  const ticks: Tick[] = []
  for (let i = 0; i < 1000; i++) {
    // Multiplying, not adding, so sub-millisecond steps do not drift.
    const ts = first + i * step
    if (ts > to) break
    ticks.push({ ts, wall: wallClock(ts, step), since: sinceStart(ts - start, step) })
  }
  return { step, ticks }
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

/** The wall clock at `ts`, to the precision `step` needs: 14:05, 14:05:30, 14:05:30.250, 14:05:30.250 125. */
export function wallClock(ts: number, step: number): string {
  const d = new Date(ts)
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`
  if (step >= MIN) return hm
  const hms = `${hm}:${pad(d.getSeconds())}`
  if (step >= S) return hms
  const millis = `${hms}.${pad(d.getMilliseconds(), 3)}`
  if (step >= 1) return millis
  const micros = Math.floor((((ts % 1) + 1) % 1) * 1000 + 1e-6)
  return `${millis} ${pad(micros, 3)}`
}

/** A time since the start as the step needs it: +2 h 05 min, +1:30, +12.5 s, +250 ms, +0.125 ms. */
export function sinceStart(elapsed: number, step: number): string {
  const sign = elapsed < 0 ? '−' : '+'
  const t = Math.abs(elapsed)
  if (step >= MIN) {
    const h = Math.floor(t / H)
    const m = Math.round((t % H) / MIN)
    return h ? `${sign}${h} h ${pad(m)} min` : `${sign}${m} min`
  }
  if (step >= S) return t >= MIN ? `${sign}${Math.floor(t / MIN)}:${pad(Math.round((t % MIN) / S))}` : `${sign}${Math.round(t / S)} s`
  if (t >= S) return `${sign}${(t / S).toFixed(decimals(step / S))} s`
  return `${sign}${t.toFixed(decimals(step))} ms`
}

/** How many decimals tell steps of `step` apart. */
function decimals(step: number): number {
  return Math.max(0, Math.min(6, Math.ceil(-Math.log10(step) - 1e-9)))
}

/** A duration as a span's label and its description say it: 850 µs, 12.3 ms, 4.2 s, 3 min 10 s. */
export function spanDuration(ms: number): string {
  if (ms < 1) return `${Math.round(ms * 1000)} µs`
  if (ms < 100) return `${ms.toFixed(1)} ms`
  if (ms < 10 * S) return `${ms < S ? Math.round(ms) + ' ms' : (ms / S).toFixed(2) + ' s'}`
  if (ms < MIN) return `${(ms / S).toFixed(1)} s`
  if (ms < H) return `${Math.floor(ms / MIN)} min ${Math.round((ms % MIN) / S)} s`
  return `${Math.floor(ms / H)} h ${Math.round((ms % H) / MIN)} min`
}
