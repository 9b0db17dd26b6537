import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { LOG_LEVELS, type LogEvent, type SavedTarget } from '../../shared/contract'
import { builtInDemos } from '../../shared/demo/builtIns'
import { Engine } from '../../shared/engine/engine'
import { EventRecorder } from '../fixtures/events'
import { approveAll, fixtureTarget } from '../fixtures/targets'

const require = createRequire(import.meta.url)
const everything = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js')

let engine: Engine
let recorder: EventRecorder

function start(keepaliveIntervalMs = 60_000) {
  engine = new Engine({ host: 'web', builtIns: builtInDemos(), approver: approveAll, defaults: { keepaliveIntervalMs } })
  recorder = new EventRecorder(engine)
}

afterEach(async () => {
  await engine?.dispose()
})

/** Opens a target through the command API, as a UI does, and waits until it is connected. */
async function connect(target: SavedTarget): Promise<string> {
  const connection = await engine.createConnection(target)
  expect(await connection.open()).toBe(true)
  return connection.id
}

const logs = (id: string) => recorder.of('log', id)
const oddities = (id: string) => logs(id).filter((l) => l.oddity)
const call = (connectionId: string, tool: string, args: Record<string, unknown> = {}) =>
  engine.execute('tools.call', { connectionId, tool, arguments: args })

