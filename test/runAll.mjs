// `npm test`: typecheck, lint (layers, habits, format), build, unit + integration (Vitest), end-to-end (Playwright in Debian's Chromium),
// then one closing line "N passed, N failed, N skipped" across both runners. Exits non-zero if anything failed.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const out = join(root, 'test-results', 'reports')
rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })
const bin = (name) => join(root, 'node_modules', '.bin', name)

function step(title, command, args, env = {}) {
  process.stderr.write(`\n── ${title}\n`)
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } })
  return result.status === 0
}

let ok = step('typecheck', bin('tsc'), ['-p', 'tsconfig.json']) && step('typecheck renderer', bin('tsc'), ['-p', 'renderer/tsconfig.json'])
ok =
  ok &&
  step('lint: layers and cycles', bin('depcruise'), [
    'shared',
    'cli',
    'web',
    'electron',
    'renderer',
    'bench',
    'test',
    '--config',
    '.dependency-cruiser.cjs',
  ])
ok = ok && step('lint: file sizes', process.execPath, [join(root, 'test', 'fileSizes.mjs')])
ok = ok && step('lint: code', bin('eslint'), ['.']) && step('lint: format', bin('prettier'), ['--check', '.'])
ok = ok && step('build', bin('vite'), ['build', '--logLevel', 'warn'])
if (!ok) {
  console.log('0 passed, 1 failed, 0 skipped')
  process.exit(1)
}
const unitOk = step('unit and integration tests (Vitest)', bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile=${join(out, 'vitest.json')}`,
])
const e2eOk = step(
  'end-to-end tests (Playwright, Chromium)',
  bin('playwright'),
  ['test', '-c', 'test/playwright.config.ts', '--reporter=list,json'],
  {
    PLAYWRIGHT_JSON_OUTPUT_FILE: join(out, 'playwright.json'),
  },
)

const read = (file) => (existsSync(join(out, file)) ? JSON.parse(readFileSync(join(out, file), 'utf8')) : undefined)
const unit = read('vitest.json')
const e2e = read('playwright.json')?.stats
const passed = (unit?.numPassedTests ?? 0) + (e2e?.expected ?? 0)
const failed = (unit?.numFailedTests ?? (unitOk ? 0 : 1)) + (e2e?.unexpected ?? (e2eOk ? 0 : 1)) + (e2e?.flaky ?? 0)
const skipped = (unit?.numPendingTests ?? 0) + (unit?.numTodoTests ?? 0) + (e2e?.skipped ?? 0)
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(unitOk && e2eOk && failed === 0 ? 0 : 1)
