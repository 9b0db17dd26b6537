import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { appToolUi, CommandError, MCP_APP_MIME_TYPE, MCP_APPS_EXTENSION, type FrameEvent, type UnsavedTarget } from '../../shared/contract'
import { builtInDemos } from '../../shared/demo/builtIns'
import { Engine, type EngineOptions } from '../../shared/engine/engine'
import { EventRecorder } from '../fixtures/events'
import { approveAll, fixtureTarget } from '../fixtures/targets'

const require = createRequire(import.meta.url)
// Its package exports only the server module; the command-line entry (`--stdio`) sits beside it.
const basicServer = join(dirname(require.resolve('@modelcontextprotocol/server-basic-vanillajs')), 'index.js')

/** The MCP Apps example server from npm, over stdio as its README runs it. */
const basicApp: UnsavedTarget = {
  id: 'basic-app',
  name: 'server-basic-vanillajs',
  origin: 'user',
  options: {},
  spec: { kind: 'mcp-stdio', command: process.execPath, args: [basicServer, '--stdio'], env: {} },
}

/** The hand-written App server of test/fixtures/servers/appViews.ts. */
const appViewsServer = { ...fixtureTarget('appViews'), origin: 'user' as const }

let engine: Engine
let dir: string | undefined
afterEach(async () => {
  await engine?.dispose()
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = undefined
})

async function connect(target: UnsavedTarget, profile?: string, options: Partial<EngineOptions> = {}) {
  engine = new Engine({
    host: 'cli',
    builtIns: builtInDemos(),
    approver: approveAll,
    appViewUrl: (id) => `http://127.0.0.1:1/view/${id}`,
    ...options,
  })
  const recorder = new EventRecorder(engine)
  const { connectionId } = await engine.invoke('connections.open', { target, ...(profile && { profile }) })
  expect(await engine.invoke('connections.wait', { connectionId })).toMatchObject({ connected: true })
  return { recorder, connectionId }
}

/** A view's JSON-RPC message as the UI hands it over. */
const wire = (direction: 'in' | 'out', message: unknown) => ({ direction, text: JSON.stringify(message) })

