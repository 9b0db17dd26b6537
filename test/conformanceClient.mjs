// Parallax's CLI as the client under test of the MCP conformance suite (@modelcontextprotocol/conformance).
// The runner appends the server's URL, names the scenario in MCP_CONFORMANCE_SCENARIO and, for scenarios
// that give the client credentials, passes them as JSON in MCP_CONFORMANCE_CONTEXT; this maps each scenario
// Parallax plays to the command a user would type. Runs on the Node that runs it (the runner's own Node 22
// is only the runner's: test/integration/conformance.test.ts starts this with Parallax's).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const url = process.argv.at(-1)
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? ''
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}')
const SCENARIOS = {
  initialize: ['inspect', `mcp:${url}`, '--probes', '1', '--interval', '100'],
  tools_call: ['call', `mcp:${url}`, 'add_numbers', '--args', '{"a": 2, "b": 3}'],
  'elicitation-sep1034-client-defaults': ['call', `mcp:${url}`, 'test_client_elicitation_defaults', '--elicit', 'accept'],
  // Skills (SEP-2640): listed without reading a file; or the listed skill loaded, each file checked against its entry.
  'sep-2640-client-no-prefetch': ['inspect', `mcp:${url}`, '--probes', '0'],
  'sep-2640-client-verify-digest': ['inspect', `mcp:${url}`, '--probes', '0', '--skill', 'pdf-processing'],
  'sep-2640-client-verify-size': ['inspect', `mcp:${url}`, '--probes', '0', '--skill', 'pdf-processing'],
  'sep-2640-client-verify-frontmatter': ['inspect', `mcp:${url}`, '--probes', '0', '--skill', 'pdf-processing'],
}
/** The client metadata document the suite's authorization server expects a client to name (basic-cimd). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json'

let keyDir
/** An authorization scenario: call the server's tool, signing in headless (its authorization server approves without a person) with what the scenario gives. */
function authScenario() {
  const args = ['call', `mcp:${url}`, 'test-tool', '--args', '{}', '--oauth-headless']
  if (context.client_id) args.push('--client-id', context.client_id)
  if (context.client_secret) args.push('--client-secret', context.client_secret)
  if (context.private_key_pem) {
    keyDir = mkdtempSync(join(tmpdir(), 'parallax-client-key-'))
    const key = join(keyDir, 'client-key.pem')
    writeFileSync(key, context.private_key_pem, { mode: 0o600 })
    args.push('--client-key', key)
  }
  if (scenario === 'auth/basic-cimd') args.push('--client-metadata-url', CLIENT_METADATA_URL)
  return args
}

/**
 * A scenario that names the tool calls a host would make (`toolCalls` in its context): one conversation
 * making them in turn, as `parallax converse` does.
 */
function toolCallsScenario() {
  return [
    'converse',
    `mcp:${url}`,
    ...context.toolCalls.flatMap((call) => ['--turn', JSON.stringify({ tool: call.name, arguments: call.arguments })]),
  ]
}

/** A value of a parameter's type, for calling a tool as a host would without being told its arguments. */
function sample(schema) {
  if (schema?.type === 'integer' || schema?.type === 'number') return 1
  if (schema?.type === 'boolean') return true
  if (schema?.type === 'object') return {}
  if (schema?.type === 'array') return []
  if (schema?.type === 'null') return null
  return 'us-west1'
}

/** A host's way with a server: list its tools (`inspect`), then call each one listed, its required arguments filled in (`converse`). */
function everyToolScenario() {
  const listed = spawnSync(process.execPath, [cli, 'inspect', `mcp:${url}`, '--json', '--probes', '0'], { encoding: 'utf8' })
  const tools = JSON.parse(listed.stdout || '{}').tools ?? []
  const turns = tools.map((tool) => {
    const properties = tool.inputSchema?.properties ?? {}
    const args = Object.fromEntries((tool.inputSchema?.required ?? []).map((name) => [name, sample(properties[name])]))
    return ['--turn', JSON.stringify({ tool: tool.name, arguments: args })]
  })
  return ['converse', `mcp:${url}`, ...turns.flat()]
}

const HOST_SCENARIOS = new Set(['http-invalid-tool-headers'])
const cli = fileURLToPath(new URL('../cli/parallax.mjs', import.meta.url))
const args = scenario.startsWith('auth/')
  ? authScenario()
  : (SCENARIOS[scenario] ?? (context.toolCalls ? toolCallsScenario() : HOST_SCENARIOS.has(scenario) ? everyToolScenario() : undefined))
if (!args) {
  process.stderr.write(
    `parallaxClient: no command for scenario ${JSON.stringify(scenario)} (known: ${Object.keys(SCENARIOS).join(', ')}, auth/*)\n`,
  )
  process.exit(2)
}
const run = spawnSync(process.execPath, [cli, ...args], { stdio: 'inherit' })
if (keyDir) rmSync(keyDir, { recursive: true, force: true })
process.exit(run.status ?? 1)
