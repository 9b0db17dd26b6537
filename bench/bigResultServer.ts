// An MCP server over stdio whose one tool answers with a large result, as a server reading a big file would:
//   node --import tsx bench/bigResultServer.ts MEGABYTES
// answers initialize, ping and tools/list like any server, and tools/call with MEGABYTES of text. Written
// by hand so that the server's own memory and time stay out of the client's figures.
import { createInterface } from 'node:readline'

const megabytes = Number(process.argv[2] ?? 50)
const write = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`)
const tools = [{ name: 'read_everything', description: 'Returns one large text', inputSchema: { type: 'object' } }]

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  const request = JSON.parse(line) as { id?: number | string; method?: string; params?: { protocolVersion?: string } }
  if (request.method === 'initialize') {
    write({
      jsonrpc: '2.0',
      id: request.id,
      result: {
        protocolVersion: request.params?.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'big-result', version: '1' },
      },
    })
  } else if (request.method === 'tools/list') write({ jsonrpc: '2.0', id: request.id, result: { tools } })
  else if (request.method === 'tools/call') {
    write({ jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text: 'x'.repeat(megabytes * 1024 * 1024) }] } })
  } else if (request.id !== undefined && request.method === 'ping') write({ jsonrpc: '2.0', id: request.id, result: {} })
  else if (request.id !== undefined) write({ jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'Method not found' } })
}
