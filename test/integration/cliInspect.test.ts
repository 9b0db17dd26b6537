import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { createToolServer } from '../../shared/demo/mcpServers'
import { startStreamableServer } from '../../shared/demo/httpServers'
import { cliRunner } from '../fixtures/cli'

const dir = mkdtempSync(join(tmpdir(), 'parallax-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const parallax = cliRunner(join(dir, 'data'))

describe('parallax converse', () => {
  it('runs a multi-turn A2A conversation, continuing the task that asked for input', async () => {
    const { code, stdout } = await parallax(
      'converse',
      'demo:a2a',
      '--turn',
      'buy prod_mobile_run 2000',
      '--turn',
      'acmeoutdoor.example',
      '--turn',
      '{"skill":"get_media_buy_delivery","input":{"media_buy_ids":["mb_0001"]}}',
      '--stream',
      '--json',
    )
    expect(code).toBe(0)
    const report = JSON.parse(stdout)
    expect(report).toMatchObject({ format: 'parallax.conversation/1', protocol: 'a2a', contextId: expect.any(String) })
    expect(report.turns.map((t: { state: string }) => t.state)).toEqual(['input-required', 'completed', 'completed'])
    expect(report.turns[1].request.taskId).toBe(report.turns[0].taskId)
    expect(report.turns[2].request).toEqual({
      parts: [{ data: { skill: 'get_media_buy_delivery', input: { media_buy_ids: ['mb_0001'] } } }],
      contextId: report.contextId,
    })
    expect(report.history[0]).toMatchObject({
      role: 'user',
      content: 'buy prod_mobile_run 2000',
      metadata: { timestampSource: 'observed' },
    })
    expect(report.history.filter((m: { role: string }) => m.role === 'user')).toHaveLength(3)
  })

  it('runs MCP tool calls as turns, and exits 1 when a turn fails', async () => {
    const ok = await parallax(
      'converse',
      'demo:tools',
      '--turn',
      '{"tool":"list_creative_formats","arguments":{"name_search":"audio"}}',
      '--json',
    )
    expect(ok.code).toBe(0)
    const report = JSON.parse(ok.stdout)
    expect(report.protocol).toBe('mcp')
    expect(report.turns[0]).toMatchObject({ state: 'completed', request: { tool: 'list_creative_formats' } })
    expect(report.history.map((m: { role: string }) => m.role)).toEqual(['user', 'agent'])
    const failing = await parallax('converse', 'demo:tools', '--turn', '{"tool":"no_such_tool","arguments":{}}', '--json')
    expect(failing.code).toBe(1)
    expect(JSON.parse(failing.stdout).turns[0].state).toBe('error')
    const misuse = await parallax('converse', 'demo:tools', '--turn', 'hello')
    expect(misuse.code).toBe(2)
    expect(misuse.stderr).toMatch(/an MCP turn is/)
  })
})

describe('parallax call', () => {
  // get_products as a buyer written for AdCP 2.x sends it: no buying_mode.
  const args = JSON.stringify({ brief: 'mobile display', context: { buyer: 'acme' } })

  it('prints one parallax.call/1 object: a hook makes the call valid, exit 0', async () => {
    const { code, stdout } = await parallax(
      'call',
      'demo:tools',
      'get_products',
      '--args',
      args,
      '--hooks',
      'shared/demo/hooks/fill-buying-mode.json',
      '--json',
    )
    expect(code).toBe(0)
    const report = JSON.parse(stdout)
    expect(report).toMatchObject({
      format: 'parallax.call/1',
      tool: 'get_products',
      raw: JSON.parse(args),
      hooked: { buying_mode: 'brief' },
      diff: [{ path: '/buying_mode', op: 'add', to: 'brief' }],
      validation: { raw: { valid: false }, hooked: { valid: true, errors: [] } },
      sent: true,
      contextEcho: { present: true, matchesRaw: true },
      lint: [],
      findings: [],
    })
    expect(report.hookError).toBeUndefined()
  })

  it('exits 1 for a finding: invalid hooked arguments, or a context echo mismatch', async () => {
    const invalid = await parallax('call', 'demo:tools', 'get_products', '--args', args, '--json')
    expect(invalid.code).toBe(1)
    expect(JSON.parse(invalid.stdout).findings[0]).toMatch(/hooked arguments are invalid/)
    const mismatch = await parallax(
      'call',
      'demo:tools-changed-context',
      'get_products',
      '--args',
      JSON.stringify({ ...JSON.parse(args), buying_mode: 'brief' }),
      '--json',
    )
    expect(mismatch.code).toBe(1)
    expect(JSON.parse(mismatch.stdout).contextEcho.matchesRaw).toBe(false)
  })

  it('lints the protocol fields it is told to', async () => {
    const { stdout } = await parallax(
      'call',
      'demo:tools',
      'get_products',
      '--args',
      '{"buying_mode": "brief", "brief": "news", "trace_id": "t1"}',
      '--protocol-fields',
      'trace_id,jsonrpc',
      '--json',
    )
    expect(JSON.parse(stdout).lint).toEqual([
      {
        where: 'arguments',
        path: '/trace_id',
        field: 'trace_id',
        message: 'protocol field "trace_id" sent inside the domain arguments at /trace_id',
      },
    ])
  })

  it('exits 2 for a bad hooks file or bad arguments', async () => {
    const badHooks = await parallax('call', 'demo:tools', 'create_media_buy', '--hooks', 'no/such/file.json')
    expect(badHooks.code).toBe(2)
    expect(badHooks.stderr).toMatch(/cannot read hooks file/)
    const badArgs = await parallax('call', 'demo:tools', 'create_media_buy', '--args', '[1]')
    expect(badArgs.code).toBe(2)
    expect(badArgs.stderr).toMatch(/--args must be a JSON object/)
  })
})

describe('parallax record and replay', () => {
  const DEMO = fileURLToPath(new URL('../../shared/demo/recordings/media-buying.jsonl', import.meta.url))

  it('replays the demo recording MCP vs A2A: one parallax.replay/1 object, a JUnit file, exit 1 for the difference', async () => {
    const junitFile = join(dir, 'replay.xml')
    const { code, stdout } = await parallax(
      'replay',
      DEMO,
      '--target',
      'demo:tools',
      '--target',
      'demo:a2a',
      '--json',
      '--junit',
      junitFile,
    )
    expect(code).toBe(1)
    const report = JSON.parse(stdout)
    expect(report).toMatchObject({
      format: 'parallax.replay/1',
      targets: ['demo:tools', 'demo:a2a'],
      summary: { total: 4, same: 3, differs: 1, errors: 0 },
    })
    expect(report.turns[3]).toMatchObject({
      index: 4,
      status: 'differs',
      diff: [{ path: '/data/media_buy_deliveries/0/pricing_model', op: 'add', b: 'cpm' }],
    })
    const xml = readFileSync(junitFile, 'utf8')
    expect(xml.match(/<testcase /g)).toHaveLength(4)
    expect(xml).toContain('failures="1"')
    expect(xml).toContain('differ at /data/media_buy_deliveries/0/pricing_model')
  })

  it('records with parallax record, replays against the same target with exit 0, and reports corrupt lines by number', async () => {
    const out = join(dir, 'session.jsonl')
    const recorded = await parallax(
      'record',
      'demo:tools',
      '--turn',
      '{"tool":"list_creative_formats","arguments":{"name_search":"pre-roll"}}',
      '--turn',
      '{"tool":"get_products","arguments":{"buying_mode":"brief","brief":"podcast"}}',
      '--out',
      out,
    )
    expect(recorded.code).toBe(0)
    const same = await parallax('replay', out, '--target', 'demo:tools')
    expect(same.code).toBe(0)
    expect(same.stdout).toMatch(/2 turn\(s\): 2 same, 0 differ, 0 error/)
    writeFileSync(out, `${readFileSync(out, 'utf8')}{"type": "frame", "seq`)
    const corrupt = await parallax('replay', out, '--target', 'demo:tools', '--json')
    expect(corrupt.code).toBe(0)
    expect(corrupt.stderr).toMatch(/session\.jsonl:\d+: truncated/)
    expect(JSON.parse(corrupt.stdout).problems[0].message).toMatch(/truncated/)
  })

  it('exits 2 for usage mistakes', async () => {
    expect((await parallax('replay', 'no-such-file.jsonl', '--target', 'demo:tools')).code).toBe(2)
    expect((await parallax('replay', DEMO)).code).toBe(2)
    expect((await parallax('replay', DEMO, '--target', 'demo:tools', '--ignore', 'no-slash')).stderr).toMatch(/JSON Pointers/)
  })
})

describe('parallax compare', () => {
  it('minimal vs hinted on the demo: the hinted tools are added, exit 1; nothing breaking, exit 0 with --fail-on breaking', async () => {
    const any = await parallax('compare', 'demo:tools', '--profile-a', 'minimal', '--profile-b', 'hinted', '--json')
    expect(any.code).toBe(1)
    const report = JSON.parse(any.stdout)
    expect(report).toMatchObject({
      format: 'parallax.compare/1',
      a: { profile: 'minimal' },
      b: { profile: 'hinted' },
      catalog: { removed: [], changed: [] },
    })
    expect(report.catalog.added.map((x: { name: string }) => x.name).sort()).toEqual(['forecast_delivery', 'preview_creative'])
    expect(report.handshake).toEqual([expect.objectContaining({ origin: 'client', field: 'clientCapabilities.experimental' })])
    expect((await parallax('compare', 'demo:tools', '--profile-a', 'minimal', '--profile-b', 'hinted', '--fail-on', 'breaking')).code).toBe(
      0,
    )
    expect((await parallax('compare', 'demo:tools', '--profile-a', 'minimal', '--profile-b', 'full')).code).toBe(0)
  })

  it('exits 2 for an invalid profile file, before connecting', async () => {
    const file = join(dir, 'bad-profile.json')
    writeFileSync(file, JSON.stringify({ name: 'bad', a2a: { extensions: ['not a uri'] } }))
    const bad = await parallax('compare', 'demo:tools', '--profile-b', file)
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/not a valid client profile: a2a.extensions.0: an extension is named by its URI/)
  })
})

describe('parallax inspect', () => {
  it('prints one parallax.inspect/1 object for the prompt-only demo, with tools/list skipped and ping probes', async () => {
    const { code, stdout } = await parallax('inspect', 'demo:prompts', '--json', '--probes', '2', '--interval', '150', '--frames')
    expect(code).toBe(0)
    const lines = stdout.trim().split('\n')
    expect(lines).toHaveLength(1)
    const report = JSON.parse(lines[0])
    expect(report).toMatchObject({
      format: 'parallax.inspect/1',
      protocol: 'mcp',
      transport: 'stdio',
      handshake: { protocolVersion: expect.any(String), requestedProtocolVersion: expect.any(String), serverCapabilities: { prompts: {} } },
      keepalive: { probe: 'ping', intervalMs: 150, state: 'healthy' },
    })
    expect(report.discovery.find((d: { method: string }) => d.method === 'tools/list')).toMatchObject({
      status: 'skipped',
      reason: expect.stringContaining('"tools"'),
    })
    expect(report.prompts.map((p: { name: string }) => p.name)).toEqual(['media_brief', 'campaign_review'])
    expect(report.keepalive.probes).toHaveLength(2)
    expect(report.keepalive.probes.every((p: { ok: boolean; probe: string }) => p.ok && p.probe === 'ping')).toBe(true)
    expect(report.frames.some((f: { method?: string }) => f.method === 'tools/list')).toBe(false)
    // The default profile negotiates the era: server/discover first (a 2025 server answers -32601), then initialize.
    expect(report.frames[0]).toMatchObject({ direction: 'out', method: 'server/discover' })
    expect(report.frames.find((f: { method?: string }) => f.method === 'initialize')).toMatchObject({ direction: 'out', id: 0 })
    expect(report.handshake).toMatchObject({
      era: '2025',
      negotiation: { ask: 'negotiate', steps: [{ accepted: false }, { accepted: true }] },
    })
  })

  it('reads a target from an mcpServers config file and redacts its secrets', async () => {
    const server = await startStreamableServer(createToolServer)
    try {
      const config = join(dir, 'mcp.json')
      writeFileSync(config, JSON.stringify({ mcpServers: { sales: { url: server.url, headers: { Authorization: 'Bearer s3cret' } } } }))
      const { code, stdout } = await parallax('inspect', 'sales', '--config', config, '--json')
      expect(code).toBe(0)
      const report = JSON.parse(stdout)
      expect(report.transport).toBe('streamable-http')
      expect(report.tools).toHaveLength(5)
      expect(report.keepalive.probe).toBe('tools/list')
      expect(stdout).not.toContain('s3cret')
      expect(report.target.spec.headers.Authorization).toBe('[redacted]')
    } finally {
      await server.close()
    }
  })

  it('prints a human report without --json', async () => {
    const { code, stdout, stderr } = await parallax('inspect', 'demo:resources')
    expect(code).toBe(0)
    expect(stdout).toMatch(/parallax-demo-inventory .* over stdio/)
    expect(stdout).toMatch(/skipped tools\/list\s+server did not advertise the "tools" capability/)
    expect(stdout).toMatch(/resources \(8\)/)
    expect(stderr).toContain('connecting to')
  })

  it('inspects an A2A agent: card, generation, interface, skills and card keepalive', async () => {
    const { code, stdout } = await parallax('inspect', 'demo:a2a', '--json', '--probes', '2', '--interval', '150')
    expect(code).toBe(0)
    const report = JSON.parse(stdout)
    expect(report).toMatchObject({
      format: 'parallax.inspect/1',
      protocol: 'a2a',
      generation: '1.0',
      interface: { protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      capabilities: { streaming: true },
      keepalive: { probe: 'agent-card', state: 'healthy' },
      warnings: [],
    })
    expect(report.agentCard.name).toBe('Parallax demo media-sales agent')
    expect(report.skills).toHaveLength(6)
    expect(report.keepalive.probes.map((p: { note?: string }) => p.note)).toEqual(['not modified (ETag)', 'not modified (ETag)'])
  })

  it('inspects the demo agent over gRPC out of the box: the gRPC interface chosen, and why', async () => {
    const { code, stdout } = await parallax('inspect', 'demo:a2a-grpc', '--json', '--frames', '--probes', '1')
    expect(code).toBe(0)
    const report = JSON.parse(stdout)
    expect(report).toMatchObject({
      protocol: 'a2a',
      transport: 'grpc',
      interface: { protocolBinding: 'GRPC', protocolVersion: '1.0', url: expect.stringMatching(/^127\.0\.0\.1:\d+$/) },
      interfaceReason: expect.stringMatching(/because this target prefers GRPC/),
      keepalive: { probe: 'agent-card', state: 'healthy' },
      findings: [],
    })
    const human = await parallax('inspect', 'demo:a2a-grpc', '--probes', '0')
    expect(human.stdout).toMatch(/interface {3}GRPC 1\.0 127\.0\.0\.1:\d+ \(frames: grpc\)/)
    const misused = await parallax('inspect', 'demo:a2a', '--binding', 'GRPC', '--json')
    expect(misused.code).toBe(2)
    expect(JSON.parse(misused.stdout).error.message).toMatch(/demo:a2a-grpc is the same agent over gRPC/)
  })

  it('exits 2 with the reason when the target cannot be reached or is misused', async () => {
    const unreachable = await parallax('inspect', 'stdio:/nonexistent/server --flag', '--json')
    expect(unreachable.code).toBe(2)
    expect(JSON.parse(unreachable.stdout).error).toMatchObject({
      kind: 'connection',
      cause: { command: '/nonexistent/server --flag', code: 'ENOENT' },
    })
    expect(unreachable.stderr.trim().split('\n')[0]).toMatch(/cannot connect: cannot run \/nonexistent\/server --flag: .*ENOENT/)

    const unknown = await parallax('inspect', 'nowhere')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/unknown target "nowhere"/)

    const badFlag = await parallax('inspect', 'demo:prompts', '--probes', 'many')
    expect(badFlag.code).toBe(2)
    expect(badFlag.stderr).toMatch(/--probes must be a whole number/)

    const noTarget = await parallax('inspect')
    expect(noTarget.code).toBe(2)
  })
})
