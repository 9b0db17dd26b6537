import { builtInDemos } from '../../shared/demo/builtIns'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { Engine } from '../../shared/engine/engine'
import { callFindings } from '../../shared/hooks/callInspector'
import { EventRecorder } from '../fixtures/events'
import { approveAll, fixtureTarget } from '../fixtures/targets'
import { demoBuy } from '../fixtures/demoBuy'

const FILL_BUYING_MODE = fileURLToPath(new URL('../../shared/demo/hooks/fill-buying-mode.json', import.meta.url))
const MODULE_HOOKS = fileURLToPath(new URL('../../shared/demo/hooks/media-sales-hooks.mjs', import.meta.url))
const CONTEXT = { buyer: 'acme', po: 17 }
/** get_products as a buyer written for AdCP 2.x sends it: no buying_mode. */
const BRIEF = { brief: 'mobile display', context: CONTEXT }
/** An AdCP 3.0.6 create_media_buy the demo seller accepts. */
const BUY = demoBuy({}, { context: CONTEXT })

let engine: Engine
let recorder: EventRecorder

async function open(targetId: string) {
  engine = new Engine({ host: 'cli', builtIns: builtInDemos(), approver: approveAll, defaults: { keepaliveIntervalMs: 60_000 } })
  recorder = new EventRecorder(engine)
  const connection = await engine.openTarget(targetId)
  await recorder.waitFor((e) => e.type === 'connection' && e.state === 'connected' && e.connectionId === connection.id, 20_000)
  return connection
}

afterEach(async () => {
  await engine?.dispose()
})

describe('raw vs hooked arguments against real servers', () => {
  it('a default-filling hook turns an invalid raw call into a valid hooked one, and the raw context comes back', async () => {
    const connection = await open('demo:tools')
    const loaded = await engine.execute('hooks.load', { connectionId: connection.id, path: FILL_BUYING_MODE })
    expect(loaded).toMatchObject({ kind: 'declarative', tools: ['get_products'] })
    const report = await engine.callTool(connection.id, 'get_products', BRIEF)
    expect(report.validation.raw).toEqual({ valid: false, errors: [{ path: '/', message: 'missing required property "buying_mode"' }] })
    expect(report.validation.hooked).toEqual({ valid: true, errors: [] })
    expect(report.diff).toEqual([{ path: '/buying_mode', op: 'add', to: 'brief' }])
    expect(report.raw).toEqual(BRIEF)
    expect(report).toMatchObject({ sent: true, hook: { name: 'get_products', source: FILL_BUYING_MODE } })
    expect(report.contextEcho).toMatchObject({ present: true, echoed: true, matchesRaw: true })
    expect(callFindings(report)).toEqual([])
    // What went on the wire is the hooked arguments.
    const sent = recorder.of('frame', connection.id).find((f) => f.method === 'tools/call' && f.direction === 'out')!
    expect((sent.payload as { params: { arguments: unknown } }).params.arguments).toEqual({ ...BRIEF, buying_mode: 'brief' })
    expect(recorder.of('call', connection.id)).toHaveLength(1)
    expect(recorder.of('hooks', connection.id)[0]).toMatchObject({ targetId: 'demo:tools', tools: ['get_products'] })
  })

  it('a JavaScript hooks module trims the brief and fills buying_mode; the diff shows both changes', async () => {
    const connection = await open('demo:tools')
    await engine.loadHooks(connection.id, MODULE_HOOKS)
    const report = await engine.callTool(connection.id, 'get_products', { ...BRIEF, brief: '  mobile display ' })
    expect(report.diff).toEqual([
      { path: '/brief', op: 'replace', from: '  mobile display ', to: 'mobile display' },
      { path: '/buying_mode', op: 'add', to: 'brief' },
    ])
    expect(report.validation.raw.errors.map((e) => e.path)).toEqual(['/'])
    expect(report.validation.hooked.valid).toBe(true)
  })

  it('a JavaScript hooks module coerces a package budget sent as a string', async () => {
    const connection = await open('demo:tools')
    await engine.loadHooks(connection.id, MODULE_HOOKS)
    const report = await engine.callTool(connection.id, 'create_media_buy', {
      ...BUY,
      packages: [{ ...BUY.packages[0], budget: '$2,000' }],
    })
    expect(report.diff).toEqual([{ path: '/packages/0/budget', op: 'replace', from: '$2,000', to: 2000 }])
    expect(report.validation.raw.errors.map((e) => e.path)).toEqual(['/packages/0/budget'])
    expect(report.validation.hooked.valid).toBe(true)
    expect(report.response).toMatchObject({ structuredContent: { media_buy_id: 'mb_0001', status: 'active' } })
  })

  it('catches a server that echoes a changed context instead of the raw one', async () => {
    const connection = await open('demo:tools-changed-context')
    const report = await engine.callTool(connection.id, 'create_media_buy', BUY)
    expect(report.contextEcho).toEqual({
      present: true,
      echoed: true,
      matchesRaw: false,
      matchesHooked: false,
      returned: { buyer: 'acme', po: 17, seller_normalized: true },
    })
    expect(callFindings(report)).toEqual(["the response's context is not the raw context"])
  })

  it('a hook that throws sends nothing to the server', async () => {
    const connection = await open('demo:tools')
    const dir = mkdtempSync(join(tmpdir(), 'parallax-throw-'))
    const file = join(dir, 'throwing.mjs')
    writeFileSync(file, "export const create_media_buy = () => { throw new Error('no budget left') }\n")
    await engine.loadHooks(connection.id, file)
    const report = await engine.callTool(connection.id, 'create_media_buy', BUY)
    expect(report).toMatchObject({ sent: false, hookError: { code: -32600, message: 'hook "create_media_buy" threw: no budget left' } })
    expect(recorder.of('frame', connection.id).some((f) => f.method === 'tools/call')).toBe(false)
    rmSync(dir, { recursive: true, force: true })
  })

  it('lints a protocol field declared as a domain argument, and checks structuredContent against the output schema', async () => {
    engine = new Engine({ host: 'cli', builtIns: builtInDemos(), approver: approveAll, defaults: { keepaliveIntervalMs: 60_000 } })
    recorder = new EventRecorder(engine)
    const connection = await engine.createConnection(fixtureTarget('protocolFieldTool'))
    expect(await connection.open()).toBe(true)
    const report = await engine.callTool(connection.id, 'get_products', { brief: 'news', adcp_version: '2.5' })
    expect(report.lint.map((l) => [l.where, l.path])).toEqual([
      ['arguments', '/adcp_version'],
      ['inputSchema', '/properties/adcp_version'],
    ])
    expect(report.outputValidation).toEqual({ valid: false, errors: [{ path: '/', message: 'missing required property "products"' }] })
  })

  it('applies hooks to an A2A skill sent as a data part, and checks its context echo', async () => {
    const connection = await open('demo:a2a')
    await engine.loadHooks(connection.id, FILL_BUYING_MODE)
    const report = await engine.callTool(connection.id, 'get_products', BRIEF)
    expect(report).toMatchObject({ protocol: 'a2a', sent: true, validation: { raw: { valid: null }, hooked: { valid: null } } })
    expect((report.response as { status: { state: string } }).status.state).toBe('completed')
    expect(report.contextEcho).toMatchObject({ matchesRaw: true })
    const sent = recorder.of('frame', connection.id).find((f) => f.method === 'SendMessage' && f.direction === 'out')!
    expect(JSON.stringify(sent.payload)).toContain('"buying_mode":"brief"')
  })

  it('keeps the old hooks when a reload fails, and says why', async () => {
    const connection = await open('demo:tools')
    await engine.loadHooks(connection.id, FILL_BUYING_MODE)
    await expect(engine.execute('hooks.load', { connectionId: connection.id, path: '/nonexistent/hooks.json' })).rejects.toThrow(
      /cannot read hooks file/,
    )
    expect(recorder.of('hooks', connection.id).at(-1)).toMatchObject({
      tools: ['get_products'],
      error: expect.stringMatching(/cannot read/),
    })
    expect((await engine.callTool(connection.id, 'get_products', BRIEF)).validation.hooked.valid).toBe(true)
  })
})

