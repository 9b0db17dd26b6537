import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ConnectionEvent } from '../../shared/contract'
import { parseRecording } from '../../shared/session/recording'
import { demoServers, isRunning } from '../fixtures/processes'
import { fixtureTarget } from '../fixtures/targets'
import { openApproved, openApprovedTarget, openUiClient, waitConnected, type UiClient } from '../../web/client'
import { ROOT, startWebHostProcess, type RunningWebHost } from '../../web/launch'

// Whose connection is this: every connection has an owner and a purpose; what a feature (compare,
// replay) opens, it closes, with its server processes; none of it ever replaces the user's session.
// Run against the real `parallax web`, through the same socket and commands as the page.

let host: RunningWebHost | undefined
let ui: UiClient | undefined
const cleanups: (() => void)[] = []

afterEach(async () => {
  await ui?.close()
  await host?.stop()
  host = ui = undefined
  for (const cleanup of cleanups.splice(0)) cleanup()
})

const connectionEvents = (client: UiClient) => client.of('connection')
const pidsOf = (events: ConnectionEvent[]) => [...new Set(events.flatMap((e) => (e.pid ? [e.pid] : [])))]

describe('whose connection is this, against the real web host', () => {
  it('several compares and replays leave no process behind, and never touch the user’s own session', async () => {
    host = await startWebHostProcess()
    ui = await openUiClient(host)
    const session = await openApproved(ui, 'demo:tools')
    await waitConnected(ui, session)
    await ui.invoke('conversation.send', {
      connectionId: session,
      turn: { tool: 'list_creative_formats', arguments: { name_search: 'audio' } },
    })
    const sessionPid = connectionEvents(ui).find((e) => e.connectionId === session && e.state === 'connected')!.pid!
    expect(demoServers(host.pid)).toEqual([sessionPid])

    // Three compares: two under two profiles of the same target, one MCP vs A2A.
    for (let i = 0; i < 2; i++)
      await ui.invoke('compare.run', {
        a: { targetId: 'demo:tools', profile: 'minimal' },
        b: { targetId: 'demo:tools', profile: 'hinted' },
      })
    await ui.invoke('compare.run', { a: { targetId: 'demo:tools' }, b: { targetId: 'demo:a2a' } })

    // Replays: one run to its end, one stopped half-way, one stepped once and then replaced by a newer one.
    const ran = await ui.invoke('replay.start', { recording: 'media-buying', targetIds: ['demo:tools', 'demo:a2a'] })
    expect((await ui.invoke('replay.run', { replayId: ran.replayId })).total).toBe(4)
    const stopped = await ui.invoke('replay.start', { recording: 'media-buying', targetIds: ['demo:tools'] })
    await ui.invoke('replay.step', { replayId: stopped.replayId })
    await ui.invoke('replay.stop', { replayId: stopped.replayId })
    const abandoned = await ui.invoke('replay.start', { recording: 'media-buying', targetIds: ['demo:tools', 'demo:a2a'] })
    await ui.invoke('replay.step', { replayId: abandoned.replayId })
    const newer = await ui.invoke('replay.start', { recording: 'media-buying', targetIds: ['demo:tools'] })
    await ui.invoke('replay.run', { replayId: newer.replayId })

    // A replay the user keeps the connections of: they stay open, listed with their owner, until closed.
    const kept = await ui.invoke('replay.start', { recording: 'media-buying', targetIds: ['demo:tools', 'demo:a2a'], keep: true })
    await ui.invoke('replay.run', { replayId: kept.replayId })
    const keptIds = [
      ...new Set(
        connectionEvents(ui)
          .filter((e) => e.owner.by === kept.replayId)
          .map((e) => e.connectionId),
      ),
    ]
    expect(keptIds).toHaveLength(2)
    await new Promise((resolve) => setTimeout(resolve, 300))
    for (const id of keptIds) expect(connectionEvents(ui).findLast((e) => e.connectionId === id)?.state).toBe('connected')
    expect(demoServers(host.pid)).toHaveLength(2) // the session's and the kept replay's
    for (const connectionId of keptIds) await ui.invoke('connections.close', { connectionId })

    // Every connection said who opened it; only the user's session is left, with its one process.
    const events = connectionEvents(ui)
    const purposes = new Map(events.map((e) => [e.connectionId, `${e.owner.purpose}${e.owner.by ? ` ${e.owner.by}` : ''}`]))
    expect([...purposes.values()].filter((p) => p === 'session')).toHaveLength(1)
    expect([...purposes.values()].filter((p) => p.startsWith('compare'))).toHaveLength(6)
    expect([...purposes.values()].filter((p) => p.startsWith('replay'))).toHaveLength(8)
    for (const e of events) expect(e.owner.startedAt).toBeGreaterThan(Date.now() - 120_000)
    await expect.poll(() => demoServers(host!.pid), { timeout: 10_000 }).toEqual([sessionPid])
    const others = pidsOf(events.filter((e) => e.connectionId !== session))
    expect(others).toHaveLength(10) // one demo tool server per MCP side: 5 of the compares' sides, 5 of the replays'
    for (const pid of others) expect(isRunning(pid)).toBe(false)
    for (const [connectionId] of purposes)
      if (connectionId !== session) expect(connectionEvents(ui).findLast((e) => e.connectionId === connectionId)?.state).toBe('closed')

    // The session was never touched: still connected, its conversation answered, its keepalive probing.
    expect(events.filter((e) => e.connectionId === session).map((e) => e.state)).toEqual(['connecting', 'connected'])
    expect(await ui.invoke('connections.probe', { connectionId: session })).toEqual({ ok: true })
    // And opening the target again is that same session.
    expect(await openApproved(ui, 'demo:tools')).toBe(session)
  }, 120_000)

  it('Reconnect replaces a session with a new one and says what became of the old', async () => {
    host = await startWebHostProcess()
    ui = await openUiClient(host)
    const first = await openApproved(ui, 'demo:prompts')
    await waitConnected(ui, first)
    const firstPid = connectionEvents(ui).find((e) => e.connectionId === first && e.state === 'connected')!.pid!
    await ui.invoke('hooks.load', { connectionId: first, path: join(ROOT, 'shared', 'demo', 'hooks', 'fill-buying-mode.json') })
    const again = await ui.invoke('connections.reconnect', { connectionId: first })
    expect(again.previous).toEqual({ connectionId: first, state: 'connected' })
    await waitConnected(ui, again.connectionId)
    expect(connectionEvents(ui).findLast((e) => e.connectionId === first)?.state).toBe('closed')
    expect(connectionEvents(ui).find((e) => e.connectionId === again.connectionId)?.owner.purpose).toBe('session')
    // The target's hooks still run on the new session, and it says so.
    expect(ui.of('hooks', again.connectionId).at(-1)?.source).toMatch(/fill-buying-mode\.json$/)
    await expect.poll(() => isRunning(firstPid)).toBe(false)
    expect(demoServers(host.pid)).toHaveLength(1)

    // A closed session reconnects too; and Connect on a target whose session is closed opens a new one.
    await ui.invoke('connections.close', { connectionId: again.connectionId })
    const third = await ui.invoke('connections.reconnect', { connectionId: again.connectionId })
    expect(third.previous.state).toBe('closed')
    await waitConnected(ui, third.connectionId)
    expect(await openApproved(ui, 'demo:prompts')).toBe(third.connectionId)
  }, 60_000)

  it('a recording holds only what happened after Record, with the connection’s state then as context', async () => {
    host = await startWebHostProcess()
    ui = await openUiClient(host)
    const session = await openApproved(ui, 'demo:tools')
    await waitConnected(ui, session)
    const send = (search: string) =>
      ui!.invoke('conversation.send', {
        connectionId: session,
        turn: { tool: 'list_creative_formats', arguments: { name_search: search } },
      })
    await send('audio') // before Record: not in the recording
    const { name } = await ui.invoke('recordings.start', { connectionId: session, name: 'from now on' })
    await send('pre-roll')
    await send('banner')
    const saved = await ui.invoke('recordings.stop', { connectionId: session })
    expect(saved).toMatchObject({ name, turns: 2 })
    expect(saved.lines).toBe(saved.events + 1)
    const stoppedEvent = await ui.waitFor((e) => e.type === 'recording' && e.state === 'stopped')
    expect(stoppedEvent).toMatchObject({ events: saved.events, turns: 2 })

    const text = readFileSync(join(host.dataDir, 'recordings', `${name}.jsonl`), 'utf8')
    const { header, events, problems } = parseRecording(text)
    expect(problems).toEqual([])
    expect(header).toMatchObject({ connection: { id: session, purpose: 'session' }, context: expect.any(Number) })
    const started = Date.parse(header!.startedAt)
    const context = events.slice(0, header!.context)
    expect(new Set(context.map((e) => e.type))).toEqual(new Set(['connection', 'discovery', 'handshake']))
    expect(context.every((e) => e.ts < started)).toBe(true)
    const after = events.slice(header!.context)
    expect(after.every((e) => e.ts >= started - 1)).toBe(true)
    const sent = after.flatMap((e) => (e.type === 'frame' && e.method === 'tools/call' && e.direction === 'out' ? [e.payload] : []))
    expect(JSON.stringify(sent)).not.toContain('audio')
    const loaded = await ui.invoke('recordings.load', { name })
    expect(loaded.turns.map((t) => t.turn)).toEqual([
      { kind: 'call', tool: 'list_creative_formats', arguments: { name_search: 'pre-roll' } },
      { kind: 'call', tool: 'list_creative_formats', arguments: { name_search: 'banner' } },
    ])
    const listed = (await ui.invoke('recordings.list', {})).find((r) => r.name === name)
    expect(listed?.header?.startedAt).toBe(header!.startedAt)
  }, 60_000)

  it('a server that exits and comes back is reported as such on the connected event', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parallax-dying-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    host = await startWebHostProcess()
    ui = await openUiClient(host)
    const { origin: _origin, id: _id, ...draft } = fixtureTarget('dying', ['once', join(dir, 'died')], { reconnectBaseDelayMs: 50 })
    const { connectionId } = await openApprovedTarget(ui, { ...draft, name: 'dies once' })
    const back = await ui.waitFor(
      (e): e is ConnectionEvent => e.type === 'connection' && e.connectionId === connectionId && e.state === 'connected' && !!e.reconnected,
      20_000,
    )
    expect(back.reconnected?.cause).toMatch(/^server process exited/)
    expect(back.reconnected!.downSince).toBeLessThanOrEqual(back.ts)
    expect(back.owner.purpose).toBe('session')
  }, 60_000)
})
