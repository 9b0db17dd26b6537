/**
 * Host memory while one large result passes: `parallax web` with a UI attached calls a tool whose answer
 * is 50 MB of text, against a raw MCP SDK client (in a process of its own) making the same call to the
 * same server. Each figure is the process's peak resident memory (VmHWM) over its resident memory just
 * before the call.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js'
import type { SavedTarget } from '../shared/contract'
import { openApprovedTarget, waitConnected } from '../web/client'
import { startWebHostProcess } from '../web/launch'
import { figure, type BenchOptions, type Figure } from './harness'
import { connectToHost } from './hostClient'

const SERVER = fileURLToPath(new URL('./bigResultServer.ts', import.meta.url))
const serverArgs = (megabytes: number) => ['--import', 'tsx', SERVER, String(megabytes)]

/** VmHWM (peak resident memory) and VmRSS of a process, in bytes. */
function memoryOf(pid: number): { hwm: number; rss: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]) * 1024
  return { hwm: field('VmHWM'), rss: field('VmRSS') }
}

/** Peak memory growth of `parallax web` (with a UI client attached) while the result passes to the UI. */
async function throughWebHost(megabytes: number): Promise<number> {
  const host = await startWebHostProcess()
  const ui = await connectToHost(host)
  try {
    const target: Pick<SavedTarget, 'name' | 'spec' | 'options'> = {
      name: `big result ${megabytes} MB`,
      spec: { kind: 'mcp-stdio', command: process.execPath, args: serverArgs(megabytes), env: {} },
      options: { keepaliveIntervalMs: 3_600_000 },
    }
    const { connectionId } = await openApprovedTarget(ui, target)
    await waitConnected(ui, connectionId)
    const before = memoryOf(host.pid)
    await ui.invoke('tools.call', { connectionId, tool: 'read_everything', arguments: {} })
    await ui.waitFor((e) => e.type === 'call' && e.connectionId === connectionId, 60_000)
    return memoryOf(host.pid).hwm - before.rss
  } finally {
    await ui.close()
    await host.stop()
  }
}

/** The same call from the raw SDK client, in a child process that reports its own growth. */
async function rawClient(megabytes: number): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--raw', String(megabytes)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`the raw client exited (code ${code})`)))
  })
  return (JSON.parse(line) as { growth: number }).growth
}

export async function memory({ quick }: BenchOptions): Promise<Figure[]> {
  const megabytes = quick ? 5 : 50
  const result = megabytes * 1024 * 1024
  const raw = await rawClient(megabytes)
  const parallax = await throughWebHost(megabytes)
  const mb = (bytes: number) => bytes / 1024 / 1024
  return [
    figure(
      'memory-large-result',
      mb(parallax),
      mb(raw),
      'MB peak growth',
      `a ${megabytes} MB tools/call result: parallax web with a UI attached (${(parallax / result).toFixed(2)}× the result) vs the raw MCP SDK client (${(raw / result).toFixed(2)}×)`,
    ),
  ]
}

if (process.argv.includes('--raw')) {
  const megabytes = Number(process.argv[process.argv.indexOf('--raw') + 1])
  const client = new Client({ name: 'raw', version: '1' })
  // The SDK reads at most 10 MB by default; it is given Parallax's default limit (64 MB).
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: serverArgs(megabytes),
    stderr: 'pipe',
    maxBufferSize: 64 * 1024 * 1024,
  })
  await client.connect(transport)
  const before = memoryOf(process.pid)
  await client.request({ method: 'tools/call', params: { name: 'read_everything', arguments: {} } }, CallToolResultSchema, {
    timeout: 120_000,
  })
  const growth = memoryOf(process.pid).hwm - before.rss
  process.stdout.write(`${JSON.stringify({ growth })}\n`)
  await client.close()
  process.exit(0)
}
