/**
 * Runs one demo MCP server over stdio: `node --import tsx shared/demo/stdio.ts <tools|prompts|resources>`.
 * Parallax spawns this itself for the `demo:` targets.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { DEMO_SERVERS, type DemoServerName } from './mcpServers'

const name = process.argv[2] as DemoServerName
if (!Object.hasOwn(DEMO_SERVERS, name)) {
  process.stderr.write(`unknown demo server "${name}"; expected one of ${Object.keys(DEMO_SERVERS).join(', ')}\n`)
  process.exit(2)
}
const server = DEMO_SERVERS[name]()
await server.connect(new StdioServerTransport())
process.stderr.write(`parallax demo "${name}" server ready on stdio (pid ${process.pid})\n`)
