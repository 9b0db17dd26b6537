// `npm test`: typecheck, lint (layers, file sizes, habits, format), build, unit + integration (Vitest), end-to-end
// (Playwright in Debian's Chromium), then where the time went and one closing line "N passed, N failed, N skipped"
// across both runners. Exits non-zero if anything failed.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const out = join(root, 'test-results', 'reports')
rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })
const bin = (name) => join(root, 'node_modules', '.bin', name)
const times = []

/**
 * Runs one step; resolves with whether it passed. `live`: its output goes straight to the terminal (a test runner);
 * otherwise it is held and printed whole when the step ends, so steps running side by side do not interleave.
 */
function step(title, command, args, { env = {}, live = false } = {}) {
  const started = performance.now()
  if (live) process.stderr.write(`\n── ${title}\n`)
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } })
    let held = ''
    child.stdout?.on('data', (chunk) => (held += chunk))
    child.stderr?.on('data', (chunk) => (held += chunk))
    const done = (ok) => {
      const seconds = (performance.now() - started) / 1000
      times.push([title, seconds])
      if (!live) process.stderr.write(`\n── ${title} (${seconds.toFixed(1)} s)${ok ? '' : ': FAILED'}\n${held}`)
      resolve(ok)
    }
    child.once('error', (error) => {
      held += `${error.message}\n`
      done(false)
    })
    child.once('close', (code) => done(code === 0))
  })
}

/** Steps one after another, stopping at the first that fails. */
async function lane(...steps) {
  for (const run of steps) if (!(await run())) return false
  return true
}

const started = performance.now()
// The checks and the build share nothing: two lanes, one per core.
const checks = await Promise.all([
  lane(
    () => step('typecheck', bin('tsc'), ['-p', 'tsconfig.json']),
    () => step('typecheck renderer', bin('tsc'), ['-p', 'renderer/tsconfig.json']),
    () =>
      step('lint: layers and cycles', bin('depcruise'), [
        ...['shared', 'cli', 'web', 'electron', 'renderer', 'bench', 'test'],
        ...['--config', '.dependency-cruiser.cjs'],
      ]),
    () => step('lint: file sizes', process.execPath, [join(root, 'test', 'fileSizes.mjs')]),
    () => step('build', bin('vite'), ['build', '--logLevel', 'warn']),
  ),
  lane(
    () => step('lint: code', bin('eslint'), ['.']),
    () => step('lint: format', bin('prettier'), ['--check', '.']),
  ),
])
if (!checks.every(Boolean)) {
  console.log('0 passed, 1 failed, 0 skipped')
  process.exit(1)
}
const unitOk = await step(
  'unit and integration tests (Vitest)',
  bin('vitest'),
  ['run', '--reporter=default', '--reporter=json', `--outputFile=${join(out, 'vitest.json')}`],
  { live: true },
)
const e2eOk = await step(
  'end-to-end tests (Playwright, Chromium)',
  bin('playwright'),
  ['test', '-c', 'test/playwright.config.ts', '--reporter=list,json'],
  {
    env: { PLAYWRIGHT_JSON_OUTPUT_FILE: join(out, 'playwright.json') },
    live: true,
  },
)

process.stderr.write('\n── where the time went\n')
for (const [title, seconds] of times) process.stderr.write(`${seconds.toFixed(1).padStart(7)} s  ${title}\n`)
process.stderr.write(`${((performance.now() - started) / 1000).toFixed(1).padStart(7)} s  in all (the checks run two at a time)\n`)

const read = (file) => (existsSync(join(out, file)) ? JSON.parse(readFileSync(join(out, file), 'utf8')) : undefined)
const unit = read('vitest.json')
const e2e = read('playwright.json')?.stats
const passed = (unit?.numPassedTests ?? 0) + (e2e?.expected ?? 0)
const failed = (unit?.numFailedTests ?? (unitOk ? 0 : 1)) + (e2e?.unexpected ?? (e2eOk ? 0 : 1)) + (e2e?.flaky ?? 0)
const skipped = (unit?.numPendingTests ?? 0) + (unit?.numTodoTests ?? 0) + (e2e?.skipped ?? 0)
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(unitOk && e2eOk && failed === 0 ? 0 : 1)
