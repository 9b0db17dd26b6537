import { builtInDemos } from '../../shared/demo/builtIns'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { EngineEvent, SavedTarget } from '../../shared/contract'
import { Engine } from '../../shared/engine/engine'
import { parseRecording, RECORDING_FORMAT } from '../../shared/session/recording'
import { EventRecorder } from '../fixtures/events'
import { approveAll, fixtureTarget } from '../fixtures/targets'
import { cliRunner } from '../fixtures/cli'

const require = createRequire(import.meta.url)
const EVERYTHING = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js')

// Every secret a careless user hands a target, each distinctive enough to grep for.
const SECRETS = {
  OPENAI_KEY: 'sk-proj-OPENAI0secret0value0123',
  GITHUB_PAT: 'ghp_PAT0secret0value0456',
  DB_PASSWORD: 'DbPassw0rd-789xyz',
  TOKEN_ARG: 'cli-token-secret-0001',
  API_KEY_ARG: 'cli-apikey-secret-0002',
  URL_API_KEY: 'url-apikey-secret-0003',
  PASSWORD_ARG: 'tool-arg-password-0004',
  BEARER: 'bearer-secret-0005-AbCd',
}
const DB_USER = 'report_user'
const DB_HOST = 'db.internal.example'
const DATABASE_URL = `postgres://${DB_USER}:${SECRETS.DB_PASSWORD}@${DB_HOST}:5432/sales`
/** An ordinary variable beside the secrets: it must reach the recording as it is. */
const MARKER = { PARALLAX_TEST_MARKER: 'visible-marker-value' }
const ENV = { OPENAI_KEY: SECRETS.OPENAI_KEY, GITHUB_PAT: SECRETS.GITHUB_PAT, DATABASE_URL, ...MARKER }
const FLAG_ARGS = ['--token', SECRETS.TOKEN_ARG, `--api-key=${SECRETS.API_KEY_ARG}`]

/** What a user checks: not one planted secret appears anywhere in the file. */
function expectNoSecret(text: string, where: string) {
  for (const [name, value] of Object.entries(SECRETS)) expect(text.includes(value), `${name} (${value}) is in ${where}`).toBe(false)
}

let engine: Engine | undefined
let dir: string

function start(): { engine: Engine; recorder: EventRecorder } {
  dir = mkdtempSync(join(tmpdir(), 'parallax-secrets-'))
  engine = new Engine({
    host: 'cli',
    builtIns: builtInDemos(),
    dataDir: dir,
    approver: approveAll,
    defaults: { keepaliveIntervalMs: 60_000, reconnectAttempts: 0 },
  })
  return { engine, recorder: new EventRecorder(engine) }
}

afterEach(async () => {
  await engine?.dispose()
  engine = undefined
  rmSync(dir, { recursive: true, force: true })
})

const recordingFile = (name: string) => join(dir, 'recordings', `${name}.jsonl`)

