/**
 * Sessions of any length: `parallax web` with a UI attached takes a flood of log notifications from a stdio
 * server (every event written to its session on disk, the UI's live batches fed) against a plain MCP SDK client
 * receiving the same flood in a process of its own. Figures: how long the intake takes against the plain client
 * (`long-session-intake`), and the host's peak resident memory through it (`long-session-rss`, sampled every
 * 200 ms, with where it stood after the first tenth: flat memory stays there).
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { openApprovedTarget } from '../web/client'
import { startWebHostProcess } from '../web/launch'
import { rawStdioTransport } from './callOverhead'
import { floodTarget } from './eventDelivery'
import { figure, type BenchOptions, type Figure } from './harness'
import { connectToHost } from './hostClient'

/** Resident memory now and at its peak (VmRSS, VmHWM) of a process, in bytes. */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]) * 1024
  return { rss: field('VmRSS'), hwm: field('VmHWM') }
}

interface Intake {
  ms: number
  peak: number
  /** RSS once a tenth of the flood was in, and at the end (flat memory: about the same). */
  atTenth: number
  atEnd: number
}

/** The plain SDK client, in a process of its own (`--plain N`): how long until its handler saw the N-th notification. */
async function plainClient(count: number): Promise<Intake> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--plain', String(count)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`the plain client exited (code ${code})`)))
  })
  return JSON.parse(line) as Intake
}

async function plainMain(count: number): Promise<void> {
  const client = new Client({ name: 'plain', version: '1' })
  let seen = 0
  let atTenth = 0
  let peak = 0
  const done = new Promise<void>((resolve) =>
    client.setNotificationHandler(LoggingMessageNotificationSchema, () => {
      if (++seen === Math.floor(count / 10)) atTenth = process.memoryUsage().rss
      if (seen === count) resolve()
    }),
  )
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 200)
  const started = performance.now()
  await client.connect(rawStdioTransport(floodTarget(count, 0).spec))
  await done
  const ms = performance.now() - started
  clearInterval(sampler)
  const atEnd = process.memoryUsage().rss
  process.stdout.write(`${JSON.stringify({ ms, peak: Math.max(peak, atEnd), atTenth, atEnd })}\n`)
  await client.close()
  process.exit(0)
}

/** `parallax web` with a UI client attached, tapping the flood: until the UI has seen the N-th notification's frame. */
async function throughWebHost(count: number): Promise<Intake> {
  const host = await startWebHostProcess()
  const ui = await connectToHost(host)
  try {
    let seen = 0
    let atTenth = 0
    let peak = 0
    let finish!: () => void
    const done = new Promise<void>((resolve) => (finish = resolve))
    ui.onEvents((events) => {
      for (const event of events)
        if (event.type === 'frame' && event.method === 'notifications/message') {
          if (++seen === Math.floor(count / 10)) atTenth = memoryOf(host.pid).rss
          if (seen === count) finish()
        }
    })
    const sampler = setInterval(() => (peak = Math.max(peak, memoryOf(host.pid).rss)), 200)
    const started = performance.now()
    await openApprovedTarget(ui, floodTarget(count, 0))
    await done
    const ms = performance.now() - started
    clearInterval(sampler)
    const end = memoryOf(host.pid)
    return { ms, peak: Math.max(peak, end.hwm), atTenth, atEnd: end.rss }
  } finally {
    void ui.close()
    await host.stop()
  }
}

export async function longSession({ quick }: BenchOptions): Promise<Figure[]> {
  const asked = Number(process.env.PARALLAX_BENCH_NOTIFICATIONS)
  const counts = asked ? [asked] : quick ? [20_000] : [1_000_000, ...(process.argv.includes('--ten-million') ? [10_000_000] : [])]
  const figures: Figure[] = []
  const mb = (bytes: number) => bytes / 1024 / 1024
  for (const count of counts) {
    const plain = await plainClient(count)
    const parallax = await throughWebHost(count)
    const label = count >= 1_000_000 ? `${count / 1_000_000} M` : `${count / 1000} k`
    if (count === counts[0])
      figures.push(
        figure(
          'long-session-intake',
          parallax.ms / 1000,
          plain.ms / 1000,
          's',
          `${label} log notifications (${2 * count} events: a frame and a log line each), written to the session and fed to a UI, vs a plain SDK client receiving them`,
        ),
      )
    figures.push(
      figure(
        'long-session-rss',
        mb(parallax.peak),
        mb(plain.peak),
        'MB peak RSS',
        `${label} notifications: parallax web with a UI attached (at a tenth ${mb(parallax.atTenth).toFixed(0)} MB, at the end ${mb(parallax.atEnd).toFixed(0)} MB) vs a plain SDK client (${mb(plain.atEnd).toFixed(0)} MB at the end)`,
      ),
    )
  }
  return figures
}

if (process.argv[2] === '--plain') await plainMain(Number(process.argv[3]))
