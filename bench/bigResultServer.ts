// An MCP server over stdio whose one tool answers with a large result, as a server reading a big file would:
//   node --import tsx bench/bigResultServer.ts MEGABYTES
// answers initialize, ping and tools/list like any server, and tools/call with MEGABYTES of text.
import { serveByHand, write } from './serverByHand'

const megabytes = Number(process.argv[2] ?? 50)
const tools = [{ name: 'read_everything', description: 'Returns one large text', inputSchema: { type: 'object' } }]

await serveByHand('big-result', { tools: {} }, tools, (request) => {
  if (request.method !== 'tools/call') return false
  write({ jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text: 'x'.repeat(megabytes * 1024 * 1024) }] } })
  return true
})
