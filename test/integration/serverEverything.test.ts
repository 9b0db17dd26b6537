import { builtInDemos } from '../../shared/demo/builtIns'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import type { SavedTarget } from '../../shared/contract'
import { Engine } from '../../shared/engine/engine'
import { EventRecorder } from '../fixtures/events'
import { approveAll } from '../fixtures/targets'

const require = createRequire(import.meta.url)
const entry = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js')

let engine: Engine
afterEach(async () => {
  await engine?.dispose()
})

// A third-party server from npm. Its tools are never called: one default fetches an internet URL.
it('inspects @modelcontextprotocol/server-everything over stdio: every capability, every list', async () => {
  engine = new Engine({ host: 'cli', builtIns: builtInDemos(), approver: approveAll, defaults: { keepaliveIntervalMs: 300 } })
  const recorder = new EventRecorder(engine)
  const target: SavedTarget = {
    id: 'everything',
    name: 'server-everything',
    origin: 'user',
    options: {},
    spec: { kind: 'mcp-stdio', command: process.execPath, args: [entry, 'stdio'], env: {} },
  }
  const connection = await engine.createConnection(target)
  expect(await connection.open()).toBe(true)
  const [handshake] = recorder.of('handshake', connection.id)
  if (handshake.protocol !== 'mcp') throw new Error('expected an MCP handshake')
  expect(Object.keys(handshake.serverCapabilities)).toEqual(expect.arrayContaining(['tools', 'prompts', 'resources', 'logging']))
  expect(handshake.serverInfo?.name).toBeTruthy()
  const steps = recorder.of('discovery', connection.id).filter((s) => s.trigger === 'initial')
  expect(steps.map((s) => [s.method, s.status])).toEqual([
    ['tools/list', 'called'],
    ['prompts/list', 'called'],
    ['resources/list', 'called'],
    ['resources/templates/list', 'called'],
  ])
  expect(steps[0].count).toBeGreaterThan(5)
  // The catalog holds exactly what the resources/list responses carried, over all pages.
  const onWire = recorder
    .of('frame', connection.id)
    .filter((f) => f.method === 'resources/list' && f.kind === 'response')
    .reduce((n, f) => n + (f.payload as { result: { resources: unknown[] } }).result.resources.length, 0)
  expect(steps[2].count).toBeGreaterThan(0)
  expect(steps[2].count).toBe(onWire)
  await recorder.waitForCount((e) => e.type === 'keepalive' && e.ok && e.probe === 'tools/list', 2)
  expect(connection.state).toBe('connected')
})
