// The baseline for `parallax inspect`: the raw MCP SDK client doing what it does on a prompt-only
// server (connect, list prompts, one ping) and exiting. Plain JavaScript, so nothing is compiled on start.
//   node bench/rawInspect.mjs <command> [args…]
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

const [command, ...args] = process.argv.slice(2)
const client = new Client({ name: 'raw-inspect', version: '1.0.0' })
await client.connect(new StdioClientTransport({ command, args, env: getDefaultEnvironment(), stderr: 'pipe' }))
const { prompts } = await client.listPrompts()
await client.ping()
process.stdout.write(`${client.getServerVersion()?.name}: ${prompts.length} prompts\n`)
await client.close()
