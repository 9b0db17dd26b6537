import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { demoTargets } from '../shared/demo/targets'
import { ROOT, startWebHostProcess } from '../web/launch'
import { figure, median, type BenchOptions, type Figure } from './harness'

const PARALLAX = fileURLToPath(new URL('../cli/parallax.mjs', import.meta.url))
const RAW_INSPECT = fileURLToPath(new URL('rawInspect.mjs', import.meta.url))

/** Wall time of a process from spawn to exit; fails unless it exits 0. */
function wall(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.once('exit', (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`${args.join(' ')} exited with ${code}: ${stderr}`)),
    )
  })
}

/** Launch to the first answered page request of `parallax web`. */
async function webHostAnswers(): Promise<number> {
  const started = performance.now()
  const host = await startWebHostProcess()
  try {
    const response = await fetch(host.url)
    if (!response.ok) throw new Error(`the web host answered ${response.status}`)
    await response.text()
    return performance.now() - started
  } finally {
    await host.stop()
  }
}

/** The same for the smallest Node HTTP server there is, started the same way. */
function bareNodeAnswers(): Promise<number> {
  const started = performance.now()
  const child = spawn(
    process.execPath,
    [
      '-e',
      "require('http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', function () { console.log('http://127.0.0.1:' + this.address().port + '/') })",
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (url) => {
      fetch(url)
        .then((response) => response.text())
        .then(() => resolve(performance.now() - started), reject)
        .finally(() => child.kill())
    })
  })
}

/** Cold starts: the web host's first answer, and `parallax inspect` on the prompt-only demo server, end to end. */
export async function startup({ quick }: BenchOptions): Promise<Figure[]> {
  const runs = quick ? 1 : 5
  const prompts = demoTargets().find((t) => t.id === 'demo:prompts')!
  if (prompts.spec.kind !== 'mcp-stdio') throw new Error('unreachable')
  const server = [prompts.spec.command, ...prompts.spec.args]
  const host: number[] = []
  const bare: number[] = []
  const inspect: number[] = []
  const raw: number[] = []
  for (let i = 0; i < runs; i++) {
    host.push(await webHostAnswers())
    bare.push(await bareNodeAnswers())
    inspect.push(await wall([PARALLAX, 'inspect', 'demo:prompts']))
    raw.push(await wall([RAW_INSPECT, ...server]))
  }
  return [
    figure(
      'startup-web-host',
      median(host),
      median(bare),
      'ms launch → first page served',
      `median of ${runs}; baseline: a bare Node HTTP server`,
    ),
    figure(
      'startup-inspect',
      median(inspect),
      median(raw),
      'ms wall',
      `parallax inspect demo:prompts, median of ${runs}; baseline: the raw MCP SDK client connecting, listing prompts and pinging the same server`,
    ),
  ]
}
