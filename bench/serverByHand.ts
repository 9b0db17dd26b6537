// What the benchmarks' hand-written MCP servers share, so that a server's own memory and time stay out of the
// client's figures: one JSON-RPC message a line on stdout, and the requests every server answers.
import { createInterface } from 'node:readline'

export type Request = { id?: number | string; method?: string; params?: Record<string, unknown> }

export const write = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`)

/**
 * Reads requests from stdin until it closes: answers initialize (as `name`, with `capabilities`), ping and
 * tools/list (`tools`); hands everything else to `handle`, which says whether it took it; a request no
 * one took gets Method not found.
 */
export async function serveByHand(
  name: string,
  capabilities: Record<string, unknown>,
  tools: unknown[],
  handle: (request: Request) => boolean,
): Promise<void> {
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    const request = JSON.parse(line) as Request
    if (request.method === 'initialize')
      write({
        jsonrpc: '2.0',
        id: request.id,
        result: { protocolVersion: request.params?.protocolVersion, capabilities, serverInfo: { name, version: '1.0.0' } },
      })
    else if (request.method === 'ping') write({ jsonrpc: '2.0', id: request.id, result: {} })
    else if (request.method === 'tools/list') write({ jsonrpc: '2.0', id: request.id, result: { tools } })
    else if (!handle(request) && request.id !== undefined)
      write({ jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'Method not found' } })
  }
}
