import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { freshBundle } from '../bundles.mjs'
import type { EventInput, ObservedBy, Protocol } from '../contract'
import { ByteRing } from './byteRing'
import type { Way } from './chunkReader'
import type { ObservedSession } from './observedSession'

/** Room for what the reader has not read yet (it falls this far behind only while it starts, or under a flood). */
const RING_BYTES = 16 * 1024 * 1024
/** How long the end waits for the reader to write what it has (it then goes without). */
const CLOSE_WAIT_MS = 5_000

export interface TapReaderOptions {
  memory: SharedArrayBuffer
  connectionId: string
  name: string
  protocol?: Protocol
  observed: ObservedBy
  sessionsDir: string
  record?: { path: string; command: string; args: string[] }
  secretKeys: string[]
}

/** What the tap's thread tells its reader: an event of its own (a hold), or the end. */
export type ToReader = { type: 'event'; event: EventInput } | { type: 'end'; at: number; how: Parameters<ObservedSession['end']>[1] }
/** What the reader tells the tap: where the session is kept, a failure (said once), that it has closed. */
export type FromReader = { type: 'session'; dir: string | undefined } | { type: 'failure'; why: string } | { type: 'closed' }

/**
 * The tap's side of its reader: chunks go into shared memory as they are relayed (a copy and a counter, never
 * a wait), and a worker thread reads them, analyses the session and keeps it. The worker is the prebuilt
 * bundle when it is fresh, else the sources through tsx.
 */
export class TapReader {
  private readonly ring = ByteRing.create(RING_BYTES)
  private readonly worker: Worker
  private closed: Promise<void>
  sessionDir: string | undefined

  constructor(options: Omit<TapReaderOptions, 'memory'>, onFailure: (why: string) => void) {
    this.worker = startWorker({ ...options, memory: this.ring.memory })
    this.worker.unref()
    let done!: () => void
    this.closed = new Promise((resolve) => (done = resolve))
    this.worker.on('message', (message: FromReader) => {
      if (message.type === 'session') this.sessionDir = message.dir
      else if (message.type === 'failure') onFailure(message.why)
      else done()
    })
    this.worker.on('error', (error) => {
      onFailure(`the session's reader stopped (${error.message})`)
      done()
    })
    this.worker.on('exit', () => done())
  }

  passed(way: Way | 'err', chunk: Buffer, ts: number): void {
    this.ring.push(way === 'out' ? 0 : way === 'in' ? 1 : 2, ts, chunk)
  }

  event(event: EventInput): void {
    this.worker.postMessage({ type: 'event', event } satisfies ToReader)
  }

  /** Ends the session (how the server ended) and waits, a few seconds at most, for the reader to keep it. */
  async end(at: number, how: Extract<ToReader, { type: 'end' }>['how']): Promise<void> {
    this.worker.postMessage({ type: 'end', at, how } satisfies ToReader)
    await Promise.race([this.closed, new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())])
    await this.worker.terminate()
  }
}

function startWorker(options: TapReaderOptions): Worker {
  const bundle = freshBundle('tap/tapWorker.js', ['shared'])
  if (bundle) return new Worker(pathToFileURL(bundle), { workerData: options })
  const here = dirname(fileURLToPath(import.meta.url))
  const source = join(here, 'tapWorker.ts')
  if (!existsSync(source)) throw new Error(`the tap's reader is missing (${source}): run npm run build`)
  // From the sources: the worker registers tsx's loader first, as the `parallax` launcher does.
  const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(pathToFileURL(source).href)}) })`
  return new Worker(boot, { eval: true, workerData: options })
}
