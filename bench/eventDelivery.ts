import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { fileURLToPath } from 'node:url'
import type { EngineEvent, FrameEvent, SavedTarget } from '../shared/contract'
import { startWebHostProcess } from '../web/launch'
import { figure, percentile, type BenchOptions, type Figure } from './harness'
import { rawStdioTransport } from './callOverhead'
import { openApprovedTarget } from '../web/client'
import { connectToHost } from './hostClient'

const FLOOD_SERVER = fileURLToPath(new URL('floodServer.ts', import.meta.url))
const RATE = 10_000

/** A flood server's command line: `count` log notifications at `rate` per second (0: as fast as it can). */
export function floodTarget(count: number, rate: number): Pick<SavedTarget, 'name' | 'spec' | 'options'> {
  return {
    name: `flood ${count}`,
    spec: { kind: 'mcp-stdio', command: process.execPath, args: ['--import', 'tsx', FLOOD_SERVER, String(count), String(rate)], env: {} },
    options: { keepaliveIntervalMs: 3_600_000 },
  }
}

/** A frame carrying one of the flood server's notifications. */
export const isFloodFrame = (event: EngineEvent): event is FrameEvent => event.type === 'frame' && event.method === 'notifications/message'

/** What one client saw of a paced flood: when each notification arrived, against when it was sent. */
class Arrivals {
  private readonly lags: number[] = []
  private received = 0
  private firstSent = Infinity
  private lastSeen = 0
  readonly done: Promise<void>
  private finish!: () => void

  constructor(readonly expected: number) {
    this.done = new Promise((resolve) => (this.finish = resolve))
  }

  seen(data: { i: number; sentAt: number }): void {
    const at = performance.timeOrigin + performance.now()
    this.lags[data.i] = at - data.sentAt
    this.firstSent = Math.min(this.firstSent, data.sentAt)
    this.lastSeen = at
    if (++this.received === this.expected) this.finish()
  }

  /** Frames per second from the first send to the last arrival: the offered rate if the client kept up. */
  rate(): number {
    return this.expected / ((this.lastSeen - this.firstSent) / 1000)
  }

  p95(from = 0, to = this.expected): number {
    return percentile(this.lags.slice(from, to), 95)
  }
}

async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms)),
  )
  try {
    return await Promise.race([work, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** The raw SDK client reading the flood itself. */
async function rawClient(count: number): Promise<Arrivals> {
  const arrivals = new Arrivals(count)
  const client = new Client({ name: 'raw', version: '1' })
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => arrivals.seen(n.params.data as { i: number; sentAt: number }))
  await client.connect(rawStdioTransport(floodTarget(count, RATE).spec))
  try {
    await withTimeout(arrivals.done, count + 20_000, 'the raw flood')
  } finally {
    await client.close()
  }
  return arrivals
}

/** Parallax as a user runs it: `parallax web` tapping the flood, a UI client reading the WebSocket. */
async function throughWebHost(count: number): Promise<Arrivals> {
  const arrivals = new Arrivals(count)
  const host = await startWebHostProcess()
  const ui = await connectToHost(host)
  try {
    ui.onEvents((events) => {
      for (const event of events) {
        if (isFloodFrame(event)) arrivals.seen((event.payload as { params: { data: { i: number; sentAt: number } } }).params.data)
      }
    })
    await openApprovedTarget(ui, floodTarget(count, RATE))
    await withTimeout(arrivals.done, count + 20_000, 'the flood through the web host')
  } finally {
    void ui.close()
    await host.stop()
  }
  return arrivals
}

/** Frames from engine to UI at 10,000 per second: the rate they arrive at, and how late, against the raw SDK. */
export async function eventDelivery({ quick }: BenchOptions): Promise<Figure[]> {
  const count = quick ? 2_000 : 50_000
  const raw = await rawClient(count)
  const parallax = await throughWebHost(count)
  const tenth = Math.floor(count / 10)
  return [
    figure(
      'event-delivery-rate',
      parallax.rate(),
      raw.rate(),
      'frames/s',
      `${count} notifications offered at ${RATE}/s; Parallax: engine → WebSocket → UI client`,
    ),
    figure(
      'event-delivery-lag',
      parallax.p95(),
      raw.p95(),
      'ms p95 send → seen',
      `batched every 16 ms; Parallax p95 first tenth ${parallax.p95(0, tenth).toFixed(1)} ms, last tenth ${parallax.p95(count - tenth).toFixed(1)} ms (a growing backlog would show here)`,
    ),
  ]
}
