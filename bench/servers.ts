/**
 * The HTTP servers the benchmarks call, in a process of their own (as a real server would be, so its
 * work does not share the client's thread): the demo tool server over streamable HTTP and the demo A2A
 * agent, both on 127.0.0.1. Prints their URLs as one JSON line; exits when its stdin closes.
 */
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

export interface BenchServers {
  mcp: string
  a2a: string
  stop(): Promise<void>
}

export async function startBenchServers(): Promise<BenchServers> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`the bench servers exited (code ${code})`)))
  })
  const urls = JSON.parse(line) as { mcp: string; a2a: string }
  return {
    ...urls,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve())
        child.stdin.end()
      }),
  }
}

if (process.argv.includes('--serve')) {
  const { startStreamableServer } = await import('../shared/demo/httpServers')
  const { createToolServer } = await import('../shared/demo/mcpServers')
  const { startMediaSalesAgent } = await import('../shared/demo/a2aAgent')
  const [mcp, a2a] = await Promise.all([startStreamableServer(createToolServer), startMediaSalesAgent()])
  process.stdout.write(`${JSON.stringify({ mcp: mcp.url, a2a: a2a.url })}\n`)
  process.stdin.resume()
  process.stdin.once('end', () => {
    void Promise.all([mcp.close(), a2a.close()]).finally(() => process.exit(0))
  })
}
