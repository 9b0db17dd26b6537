// Parallax's CLI as the client under test of the MCP conformance suite (@modelcontextprotocol/conformance).
// The runner appends the server's URL and names the scenario in MCP_CONFORMANCE_SCENARIO; this maps each
// scenario Parallax plays to the command a user would type. Runs on the Node that runs it (the runner's
// own Node 22 is only the runner's: test/integration/conformance.test.ts starts this with Parallax's).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const url = process.argv.at(-1)
const scenario = process.env.MCP_CONFORMANCE_SCENARIO
const SCENARIOS = {
  initialize: ['inspect', `mcp:${url}`, '--probes', '1', '--interval', '100'],
  tools_call: ['call', `mcp:${url}`, 'add_numbers', '--args', '{"a": 2, "b": 3}'],
  'elicitation-sep1034-client-defaults': ['call', `mcp:${url}`, 'test_client_elicitation_defaults', '--elicit', 'accept'],
}
const args = SCENARIOS[scenario]
if (!args) {
  process.stderr.write(
    `parallaxClient: no command for scenario ${JSON.stringify(scenario)} (known: ${Object.keys(SCENARIOS).join(', ')})\n`,
  )
  process.exit(2)
}
const cli = fileURLToPath(new URL('../cli/parallax.mjs', import.meta.url))
const run = spawnSync(process.execPath, [cli, ...args], { stdio: 'inherit' })
process.exit(run.status ?? 1)
