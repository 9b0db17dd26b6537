import { builtInDemos } from '../../shared/demo/builtIns'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import type { RecordingInfo } from '../../shared/contract'
import { Engine } from '../../shared/engine/engine'
import { parseRecording } from '../../shared/session/recording'
import { turnsFromEvents } from '../../shared/session/turns'
import { EventRecorder } from '../fixtures/events'
import { approveAll, fixtureTarget } from '../fixtures/targets'
import { releaseErrors } from '../adcp/schemas.mjs'
import { demoBuy } from '../fixtures/demoBuy'

const DEMO_RECORDING = fileURLToPath(new URL('../../shared/demo/recordings/media-buying.jsonl', import.meta.url))
const demoTurns = () => {
  const loaded = parseRecording(readFileSync(DEMO_RECORDING, 'utf8'))
  return turnsFromEvents(loaded.events, loaded.header?.mapping)
}

let engine: Engine
let dir: string

function start() {
  dir = mkdtempSync(join(tmpdir(), 'parallax-replay-'))
  engine = new Engine({
    host: 'cli',
    builtIns: builtInDemos(),
    approver: approveAll,
    recordingsDir: join(dir, 'recordings'),
    defaults: { keepaliveIntervalMs: 60_000, reconnectAttempts: 0 },
  })
  return new EventRecorder(engine)
}

afterEach(async () => {
  await engine?.dispose()
  rmSync(dir, { recursive: true, force: true })
})

describe('record, then replay', () => {
  it('records a session and replays it against the same target: every turn agrees', async () => {
    start()
    const connection = await engine.openTarget('demo:a2a')
    const { name } = (await engine.execute('recordings.start', { connectionId: connection.id, name: 'a2a session' })) as { name: string }
    await new Promise((resolve) => setTimeout(resolve, 300))
    while (!connection.isLive) await new Promise((resolve) => setTimeout(resolve, 50))
    await engine.sendTurn(connection.id, { data: { skill: 'get_products', input: { buying_mode: 'brief', brief: 'sports' } } })
    await engine.sendTurn(connection.id, { text: 'buy prod_sports_video 25000' })
    await engine.sendTurn(connection.id, { text: 'acmeoutdoor.example' })
    const stopped = (await engine.execute('recordings.stop', { connectionId: connection.id })) as { lines: number }
    expect(stopped.lines).toBeGreaterThan(10)
    const list = (await engine.execute('recordings.list', {})) as RecordingInfo[]
    expect(list.map((r) => r.name).sort()).toEqual([name, 'media-buying'].sort()) // the demo recording seeds the library
    const loaded = (await engine.execute('recordings.load', { name })) as { problems: unknown[]; turns: { turn: { kind: string } }[] }
    expect(loaded.problems).toEqual([])
    expect(loaded.turns.map((t) => t.turn.kind)).toEqual(['call', 'text', 'text'])

    const { replayId, total } = (await engine.execute('replay.start', { recording: name, targetIds: ['demo:a2a'] })) as {
      replayId: string
      total: number
    }
    expect(total).toBe(3)
    const summary = await engine.execute('replay.run', { replayId })
    expect(summary).toEqual({ total: 3, same: 3, differs: 0, errors: 0, skipped: 0 })
  })

  it('MCP face vs A2A face of the demo: only the documented difference', async () => {
    start()
    const [tools, a2a] = await Promise.all(['demo:tools', 'demo:a2a'].map((id) => engine.targets.get(id)))
    const replay = await engine.startReplay({ targets: [tools!, a2a!], turns: demoTurns() })
    const summary = await replay.runAll()
    expect(summary).toEqual({ total: 4, same: 3, differs: 1, errors: 0, skipped: 0 })
    const differing = replay.results.find((r) => r.status === 'differs')!
    expect(differing.turn).toMatchObject({ kind: 'call', tool: 'get_media_buy_delivery' })
    expect(differing.diff).toEqual([{ path: '/data/media_buy_deliveries/0/pricing_model', op: 'add', b: 'cpm' }])
    // The same replay, told to ignore that spot, agrees everywhere.
    const again = await engine.startReplay({
      targets: [tools!, a2a!],
      turns: demoTurns(),
      ignore: ['/data/media_buy_deliveries/0/pricing_model'],
    })
    expect((await again.runAll()).same).toBe(4)
  })

  it('asks for progress only on turns the recording shows were slow (or cannot time): a timeout may need it there', async () => {
    const recorder = start()
    const turns = demoTurns()
    expect(turns.every((t) => t.tookMs !== undefined && t.tookMs < 1_000)).toBe(true) // the demo answers at once
    const slow = turns.map((t, i) => (i === 1 ? { ...t, tookMs: 5_000 } : i === 2 ? { ...t, tookMs: undefined } : t))
    const tools = await engine.targets.get('demo:tools')
    const replay = await engine.startReplay({ targets: [tools!], turns: slow })
    await replay.runAll()
    const calls = recorder.of('frame').filter((f) => f.direction === 'out' && f.method === 'tools/call')
    const asked = calls.map((f) => JSON.stringify(f.payload).includes('progressToken'))
    expect(asked).toEqual([false, true, true, false])
  })

  it('keeps every earlier result when a target dies mid-replay, and reports each later turn as an error', async () => {
    const recorder = start()
    const replay = await engine.startReplay({
      targets: [fixtureTarget('mediaSalesCrashing', [], { reconnectAttempts: 0 })],
      turns: demoTurns(),
    })
    const summary = await replay.runAll()
    expect(replay.results.map((r) => r.status)).toEqual(['same', 'same', 'error', 'error'])
    expect(replay.results[2].errors?.b).toMatch(/closed|not connected|exited/i)
    expect(summary).toMatchObject({ total: 4, same: 2, errors: 2 })
    const events = recorder.of('replay')
    expect(events.filter((e) => e.phase === 'turn')).toHaveLength(4)
    expect(events.at(-1)).toMatchObject({ phase: 'finished', summary: { same: 2, errors: 2 } })
  })

  it('keeps secrets off the disk: header values, env and the wire’s auth headers are redacted', async () => {
    start()
    const saved = (await engine.execute('targets.save', {
      name: 'agent with secrets',
      spec: { kind: 'a2a', url: 'http://127.0.0.1:1/', headers: { Authorization: 'Bearer s3cret-token', 'X-Api-Key': 's3cret-key' } },
    })) as { id: string }
    // Point the saved agent at the demo agent, so there is real traffic with those headers.
    const demo = await engine.openTarget('demo:a2a')
    await new Promise((resolve) => setTimeout(resolve, 200))
    const url = (
      engine.events.since(0).find((e) => e.type === 'handshake' && e.connectionId === demo.id) as { cardUrl: string }
    ).cardUrl.replace('/.well-known/agent-card.json', '')
    await engine.execute('targets.save', {
      id: saved.id,
      name: 'agent with secrets',
      spec: { kind: 'a2a', url, headers: { Authorization: 'Bearer s3cret-token', 'X-Api-Key': 's3cret-key' } },
    })
    const connection = await engine.createConnection((await engine.targets.get(saved.id))!)
    expect(await connection.open()).toBe(true)
    const path = join(dir, 'secrets.jsonl')
    engine.startRecording(connection.id, path)
    await engine.sendTurn(connection.id, { text: 'formats' })
    engine.stopRecording(connection.id)
    const text = readFileSync(path, 'utf8')
    expect(text).not.toContain('s3cret')
    expect(text).toContain('"authorization":"[redacted]"')
    expect(parseRecording(text).header?.targets[0].spec).toMatchObject({
      headers: { Authorization: '[redacted]', 'X-Api-Key': '[redacted]' },
    })
  })

  it('manages the library: import checks the text, rename, export, delete; a read-only folder is a clear error', async () => {
    start()
    const text = readFileSync(DEMO_RECORDING, 'utf8')
    const imported = (await engine.execute('recordings.import', { name: 'demo copy', text: `${text}{"broken` })) as {
      problems: { line: number }[]
    }
    expect(imported.problems).toEqual([{ line: text.split('\n').length, message: expect.stringMatching(/truncated/) }])
    await expect(engine.execute('recordings.import', { name: 'empty', text: 'nothing here' })).rejects.toThrow(/nothing to import: line 1/)
    await expect(engine.execute('recordings.import', { name: '../escape', text })).resolves.toMatchObject({ name: 'escape' })
    await engine.execute('recordings.rename', { name: 'demo copy', to: 'renamed' })
    expect(((await engine.execute('recordings.export', { name: 'renamed' })) as { text: string }).text.startsWith(text)).toBe(true)
    expect(await engine.execute('recordings.delete', { name: 'renamed' })).toEqual({ deleted: true })
    expect(((await engine.execute('recordings.list', {})) as RecordingInfo[]).map((r) => r.name).sort()).toEqual(['escape', 'media-buying'])
    const connection = await engine.openTarget('demo:prompts')
    await expect(
      Promise.resolve().then(() => engine.startRecording(connection.id, '/proc/parallax-cannot-write-here.jsonl')),
    ).rejects.toThrow(/cannot record to/)
    expect(connection.isFinished).toBe(false)
  })
})

