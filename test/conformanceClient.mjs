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
const inspect = ['inspect', `mcp:${url}`, '--probes', '1', '--interval', '100']
/** Each scenario's command, or its commands run one after the other (a function: built from what the ones before printed). */
const SCENARIOS = {
  initialize: inspect,
  tools_call: ['call', `mcp:${url}`, 'add_numbers', '--args', '{"a": 2, "b": 3}'],
  'elicitation-sep1034-client-defaults': ['call', `mcp:${url}`, 'test_client_elicitation_defaults', '--elicit', 'accept'],
  // Skills (SEP-2640): listed without reading a file; or the listed skill loaded, each file checked against its entry.
  'sep-2640-client-no-prefetch': ['inspect', `mcp:${url}`, '--probes', '0'],
  'sep-2640-client-verify-digest': ['inspect', `mcp:${url}`, '--probes', '0', '--skill', 'pdf-processing'],
  'sep-2640-client-verify-size': ['inspect', `mcp:${url}`, '--probes', '0', '--skill', 'pdf-processing'],
  'sep-2640-client-verify-frontmatter': ['inspect', `mcp:${url}`, '--probes', '0', '--skill', 'pdf-processing'],
  'request-metadata': inspect,
  'sse-retry': ['call', `mcp:${url}`, 'test_reconnection', '--args', '{}'],
  'json-schema-ref-no-deref': inspect,
  // The schema a tool declares, listed, then sent back to the server's echo tool as it was listed.
  'json-schema-2020-12-preservation': [
    ['request', `mcp:${url}`, 'tools/list', '--json'],
    (listed) => {
      const tool = JSON.parse(listed).result.tools.find((t) => t.name === 'json_schema_2020_12_tool')
      return ['call', `mcp:${url}`, 'json_schema_echo', '--args', JSON.stringify({ schema: tool.inputSchema })]
    },
  ],
  // Each kind of request the scenario checks the standard headers (Mcp-Method, Mcp-Name) of.
  'http-standard-headers': [
    inspect,
    ['call', `mcp:${url}`, 'test_headers', '--args', '{}'],
    ['call', `mcp:${url}`, 'my-hyphenated-tool', '--args', '{}'],
    ['request', `mcp:${url}`, 'resources/read', '--params', '{"uri": "file:///path/to/file%20name.txt"}'],
    ['request', `mcp:${url}`, 'prompts/get', '--params', '{"name": "test_prompt"}'],
  ],
  'sep-2322-client-request-state': [
    ['call', `mcp:${url}`, 'test_mrtr_echo_state', '--args', '{}', '--elicit', 'accept'],
    ['call', `mcp:${url}`, 'test_mrtr_unrelated', '--args', '{}'],
    ['call', `mcp:${url}`, 'test_mrtr_no_state', '--args', '{}', '--elicit', 'accept'],
    ['call', `mcp:${url}`, 'test_mrtr_no_result_type', '--args', '{}'],
  ],
}
/** The client metadata document the suite's authorization server expects a client to name (basic-cimd). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json'

let keyDir
/** A credential the scenario gives, in a file of its own (0600) as a user would keep it; removed after the run. */
function secretFile(name, text) {
  keyDir ??= mkdtempSync(join(tmpdir(), 'parallax-conformance-secrets-'))
  const path = join(keyDir, name)
  writeFileSync(path, text, { mode: 0o600 })
  return path
}
/** An authorization scenario: call the server's tool, signing in headless (its authorization server approves without a person) with what the scenario gives. */
function authScenario() {
  const args = ['call', `mcp:${url}`, 'test-tool', '--args', '{}', '--oauth-headless']
  if (context.client_id) args.push('--client-id', context.client_id)
  if (context.client_secret) args.push('--client-secret', context.client_secret)
  if (context.private_key_pem) args.push('--client-key', secretFile('client-key.pem', context.private_key_pem))
  // Workload identity (SEP-1933): the platform's token, in a file as a workload finds it.
  if (context.valid_jwt) args.push('--assertion-file', secretFile('workload-token.jwt', context.valid_jwt))
  // Enterprise-managed authorization (SEP-990): the person's ID token from the identity provider, and where it is exchanged.
  if (context.idp_id_token) {
    args.push('--id-token-file', secretFile('id-token.jwt', context.idp_id_token))
    args.push('--idp-token-endpoint', context.idp_token_endpoint, '--idp-client-id', context.idp_client_id)
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
const commands = Array.isArray(args[0]) || typeof args[0] === 'function' ? args : [args]
let status = 0
let printed = ''
for (const command of commands) {
  const run = spawnSync(process.execPath, [cli, ...(typeof command === 'function' ? command(printed) : command)], {
    stdio: ['inherit', 'pipe', 'inherit'],
    encoding: 'utf8',
  })
  process.stdout.write(run.stdout ?? '')
  printed = run.stdout ?? ''
  status = run.status ?? 1
  if (status !== 0) break
}
if (keyDir) rmSync(keyDir, { recursive: true, force: true })
process.exit(status)