describe('hooks files to pick from', () => {
  it('the shipped examples by their real path, the files loaded lately (kept in the data folder, while they exist), and the host’s dialog where it has one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parallax-hooks-files-'))
    try {
      const mine = join(dataDir, 'wholesale.json')
      writeFileSync(mine, JSON.stringify({ get_products: { defaults: { buying_mode: 'wholesale' } } }))
      const asked: { title: string; extensions: string[] }[] = []
      engine = new Engine({
        host: 'electron',
        dataDir,
        builtIns: builtInDemos(),
        defaults: { keepaliveIntervalMs: 60_000 },
        chooseFile: async (request) => (asked.push(request), mine),
      })
      const files = await engine.invoke('hooks.files', {})
      expect(files).toEqual({
        builtIn: [
          { name: 'fill-buying-mode.json', path: FILL_BUYING_MODE },
          { name: 'media-sales-hooks.mjs', path: MODULE_HOOKS },
        ],
        recent: [],
        browse: true,
      })
      expect(await engine.invoke('hooks.browse', {})).toEqual({ path: mine })
      expect(asked[0].extensions).toEqual(expect.arrayContaining(['json', 'mjs', 'ts']))

      const connection = await engine.openTarget('demo:tools')
      await engine.invoke('connections.wait', { connectionId: connection.id })
      await engine.invoke('hooks.load', { connectionId: connection.id, path: mine })
      await engine.invoke('hooks.load', { connectionId: connection.id, path: FILL_BUYING_MODE }) // a shipped one is listed already
      expect((await engine.invoke('hooks.files', {})).recent).toEqual([mine])
      await engine.dispose()

      // Another run on the same data folder, as a web host without a file dialog.
      engine = new Engine({ host: 'web', dataDir, builtIns: builtInDemos() })
      expect(await engine.invoke('hooks.files', {})).toMatchObject({ recent: [mine], browse: false })
      await expect(engine.invoke('hooks.browse', {})).rejects.toThrow(/this host has no file dialog .* type its path/)
      rmSync(mine)
      expect((await engine.invoke('hooks.files', {})).recent).toEqual([])
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