describe('parity speaks one vocabulary', () => {
  it('a buy refused over MCP (isError) and over A2A (task failed) is the same outcome, the protocols’ words kept as detail', async () => {
    const recorder = start()
    const { connectionId } = await engine.invoke('connections.open', { targetId: 'demo:tools' })
    await recorder.waitFor((e) => e.type === 'connection' && e.connectionId === connectionId && e.state === 'connected', 20_000)
    const { name } = await engine.invoke('recordings.start', { connectionId, name: 'refused buy' })
    const refused = await engine.invoke('conversation.send', {
      connectionId,
      turn: {
        tool: 'create_media_buy',
        arguments: demoBuy({ budget: 10 }),
      },
      stream: false,
      newContext: false,
    })
    expect(refused.state).toBe('error') // MCP's word: the tool answered with isError
    await engine.invoke('recordings.stop', { connectionId })

    const { replayId } = await engine.invoke('replay.start', { recording: name, targetIds: ['demo:tools', 'demo:a2a'] })
    const summary = await engine.invoke('replay.run', { replayId })
    expect(summary).toMatchObject({ total: 1, same: 1, differs: 0 })
    const turn = recorder.of('replay').find((e) => e.phase === 'turn')!.turn!
    expect(turn.status).toBe('same')
    expect(turn.a).toMatchObject({ outcome: 'failed', state: 'error' })
    expect(turn.b).toMatchObject({ outcome: 'failed', state: 'failed' })
    // Both answer with AdCP's error in its two layers (the error arm's errors[], the envelope's adcp_error), the same on both faces.
    const error = {
      code: 'BUDGET_TOO_LOW',
      message: expect.stringMatching(/below the minimum/),
      recovery: 'correctable',
      field: 'packages[0].budget',
    }
    expect(turn.a?.data).toEqual({ errors: [error], adcp_error: error })
    expect(releaseErrors('create_media_buy', 'response', turn.a?.data)).toEqual([])
    expect(turn.b?.data).toEqual(turn.a?.data)
  })
})
