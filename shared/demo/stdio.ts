/**
 * Runs one demo over stdio: `node --import tsx shared/demo/stdio.ts <tools|prompts|resources|acp>` — an MCP
 * server, or (`acp`) the media-sales agent's ACP face. Parallax spawns this itself for the `demo:` targets.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { DEMO_SERVERS, type DemoServerName } from './mcpServers'

const name = process.argv[2]
if (name === 'acp') {
  // The ACP SDK loads only for the ACP demo: the MCP demos start without it.
  const { serveAcpDemo } = await import('./acpAgent')
  serveAcpDemo()
  process.stderr.write(`parallax demo ACP agent ready on stdio (pid ${process.pid})\n`)
} else {
  if (!Object.hasOwn(DEMO_SERVERS, name)) {
    process.stderr.write(`unknown demo server "${name}"; expected one of ${[...Object.keys(DEMO_SERVERS), 'acp'].join(', ')}\n`)
    process.exit(2)
  }
  const server = DEMO_SERVERS[name as DemoServerName]()
  await server.connect(new StdioServerTransport())
  process.stderr.write(`parallax demo "${name}" server ready on stdio (pid ${process.pid})\n`)
}