describe("the server's own voice", () => {
  it('shows each log message with its level and logger, sets the level the server sends, and flags what breaks the spec', async () => {
    start()
    const id = await connect(fixtureTarget('serverLogs'))

    // The hello it sends on initialize: its level, its logger, the frame that carried it.
    const hello = (await recorder.waitFor(
      (e) => e.type === 'log' && e.connectionId === id && e.source === 'server' && e.text === 'fixture-server-logs is up',
    )) as LogEvent
    expect(hello).toMatchObject({ level: 'info', server: { level: 'info', logger: 'startup' } })
    const frame = recorder.of('frame', id).find((f) => f.seq === hello.server?.frameSeq)
    expect(frame).toMatchObject({ direction: 'in', kind: 'notification', method: 'notifications/message' })

    // A critical message from the "db" logger: the server's level kept, shown at the error end of the scale.
    await call(id, 'log', { level: 'critical', logger: 'db', data: { table: 'orders', error: 'disk full' } })
    const critical = await recorder.waitFor(
      (e): e is LogEvent => e.type === 'log' && e.connectionId === id && e.source === 'server' && e.server?.level === 'critical',
    )
    expect(critical).toMatchObject({ level: 'error', server: { logger: 'db' }, text: '{"table":"orders","error":"disk full"}' })

    // logging/setLevel through the command API: on the wire, answered, and noted.
    expect(await engine.execute('connections.setLogLevel', { connectionId: id, level: 'warning' })).toEqual({ level: 'warning' })
    const setLevel = recorder.of('frame', id).filter((f) => f.method === 'logging/setLevel')
    expect(setLevel.map((f) => [f.direction, f.kind])).toEqual([
      ['out', 'request'],
      ['in', 'response'],
    ])
    expect((setLevel[0].payload as { params: { level: string } }).params.level).toBe('warning')
    expect(logs(id).some((l) => l.source === 'engine' && /"warning" and above/.test(l.text))).toBe(true)
    await expect(engine.execute('connections.setLogLevel', { connectionId: id, level: 'loud' })).rejects.toThrow(
      /invalid input for connections.setLogLevel: level/,
    )
    expect(oddities(id)).toEqual([])

    // A debug message after agreeing to "warning" and above, and a level the spec does not have: each flagged, once, with why.
    await call(id, 'log', { level: 'debug', data: 'too chatty' })
    await call(id, 'log', { level: 'debug', data: 'still too chatty' })
    await call(id, 'log', { level: 'verbose', data: 'an invented level' })
    await recorder.waitForCount((e) => e.type === 'log' && e.connectionId === id && !!e.oddity, 2)
    const verbose = logs(id).find((l) => l.text === 'an invented level')
    expect(verbose).toMatchObject({ source: 'server', level: 'info', server: { level: 'verbose' } })
    expect(oddities(id).map((l) => l.text)).toEqual([
      'protocol oddity: the server sent a "debug" log message after agreeing to send "warning" and above (logging/setLevel)',
      expect.stringMatching(
        /^protocol oddity: the server sent a log message at level "verbose", which is none of the spec's levels \(debug, info/,
      ),
    ])
    expect(oddities(id).every((l) => l.level === 'warn' && l.source === 'engine')).toBe(true)
    expect(logs(id).filter((l) => l.level === 'error' && l.source !== 'server')).toEqual([])
  })

  it('progress after a call was answered is plumbing, not an error; progress for a token never given, or going backwards, is an oddity', async () => {
    start()
    const id = await connect(fixtureTarget('serverLogs'))

    // A long call with progress all the way: nothing to say. (Its last progress and its answer arrive in one read;
    // the SDK settles the answer first and calls that progress "an unknown token".)
    expect(await call(id, 'slow', { steps: 4 })).toMatchObject({ sent: true, response: { content: [{ text: 'done' }] } })
    expect(recorder.of('frame', id).filter((f) => f.method === 'notifications/progress')).toHaveLength(4)

    // Progress that comes after the answer: the SDK calls it "an unknown token"; Parallax knows it gave that token.
    await call(id, 'late-progress')
    await recorder.waitForCount((e) => e.type === 'frame' && e.connectionId === id && e.method === 'notifications/progress', 5)
    const late = await recorder.waitFor(
      (e): e is LogEvent => e.type === 'log' && e.connectionId === id && /came after its answer/.test(e.text),
    )
    expect(late).toMatchObject({ source: 'engine', level: 'debug' })
    expect(late.oddity).toBeUndefined()
    expect(oddities(id)).toEqual([])

    await call(id, 'stray-progress')
    await recorder.waitFor((e) => e.type === 'log' && e.connectionId === id && !!e.oddity)
    expect(oddities(id).map((l) => l.text)).toEqual([
      'protocol oddity: the server sent progress for token "never-given-7", which Parallax never gave it (progress may only name the token of a request in progress)',
    ])

    await call(id, 'backwards-progress')
    await recorder.waitForCount((e) => e.type === 'log' && e.connectionId === id && !!e.oddity, 2)
    expect(oddities(id)[1].text).toMatch(
      /^protocol oddity: progress for request \d+ \(tools\/call\) went down from 2 to 1; the spec says it must increase/,
    )

    // Never a red line of Parallax's own, and never the SDK's words.
    expect(logs(id).filter((l) => l.level === 'error')).toEqual([])
    expect(logs(id).some((l) => /unknown token/.test(l.text))).toBe(false)
  })

  it('flags log messages from a server that never advertised logging, and refuses logging/setLevel to it', async () => {
    start()
    const id = await connect(fixtureTarget('serverLogs', ['unadvertised']))
    await recorder.waitFor((e) => e.type === 'log' && e.connectionId === id && e.source === 'server')
    await recorder.waitFor((e) => e.type === 'log' && e.connectionId === id && !!e.oddity)
    expect(oddities(id).map((l) => l.text)).toEqual([
      'protocol oddity: the server sends log messages (notifications/message) but did not advertise the "logging" capability in initialize',
    ])
    await expect(engine.execute('connections.setLogLevel', { connectionId: id, level: 'debug' })).rejects.toMatchObject({
      code: 'invalid-input',
      message: expect.stringMatching(/did not advertise the "logging" capability/),
    })
    expect(recorder.of('frame', id).some((f) => f.method === 'logging/setLevel')).toBe(false)

    // An A2A connection has no log level at all.
    const a2a = (await engine.execute('connections.open', { targetId: 'demo:a2a' })) as { connectionId: string }
    await recorder.waitFor((e) => e.type === 'connection' && e.connectionId === a2a.connectionId && e.state === 'connected', 20_000)
    await expect(engine.execute('connections.setLogLevel', { connectionId: a2a.connectionId, level: 'debug' })).rejects.toThrow(
      /this A2A connection has no log level to set/,
    )
  })

  it('asks again for the chosen level after the server restarts and keepalive reconnects', async () => {
    start(200)
    const id = await connect(fixtureTarget('serverLogs'))
    await engine.execute('connections.setLogLevel', { connectionId: id, level: 'error' })
    const pid = recorder.of('connection', id).findLast((e) => e.pid !== undefined)!.pid!
    process.kill(pid, 'SIGKILL')
    await recorder.waitForCount((e) => e.type === 'connection' && e.connectionId === id && e.state === 'connected', 2, 20_000)
    const asked = recorder.of('frame', id).filter((f) => f.method === 'logging/setLevel' && f.direction === 'out')
    expect(asked.map((f) => (f.payload as { params: { level: string } }).params.level)).toEqual(['error', 'error'])
    expect(logs(id).some((l) => /asked the server again, as before reconnecting, for log messages at "error"/.test(l.text))).toBe(true)
  })

  it('@modelcontextprotocol/server-everything: logging/setLevel accepted, its log messages shown with their levels', async () => {
    start()
    const id = await connect({
      id: 'everything',
      name: 'server-everything',
      origin: 'user',
      options: {},
      spec: { kind: 'mcp-stdio', command: process.execPath, args: [everything, 'stdio'], env: {} },
    })
    expect(await engine.execute('connections.setLogLevel', { connectionId: id, level: 'debug' })).toEqual({ level: 'debug' })
    // Its simulated logging sends one message at once, at a random level, then one every 5 seconds. (No arguments: none has a default.)
    await call(id, 'toggle-simulated-logging')
    const line = await recorder.waitFor(
      (e): e is LogEvent => e.type === 'log' && e.connectionId === id && e.source === 'server' && /level[- ]message/i.test(e.text),
    )
    expect(LOG_LEVELS).toContain(line.server?.level)
    expect(line.text.toLowerCase()).toContain(line.server!.level)
    await call(id, 'toggle-simulated-logging')
    expect(oddities(id)).toEqual([])
    expect(logs(id).filter((l) => l.level === 'error' && l.source !== 'server')).toEqual([])
  })
})
