import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

// The benchmarks in quick mode (small counts), so the harness cannot rot. Budgets are not asserted
// here: a loaded test machine says nothing about them; `npm run bench` reports them.
test('npm run bench -- --quick --json prints one well-formed figure per line for every benchmark', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--quick', '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 240_000,
  })
  expect(run.status, run.stderr).toBe(0)
  const lines = run.stdout.trim().split('\n')
  const figures = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
  for (const f of figures) {
    expect(Object.keys(f).filter((k) => k !== 'note')).toEqual(['bench', 'parallax', 'baseline', 'ratio', 'unit'])
    expect(f.parallax).toBeGreaterThan(0)
    expect(f.baseline).toBeGreaterThan(0)
    expect(f.ratio).toBeCloseTo((f.parallax as number) / (f.baseline as number), 1)
  }
  expect(figures.map((f) => f.bench)).toEqual([
    'call-overhead-stdio',
    'call-overhead-stdio-progress',
    'call-overhead-streamable-http',
    'call-overhead-a2a-sendmessage',
    'event-delivery-rate',
    'event-delivery-lag',
    'timeline-open',
    'timeline-ready',
    'timeline-scroll',
    'timeline-filter',
    'timeline-heap',
    'recording-open',
    'replay-speed',
    'startup-web-host',
    'startup-inspect',
    'memory-large-result',
    'long-session-intake',
    'long-session-rss',
    'long-session-open',
    'long-session-seek',
    'tap-overhead-stdio',
    'time-axis-open',
    'time-axis-zoom',
  ])
}, 300_000)
