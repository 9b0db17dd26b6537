import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js'
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js'
import { demoTargets } from '../shared/demo/targets'
import { figure, interleave, median, type BenchOptions, type Figure } from './harness'

const CLI = fileURLToPath(new URL('../cli/parallax.mjs', import.meta.url))
const CALL = { name: 'list_creative_formats', arguments: { name_search: 'banner' } }
/** The least any relay process costs: Node piping both ways and reading nothing (what the tap's figure is read against). */
const BARE_RELAY = `const c = require('child_process').spawn(process.argv[1], process.argv.slice(2), { stdio: ['pipe', 'pipe', 'inherit'] })
process.stdin.on('data', (b) => c.stdin.write(b)); c.stdout.on('data', (b) => process.stdout.write(b))
process.stdin.on('end', () => c.stdin.end()); c.on('close', (code) => process.exit(code ?? 0))`

/**
 * What `parallax tap` adds to a host's round trip over stdio: the SDK's own client calling the demo server
 * directly, and the same client calling the same server through `parallax tap` (which relays every byte, then
 * reads and keeps the session on disk), in alternating blocks. The figure's note gives the difference of the
 * medians in microseconds — the latency the tap adds — beside what a bare relay process (reading nothing) adds
 * in the same run, the floor of any tap that is a process of its own.
 */
export async function tapOverhead({ quick }: BenchOptions): Promise<Figure[]> {
  const count = quick ? 100 : 2_000
  const spec = demoTargets().find((t) => t.id === 'demo:tools')!.spec
  if (spec.kind !== 'mcp-stdio') throw new Error('the demo tools server is not a stdio one')
  const data = mkdtempSync(join(tmpdir(), 'parallax-bench-tap-'))
  const env = { ...getDefaultEnvironment(), ...spec.env }
  const direct = new Client({ name: 'bench-host', version: '1' })
  const tapped = new Client({ name: 'bench-host', version: '1' })
  const relayed = new Client({ name: 'bench-host', version: '1' })
  try {
    await direct.connect(new StdioClientTransport({ command: spec.command, args: spec.args, env, stderr: 'pipe' }))
    await tapped.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'tap', '--name', 'bench', '--', spec.command, ...spec.args],
        env: { ...env, PARALLAX_DATA_DIR: data },
        stderr: 'pipe',
      }),
    )
    await relayed.connect(
      new StdioClientTransport({ command: process.execPath, args: ['-e', BARE_RELAY, spec.command, ...spec.args], env, stderr: 'pipe' }),
    )
    const call = (client: Client) => () => client.request({ method: 'tools/call', params: CALL }, CallToolResultSchema)
    const [raw, through] = await interleave(count, call(direct), call(tapped))
    const [raw2, bare] = await interleave(count, call(direct), call(relayed))
    const addedUs = (median(through) - median(raw)) * 1000
    const bareUs = (median(bare) - median(raw2)) * 1000
    return [
      figure(
        'tap-overhead-stdio',
        median(through),
        median(raw),
        'ms median round trip',
        `${count} sequential tools/call each, interleaved; the tap adds ${addedUs.toFixed(0)} µs at the median (a bare relay process, reading nothing: ${bareUs.toFixed(0)} µs)`,
      ),
    ]
  } finally {
    await Promise.allSettled([direct.close(), tapped.close(), relayed.close()])
    rmSync(data, { recursive: true, force: true })
  }
}