describe('MCP Apps against @modelcontextprotocol/server-basic-vanillajs', () => {
  it('advertises the extension, marks the App tool, reads its view and records what crosses the bridge', async () => {
    const { recorder, connectionId } = await connect(basicApp)
    // What went on the wire: the default profile offers MCP Apps in initialize.
    const initialize = recorder.of('frame', connectionId).find((f) => f.method === 'initialize' && f.kind === 'request')!
    const offered = (initialize.payload as { params: { capabilities: { extensions?: Record<string, { mimeTypes: string[] }> } } }).params
    expect(offered.capabilities.extensions?.[MCP_APPS_EXTENSION]?.mimeTypes).toEqual([MCP_APP_MIME_TYPE])

    // The Catalog's reading of the tool: an App tool, its view, callable by the model and by the view.
    const tools = recorder.of('discovery', connectionId).find((d) => d.method === 'tools/list')!.items!
    expect(appToolUi(tools.find((t) => (t as { name: string }).name === 'get-time'))).toEqual({
      resourceUri: 'ui://get-time/mcp-app.html',
      visibility: ['model', 'app'],
      problems: [],
    })

    const view = await engine.invoke('apps.open', { connectionId, uri: 'ui://get-time/mcp-app.html', tool: 'get-time' })
    expect(view).toMatchObject({ mimeType: MCP_APP_MIME_TYPE, uiFrom: 'none', allow: '', sandbox: 'allow-scripts', problems: [] })
    expect(view.url).toBe(`http://127.0.0.1:1/view/${view.viewId}`)
    expect(view.bytes).toBeGreaterThan(10_000)
    // Nothing declared: the extension's restrictive default, no network at all.
    expect(view.csp).toContain("default-src 'none'")
    expect(view.csp).toContain("connect-src 'none'")
    expect(view.csp).toContain("frame-src 'none'")
    expect(view.csp.startsWith('sandbox allow-scripts;')).toBe(true)
    // Read through the connection: frames of its own, no conversation turn.
    const read = recorder.of('frame', connectionId).filter((f) => f.method === 'resources/read')
    expect(read.map((f) => [f.direction, f.kind, f.subject])).toEqual([
      ['out', 'request', 'ui://get-time/mcp-app.html'],
      ['in', 'response', 'ui://get-time/mcp-app.html'],
    ])
    expect(recorder.of('conversation', connectionId)).toEqual([])
    expect(recorder.of('log', connectionId).some((l) => l.text.includes('App view') && l.text.includes("connect-src 'none'"))).toBe(true)

    const document = await engine.invoke('apps.document', { viewId: view.viewId })
    expect(document.html).toContain('id="get-time-btn"')
    expect(document.html.indexOf('RTCPeerConnection')).toBeLessThan(document.html.indexOf('<script'.concat(' type="module"')))
    expect(document.csp).toBe(view.csp)
    expect(document.permissionsPolicy).toBe(view.permissionsPolicy)
    expect(view.permissionsPolicy.split(', ')).toEqual(expect.arrayContaining(['camera=()', 'microphone=()', 'geolocation=()']))

    // The view's handshake as the UI saw it cross postMessage: two frames of the view's own protocol, paired.
    const ask = { jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: { appInfo: { name: 'x', version: '1' } } }
    await engine.invoke('apps.frames', {
      viewId: view.viewId,
      frames: [
        { ...wire('in', ask), ts: Date.now() - 5 },
        { ...wire('out', { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2026-01-26' } }), ts: Date.now() },
      ],
    })
    const bridge = recorder.of('frame', connectionId).filter((f) => f.protocol === 'mcp-app')
    expect(bridge.map((f) => [f.direction, f.kind, f.method, f.transport, f.view?.uri])).toEqual([
      ['in', 'request', 'ui/initialize', 'postMessage', 'ui://get-time/mcp-app.html'],
      ['out', 'response', 'ui/initialize', 'postMessage', 'ui://get-time/mcp-app.html'],
    ])
    expect(bridge[1].requestSeq).toBe(bridge[0].seq)
    expect(bridge[1].latencyMs).toBeGreaterThanOrEqual(0)

    // The view's own tool call: an inspected call like the user's, on the server's wire, marked as the view's.
    const report = await engine.invoke('apps.callTool', { viewId: view.viewId, tool: 'get-time', arguments: {} })
    expect(report.sent).toBe(true)
    expect((report.response as { structuredContent: { time: string } }).structuredContent.time).toMatch(/^\d{4}-\d\d-\d\dT/)
    const [call] = recorder.of('call', connectionId)
    expect(call.view).toEqual({ id: view.viewId, uri: 'ui://get-time/mcp-app.html' })
    expect(call.validation.raw.valid).toBe(true)
    expect(recorder.of('frame', connectionId).filter((f) => f.protocol === 'mcp' && f.method === 'tools/call')).toHaveLength(2)
    expect(recorder.of('conversation', connectionId).map((c) => c.message.role)).toEqual(['user', 'agent'])

    expect(await engine.invoke('apps.close', { viewId: view.viewId })).toEqual({ closed: true })
    await expect(engine.invoke('apps.document', { viewId: view.viewId })).rejects.toThrow(/no open App view/)
  })

  it('offers nothing under the minimal profile', async () => {
    const { recorder, connectionId } = await connect(basicApp, 'minimal')
    const [handshake] = recorder.of('handshake', connectionId)
    expect(handshake.protocol === 'mcp' && handshake.clientCapabilities).toEqual({})
  })
})

describe('MCP Apps: what a server and its view get wrong', () => {
  it('builds the policy from what the resource declares, leaving out what is not an origin', async () => {
    const { recorder, connectionId } = await connect(appViewsServer)
    const view = await engine.invoke('apps.open', { connectionId, uri: 'ui://board/view.html', tool: 'show-board' })
    expect(view.uiFrom).toBe('resource')
    expect(view.ui).toMatchObject({ prefersBorder: true, permissions: ['clipboardWrite'] })
    expect(view.csp).toContain('connect-src https://api.example.com')
    expect(view.csp).toContain("script-src 'self' 'unsafe-inline' https://cdn.example.com;")
    expect(view.csp).not.toContain('evil')
    expect(view.csp.split(';').filter((d) => d.trim().startsWith('script-src'))).toHaveLength(1)
    expect(view.allow).toBe('clipboard-write')
    expect(view.problems.join('\n')).toMatch(/evil\.example\.com; script-src \*.*is not an origin/)
    expect(view.problems.join('\n')).toMatch(/teleport/)
    const warnings = recorder.of('log', connectionId).filter((l) => l.level === 'warn' && l.text.startsWith('MCP Apps:'))
    expect(warnings).toHaveLength(2)
  })

  it('refuses a view call to a tool listed for the model only, and calls the app-only one', async () => {
    const { recorder, connectionId } = await connect(appViewsServer)
    const { viewId } = await engine.invoke('apps.open', { connectionId, uri: 'ui://board/view.html' })
    const refused = await engine.invoke('apps.callTool', { viewId, tool: 'secret-plan' }).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(CommandError)
    expect((refused as CommandError).message).toMatch(/secret-plan.*model only/)
    expect(recorder.of('frame', connectionId).some((f) => f.subject === 'secret-plan')).toBe(false)
    const report = await engine.invoke('apps.callTool', { viewId, tool: 'refresh-board' })
    expect(report.response).toMatchObject({ content: [{ type: 'text', text: expect.stringMatching(/^refreshed/) }] })
  })

  it('refuses a resource that is not HTML, and says what it is', async () => {
    const { recorder, connectionId } = await connect(appViewsServer)
    await expect(engine.invoke('apps.open', { connectionId, uri: 'ui://board/data.json' })).rejects.toThrow(
      /ui:\/\/board\/data\.json is application\/json, not an App view/,
    )
    await expect(engine.invoke('apps.open', { connectionId, uri: 'https://example.org/' })).rejects.toThrow(/ui:\/\/ resource/)
    await expect(engine.invoke('apps.open', { connectionId, uri: 'ui://board/missing.html' })).rejects.toThrow(
      /could not read ui:\/\/board\/missing\.html/,
    )
    // The connection is none the worse.
    const { viewId } = await engine.invoke('apps.open', { connectionId, uri: 'ui://board/view.html' })
    expect(viewId).toMatch(/^[0-9a-f]{32}$/)
    expect(recorder.of('connection', connectionId).at(-1)?.state).toBe('connected')
  })

  it('keeps garbage from a view as refused frames and says so once', async () => {
    const { recorder, connectionId } = await connect(appViewsServer)
    const { viewId } = await engine.invoke('apps.open', { connectionId, uri: 'ui://board/view.html' })
    await engine.invoke('apps.frames', {
      viewId,
      frames: [
        { direction: 'in', text: 'this is not JSON-RPC' },
        wire('in', { hello: 'world' }),
        wire('in', { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'fine' } }),
        { direction: 'in', text: '"x"', refused: 'larger than 4 MB', bytes: 5_000_000 },
      ],
    })
    const frames = recorder.of('frame', connectionId).filter((f): f is FrameEvent => f.protocol === 'mcp-app')
    expect(frames.map((f) => [f.kind, f.truncated?.refused])).toEqual([
      ['error', 'not JSON'],
      ['error', 'not a JSON-RPC 2.0 message'],
      ['notification', undefined],
      ['error', 'larger than 4 MB'],
    ])
    expect(frames[0].payload).toBe('this is not JSON-RPC')
    expect(frames[3].bytes).toBe(5_000_000)
    const said = recorder.of('log', connectionId).filter((l) => l.oddity && l.text.includes('App view'))
    expect(said.map((l) => l.text)).toEqual([
      expect.stringMatching(/the view sent a message that is not JSON; it was not handed on/),
      expect.stringMatching(/not a JSON-RPC 2\.0 message/),
      expect.stringMatching(/larger than 4 MB/),
    ])
  })
})

describe('a view’s tool call is a call like the user’s', () => {
  it('runs through the target’s hooks, is recorded with the view’s frames, and replays', async () => {
    dir = mkdtempSync(join(tmpdir(), 'parallax-apps-'))
    const { recorder, connectionId } = await connect(basicApp, undefined, { recordingsDir: join(dir, 'recordings') })
    const hooks = join(dir, 'hooks.json')
    writeFileSync(hooks, JSON.stringify({ 'get-time': { set: { asked_by: 'view' } } }))
    await engine.invoke('hooks.load', { connectionId, path: hooks })
    const { name } = await engine.invoke('recordings.start', { connectionId, name: 'app session' })

    const view = await engine.invoke('apps.open', { connectionId, uri: 'ui://get-time/mcp-app.html', tool: 'get-time' })
    const ask = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get-time', arguments: {} } }
    await engine.invoke('apps.frames', { viewId: view.viewId, frames: [wire('in', ask)] })
    const report = await engine.invoke('apps.callTool', { viewId: view.viewId, tool: 'get-time' })
    expect(report.raw).toEqual({})
    expect(report.hooked).toEqual({ asked_by: 'view' })
    expect(report.diff).toEqual([{ op: 'add', path: '/asked_by', to: 'view' }])
    const sent = recorder.of('frame', connectionId).find((f) => f.protocol === 'mcp' && f.method === 'tools/call' && f.kind === 'request')!
    expect((sent.payload as { params: { arguments: unknown } }).params.arguments).toEqual({ asked_by: 'view' })
    await engine.invoke('apps.frames', { viewId: view.viewId, frames: [wire('out', { jsonrpc: '2.0', id: 7, result: report.response })] })

    const saved = await engine.invoke('recordings.stop', { connectionId })
    expect(saved.turns).toBe(1)
    const text = readFileSync(join(dir, 'recordings', `${name}.jsonl`), 'utf8')
    expect(text.split('\n').filter((line) => line.includes('"protocol":"mcp-app"'))).toHaveLength(2)
    const loaded = await engine.invoke('recordings.load', { name })
    expect(loaded.turns.map((t) => t.turn)).toEqual([{ kind: 'call', tool: 'get-time', arguments: { asked_by: 'view' } }])

    // Replayed against the server again: the same but for the time it tells.
    const { replayId } = await engine.invoke('replay.start', { recording: name, targets: [{ target: basicApp }], ignore: ['/data/time'] })
    const summary = await engine.invoke('replay.run', { replayId })
    expect(summary).toMatchObject({ total: 1, same: 1 })
  })
})