describe('secrets stay off the disk', () => {
  it('a recorded stdio session: its env, its --token/--api-key= arguments, a password argument, and every text they are repeated in', async () => {
    const { engine, recorder } = start()
    const fixture = fixtureTarget('leakySecrets', FLAG_ARGS)
    if (fixture.spec.kind !== 'mcp-stdio') throw new Error('expected a stdio target')
    const target: SavedTarget = { ...fixture, spec: { ...fixture.spec, env: ENV } }
    const connection = await engine.createConnection(target)
    expect(await connection.open()).toBe(true)
    await recorder.waitFor((e) => e.type === 'log' && e.connectionId === connection.id && e.text.includes('started as'))
    await engine.execute('recordings.start', { connectionId: connection.id, name: 'leaky' })
    await engine.sendTurn(connection.id, { tool: 'lookup', arguments: { query: 'sports inventory' } })
    await engine.sendTurn(connection.id, { tool: 'login', arguments: { user: DB_USER, password: SECRETS.PASSWORD_ARG } })
    await engine.sendTurn(connection.id, { tool: 'fail', arguments: {} }).catch(() => undefined)
    await recorder.waitFor((e) => e.type === 'log' && e.connectionId === connection.id && e.text.includes('tried'))
    await recorder.waitFor((e) => e.type === 'frame' && e.connectionId === connection.id && e.method === 'notifications/message')
    await engine.execute('recordings.stop', { connectionId: connection.id })

    // The secrets really were in what happened (so the recording had them to leak)…
    const live = JSON.stringify(recorder.events)
    for (const value of [
      SECRETS.OPENAI_KEY,
      SECRETS.GITHUB_PAT,
      SECRETS.DB_PASSWORD,
      SECRETS.TOKEN_ARG,
      SECRETS.API_KEY_ARG,
      SECRETS.PASSWORD_ARG,
    ])
      expect(live).toContain(value)
    // …and none is in the file, header included.
    const text = readFileSync(recordingFile('leaky'), 'utf8')
    expectNoSecret(text, 'the recording')
    // The rest is still there: names, the user, the host, the tools, the ordinary variable, the flags themselves.
    for (const kept of [
      'OPENAI_KEY',
      'GITHUB_PAT',
      DB_USER,
      DB_HOST,
      'lookup',
      'login',
      'sports inventory',
      '--token',
      '--api-key=',
      MARKER.PARALLAX_TEST_MARKER,
      'the upstream refused',
    ])
      expect(text).toContain(kept)
    const { header, events, problems } = parseRecording(text)
    expect(problems).toEqual([])
    expect(header?.targets[0].spec).toMatchObject({
      args: expect.arrayContaining(['--token', '[redacted]', '--api-key=[redacted]']),
      env: { OPENAI_KEY: '[redacted]', GITHUB_PAT: '[redacted]', DATABASE_URL: `postgres://${DB_USER}:[redacted]@${DB_HOST}:5432/sales` },
    })
    // The call turn keeps its tool and ordinary arguments, so it can be replayed.
    const call = events.find((e) => e.type === 'conversation' && e.message.role === 'user' && e.message.content.startsWith('login'))
    expect(call).toMatchObject({ message: { content: `login {"user":"${DB_USER}","password":"[redacted]"}` } })

    // Exported, it is just as clean.
    const exported = ((await engine.execute('recordings.export', { name: 'leaky' })) as { text: string }).text
    expectNoSecret(exported, 'the export')
    expect(exported).toBe(text)
  })

  it('a recording made elsewhere: importing it writes no secret into the library, and exporting a file dropped in by hand hands none out', async () => {
    const { engine, recorder } = start()
    const fixture = fixtureTarget('leakySecrets', FLAG_ARGS)
    if (fixture.spec.kind !== 'mcp-stdio') throw new Error('expected a stdio target')
    const target: SavedTarget = { ...fixture, spec: { ...fixture.spec, env: ENV } }
    const connection = await engine.createConnection(target)
    expect(await connection.open()).toBe(true)
    await engine.sendTurn(connection.id, { tool: 'login', arguments: { user: DB_USER, password: SECRETS.PASSWORD_ARG } })
    await recorder.waitFor((e) => e.type === 'log' && e.connectionId === connection.id && e.text.includes('tried'))
    // The events as they happened, unredacted: what another tool (or an older Parallax) might have written.
    const raw = [
      {
        format: RECORDING_FORMAT,
        app: { name: 'Parallax', version: '0.0.1' },
        startedAt: new Date().toISOString(),
        mapping: { skillField: 'skill', inputField: 'input' },
        targets: [{ id: target.id, name: target.name, spec: target.spec }],
      },
      ...recorder.events.filter((e: EngineEvent) => e.connectionId === connection.id),
    ]
      .map((line) => JSON.stringify(line))
      .join('\n')
    for (const value of [SECRETS.OPENAI_KEY, SECRETS.DB_PASSWORD, SECRETS.TOKEN_ARG, SECRETS.API_KEY_ARG, SECRETS.PASSWORD_ARG])
      expect(raw).toContain(value)

    await engine.execute('recordings.import', { name: 'from elsewhere', text: `${raw}\n` })
    const imported = readFileSync(recordingFile('from elsewhere'), 'utf8')
    expectNoSecret(imported, 'the imported recording')
    expect(imported).toContain(DB_HOST)
    expect(parseRecording(imported).events).toHaveLength(parseRecording(raw).events.length)

    mkdirSync(join(dir, 'recordings'), { recursive: true })
    writeFileSync(recordingFile('dropped in'), raw)
    const exported = ((await engine.execute('recordings.export', { name: 'dropped in' })) as { text: string }).text
    expectNoSecret(exported, 'the export of a hand-placed file')
    expect(exported).toContain(DB_USER)
  })

  it('@modelcontextprotocol/server-everything: get-env returns its whole environment, and the recording keeps none of the secrets in it', async () => {
    const { engine } = start()
    const target: SavedTarget = {
      id: 'everything',
      name: 'server-everything',
      origin: 'user',
      options: {},
      spec: { kind: 'mcp-stdio', command: process.execPath, args: [EVERYTHING, 'stdio', ...FLAG_ARGS], env: ENV },
    }
    const connection = await engine.createConnection(target)
    expect(await connection.open()).toBe(true)
    await engine.execute('recordings.start', { connectionId: connection.id, name: 'everything' })
    const env = await engine.sendTurn(connection.id, { tool: 'get-env', arguments: {} })
    expect(JSON.stringify(env)).toContain(SECRETS.OPENAI_KEY) // the server really answered with them
    await engine.sendTurn(connection.id, { tool: 'echo', arguments: { message: 'hello from the test', password: SECRETS.PASSWORD_ARG } })
    await engine.execute('recordings.stop', { connectionId: connection.id })

    const text = readFileSync(recordingFile('everything'), 'utf8')
    expectNoSecret(text, 'the recording')
    for (const kept of ['get-env', 'echo', 'hello from the test', DB_USER, DB_HOST, MARKER.PARALLAX_TEST_MARKER])
      expect(text).toContain(kept)
    expectNoSecret(((await engine.execute('recordings.export', { name: 'everything' })) as { text: string }).text, 'the export')
  })

  it('an A2A agent reached with ?api_key= in its URL and an Authorization header', async () => {
    const { engine, recorder } = start()
    const demo = await engine.openTarget('demo:a2a')
    const handshake = await recorder.waitFor((e) => e.type === 'handshake' && e.connectionId === demo.id)
    const cardUrl = (handshake as { cardUrl: string }).cardUrl
    const target: SavedTarget = {
      id: 'keyed-agent',
      name: 'agent with a key in its URL',
      origin: 'user',
      options: {},
      spec: {
        kind: 'a2a',
        url: `${cardUrl}?api_key=${SECRETS.URL_API_KEY}&tenant=acme`,
        headers: { Authorization: `Bearer ${SECRETS.BEARER}` },
        binding: 'auto',
      },
    }
    const connection = await engine.createConnection(target)
    expect(await connection.open()).toBe(true)
    await engine.execute('recordings.start', { connectionId: connection.id, name: 'keyed' })
    await engine.sendTurn(connection.id, { text: 'formats' })
    await engine.execute('recordings.stop', { connectionId: connection.id })

    const text = readFileSync(recordingFile('keyed'), 'utf8')
    expect(JSON.stringify(recorder.events)).toContain(SECRETS.URL_API_KEY) // the card URL as fetched carried it
    expectNoSecret(text, 'the recording')
    expect(text).toContain(new URL(cardUrl).host)
    expect(text).toContain('api_key=[redacted]&tenant=acme')
  })

  it('headers whose names say nothing: values shaped like credentials are redacted in frames and recordings, ordinary ones kept', async () => {
    const { engine, recorder } = start()
    const demo = await engine.openTarget('demo:a2a')
    const handshake = await recorder.waitFor((e) => e.type === 'handshake' && e.connectionId === demo.id)
    const shaped = {
      'X-Custom-Session': 'sessionid=q8Zr2Lw0VbN4xK7mT1pY; Path=/; HttpOnly',
      'X-Upstream': 'Bearer up-Str3am-t0ken-9f8e7d',
      'X-Forwarded-Identity': 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJidXllci0xMiJ9.Xw3mNq8Lr5Tz0Vb7Kc2Jd9Hf4Gs6Ya1Pe3Uo8Ii5Wq',
      'X-Vendor': 'ghp_Q3wE5rT7yU9iO1pA3sD5fG7hJ9kL1zX3cV5b',
      'X-Opaque': 'Zx9Qw2Er4Ty6Ui8Op0As3Df5Gh7Jk1LmNb4Vc6X',
    }
    const ordinary = {
      'X-Request-Id': '7f3c1e2a-9b8d-4c6e-a1f2-3b4c5d6e7f80',
      'X-Trace-Id': '463ac35c9f6413ad48485a3953bb6124',
      'X-Client-Version': '2.4.1',
      'X-Sent-At': 'Tue, 15 Nov 1994 08:12:31 GMT',
      'X-Payload-Type': 'application/json; charset=utf-8',
      'Accept-Language': 'en-US,en;q=0.9',
    }
    const secretValues = [
      'q8Zr2Lw0VbN4xK7mT1pY',
      'up-Str3am-t0ken-9f8e7d',
      shaped['X-Forwarded-Identity'],
      shaped['X-Vendor'],
      shaped['X-Opaque'],
    ]
    const target: SavedTarget = {
      id: 'custom-headers',
      name: 'agent behind custom headers',
      origin: 'user',
      options: {},
      spec: { kind: 'a2a', url: (handshake as { cardUrl: string }).cardUrl, headers: { ...shaped, ...ordinary }, binding: 'auto' },
    }
    const connection = await engine.createConnection(target)
    expect(await connection.open()).toBe(true)
    await engine.execute('recordings.start', { connectionId: connection.id, name: 'custom-headers' })
    await engine.sendTurn(connection.id, { text: 'formats' })
    await engine.execute('recordings.stop', { connectionId: connection.id })

    // The frames the UI is shown: each request's headers, as sent.
    const sent = recorder.of('frame', connection.id).filter((f) => f.direction === 'out' && f.http?.headers)
    expect(sent.length).toBeGreaterThan(0)
    const headers = Object.fromEntries(Object.entries(sent[0].http!.headers!).map(([k, v]) => [k.toLowerCase(), v]))
    expect(headers).toMatchObject({
      'x-custom-session': '[redacted]',
      'x-upstream': 'Bearer [redacted]',
      'x-forwarded-identity': '[redacted]',
      'x-vendor': '[redacted]',
      'x-opaque': '[redacted]',
      ...Object.fromEntries(Object.entries(ordinary).map(([k, v]) => [k.toLowerCase(), v])),
    })
    const frames = JSON.stringify(recorder.of('frame', connection.id))
    for (const value of secretValues) expect(frames.includes(value), `${value} in the frames`).toBe(false)

    const text = readFileSync(recordingFile('custom-headers'), 'utf8')
    for (const value of secretValues) expect(text.includes(value), `${value} in the recording`).toBe(false)
    for (const value of Object.values(ordinary)) expect(text).toContain(value)
  })

  it('parallax record --out and parallax replay --junit write no secret, though the live server hands them all back', async () => {
    dir = mkdtempSync(join(tmpdir(), 'parallax-secrets-cli-'))
    const config = join(dir, 'servers.json')
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio', ...FLAG_ARGS], env: ENV } } }),
    )
    const out = join(dir, 'session.jsonl')
    const recorded = await parallax(
      'record',
      'everything',
      '--config',
      config,
      '--yes',
      '--turn',
      '{"tool":"get-env"}',
      '--turn',
      JSON.stringify({ tool: 'echo', arguments: { message: 'hello from the CLI', password: SECRETS.PASSWORD_ARG } }),
      '--out',
      out,
    )
    expect(recorded.stderr).toMatch(/recorded 2 turn/)
    expect(recorded.code).toBe(0)
    const text = readFileSync(out, 'utf8')
    expectNoSecret(text, 'the recording from parallax record')
    for (const kept of ['get-env', 'hello from the CLI', DB_HOST, MARKER.PARALLAX_TEST_MARKER]) expect(text).toContain(kept)

    // Replayed against the same server, get-env now differs exactly where the secrets are: the report must not show them.
    const junit = join(dir, 'replay.xml')
    const replayed = await parallax('replay', out, '--target', 'everything', '--config', config, '--yes', '--junit', junit)
    expect(replayed.code).toBe(1)
    const xml = readFileSync(junit, 'utf8')
    expect(xml).toMatch(/<failure message="[^"]*\/data\/OPENAI_KEY/)
    expect(xml).toContain('get-env')
    expectNoSecret(xml, 'the JUnit report')
    expectNoSecret(replayed.stdout, 'the replay report')
  }, 90_000)
})

/** The CLI with this test's data folder (`dir` is made afresh for each test). */
const parallax = (...args: string[]) => cliRunner(join(dir, 'data'))(...args)
