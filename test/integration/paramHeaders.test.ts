import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { builtInDemos } from '../../shared/demo/builtIns'
import { Engine } from '../../shared/engine/engine'
import { cliRunner } from '../fixtures/cli'
import { EventRecorder } from '../fixtures/events'
import { startParamHeaderServer, type RunningParamHeaderServer } from '../fixtures/paramHeaderServer'
import { approveAll, httpTarget } from '../fixtures/targets'

// SEP-2243 against a real 2.x SDK server over streamable HTTP: its tools/call handler rejects a call
// whose Mcp-Param-* headers are missing or differ from the body.

let server: RunningParamHeaderServer | undefined
let engine: Engine | undefined

afterEach(async () => {
  await engine?.dispose()
  engine = undefined
  await server?.close()
  server = undefined
})

const parallax = cliRunner(mkdtempSync(join(tmpdir(), 'parallax-param-headers-')))

describe('tools whose parameters declare x-mcp-header, over streamable HTTP', () => {
  it('a call carries the Mcp-Param headers, shown on its frame; the server takes it', async () => {
    server = await startParamHeaderServer()
    engine = new Engine({ host: 'cli', builtIns: builtInDemos(), approver: approveAll, defaults: { keepaliveIntervalMs: 60_000 } })
    const recorder = new EventRecorder(engine)
    const connection = await engine.createConnection(httpTarget(server.url))
    expect(await connection.open()).toBe(true)
    await recorder.waitFor((e) => e.type === 'discovery' && e.connectionId === connection.id && e.method === 'tools/list')
    const result = await engine.invoke('tools.call', {
      connectionId: connection.id,
      tool: 'execute_sql',
      arguments: { region: 'Zürich 1 ', query: 'SELECT 1' },
    })
    expect(JSON.stringify(result)).toContain('ran with')
    // Not ASCII and ending in a space: Base64 of its UTF-8, as the spec says.
    const encoded = `=?base64?${Buffer.from('Zürich 1 ').toString('base64')}?=`
    expect(server.calls).toEqual([{ 'mcp-param-region': encoded }])
    const call = recorder.of('frame', connection.id).find((f) => f.direction === 'out' && f.method === 'tools/call')
    expect(call?.http).toMatchObject({ method: 'POST', url: server.url, headers: { 'Mcp-Param-Region': encoded } })
  })

  it('inspect flags the invalid declaration as a finding (exit 1); calling that tool is refused, saying why, and the valid one still works', async () => {
    server = await startParamHeaderServer()
    const inspected = await parallax('inspect', `mcp:${server.url}`, '--json', '--probes', '0')
    const report = JSON.parse(inspected.stdout)
    expect(report.tools.map((t: { name: string }) => t.name).sort()).toEqual(['bad_region', 'execute_sql'])
    expect(report.findings).toEqual([
      expect.stringMatching(/tool "bad_region" has an invalid x-mcp-header .*"My Region" is not an HTTP header name/),
    ])
    expect(inspected.code).toBe(1)

    const conversed = await parallax(
      'converse',
      `mcp:${server.url}`,
      '--turn',
      JSON.stringify({ tool: 'bad_region', arguments: { region: 'eu' } }),
      '--turn',
      JSON.stringify({ tool: 'execute_sql', arguments: { region: 'eu-west1', query: 'SELECT 1' } }),
    )
    expect(conversed.stdout + conversed.stderr).toMatch(/tool "bad_region" is excluded: its x-mcp-header declaration is invalid/)
    expect(conversed.stdout).toContain('ran with {"region":"eu-west1","query":"SELECT 1"}')
    // Only the valid tool reached the server, with its header.
    expect(server.calls).toEqual([{ 'mcp-param-region': 'eu-west1' }])
  })
})
