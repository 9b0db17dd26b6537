import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** One figure: Parallax's number, the baseline measured in the same run, and their ratio. */
export interface Figure {
  bench: string
  parallax: number
  baseline: number
  ratio: number
  unit: string
  note?: string
}

export interface BenchOptions {
  quick: boolean
  json: boolean
}

export function figure(bench: string, parallax: number, baseline: number, unit: string, note?: string): Figure {
  return { bench, parallax: round(parallax), baseline: round(baseline), ratio: round(parallax / baseline), unit, ...(note && { note }) }
}

/**
 * A full garbage collection, so that a timed run does not pay for the garbage the run before it left (a
 * baseline that held 100,000 parsed lines leaves a lot).
 */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  gc()
}

export function round(n: number): number {
  return Math.round(n * 1000) / 1000
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

/** Times `count` sequential runs of `once` (after a short warm-up) and returns each duration in ms. */
export async function timeEach(count: number, once: () => Promise<unknown>, warmup = Math.min(50, count)): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await once()
  const times: number[] = []
  for (let i = 0; i < count; i++) {
    const start = performance.now()
    await once()
    times.push(performance.now() - start)
  }
  return times
}

/**
 * Runs two contenders in alternating blocks (A, B, A, B …) so that warm-up, JIT and whatever else the
 * machine is doing fall on both alike; returns each one's per-call times.
 */
export async function interleave(
  count: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  block = 50,
): Promise<[number[], number[]]> {
  await timeEach(0, a, Math.min(100, count))
  await timeEach(0, b, Math.min(100, count))
  const ta: number[] = []
  const tb: number[] = []
  for (let done = 0; done < count; done += block) {
    const n = Math.min(block, count - done)
    ta.push(...(await timeEach(n, a, 0)))
    tb.push(...(await timeEach(n, b, 0)))
  }
  return [ta, tb]
}
