/**
 * `npm run bench`: every figure Parallax promises, each against a baseline measured in the same run,
 * one JSON line per figure. `--json` prints only those lines; `--quick` uses small counts (the test
 * that keeps this harness from rotting runs it that way).
 */
import { callOverhead } from './callOverhead'
import { eventDelivery } from './eventDelivery'
import { longSession } from './longSession'
import { longSessionUi } from './longSessionUi'
import { memory } from './memory'
import { recordings } from './recordings'
import { startup } from './startup'
import { tapOverhead } from './tapOverhead'
import { timeAxis } from './timeAxis'
import { timeline } from './timeline'
import type { BenchOptions, Figure } from './harness'

const options: BenchOptions = { quick: process.argv.includes('--quick'), json: process.argv.includes('--json') }
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length)
const benches: [string, (o: BenchOptions) => Promise<Figure[]>][] = [
  ['call-overhead', callOverhead],
  ['event-delivery', eventDelivery],
  ['timeline', timeline],
  ['recordings', recordings],
  ['startup', startup],
  ['memory', memory],
  ['long-session', longSession],
  ['long-session-ui', longSessionUi],
  ['tap-overhead', tapOverhead],
  ['time-axis', timeAxis],
]

const say = (line: string) => {
  if (!options.json) process.stderr.write(`${line}\n`)
}
let failed = false
for (const [name, run] of benches) {
  if (only && !name.startsWith(only)) continue
  say(`── ${name}${options.quick ? ' (quick)' : ''}`)
  const started = performance.now()
  try {
    for (const f of await run(options)) process.stdout.write(`${JSON.stringify(f)}\n`)
  } catch (error) {
    failed = true
    process.stderr.write(`bench ${name} failed: ${(error as Error).stack ?? error}\n`)
  }
  say(`   ${((performance.now() - started) / 1000).toFixed(1)} s`)
}
process.exit(failed ? 1 : 0)
