import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { decodeBacklog, frameOfRow, type ListedSession, type SavedTarget } from '../../shared/contract'
import { openApprovedTarget, openUiClient, waitConnected, type UiClient } from '../../web/client'
import { startWebHostProcess, type RunningWebHost } from '../../web/launch'
import { cliRunner } from '../fixtures/cli'

// Sessions of any length, against the real `parallax web` with a UI attached and a real stdio server flooding it
// with log notifications: memory stays flat while every event stays reachable; a host killed mid-flood loses at
// most its last batch and the next start says the session was cut short; the CLI lists and saves sessions.

const FLOOD = fileURLToPath(new URL('../../bench/floodServer.ts', import.meta.url))
const flood = (count: number, rate: number): Pick<SavedTarget, 'name' | 'spec' | 'options'> => ({
  name: `flood ${count}`,
  spec: { kind: 'mcp-stdio', command: process.execPath, args: ['--import', 'tsx', FLOOD, String(count), String(rate)], env: {} },
  options: { keepaliveIntervalMs: 3_600_000 },
})

const dirs: string[] = []
const hosts: RunningWebHost[] = []
const uis: UiClient[] = []
afterEach(async () => {
  for (const ui of uis.splice(0)) await ui.close()
  for (const host of hosts.splice(0)) await host.stop()
})
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

function dataFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parallax-long-'))
  dirs.push(dir)
  return dir
}

async function attach(dataDir: string): Promise<{ host: RunningWebHost; ui: UiClient }> {
  const host = await startWebHostProcess({ dataDir })
  hosts.push(host)
  const ui = await openUiClient(host)
  uis.push(ui)
  return { host, ui }
}

/** Resident memory of a process, in MB. */
const rssOf = (pid: number) => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

/** How many flood notifications the UI has seen as frames. */
const floodFrames = (ui: UiClient, connectionId: string) =>
  ui.events.reduce((n, e) => n + (e.type === 'frame' && e.connectionId === connectionId && e.method === 'notifications/message' ? 1 : 0), 0)

describe('sessions of any length, under the real web host with a UI attached', () => {
  it('a flood of 300,000 notifications: memory flat after warm-up, every event reachable by position', async () => {
    const { host, ui } = await attach(dataFolder())
    const count = 300_000
    const rss: number[] = []
    ui.onEvents(() => {})
    const { connectionId } = await openApprovedTarget(ui, flood(count, 0))
    await waitConnected(ui, connectionId)
    await ui.waitForCount((e) => e.type === 'frame' && e.method === 'notifications/message', count / 4, 60_000)
    rss.push(rssOf(host.pid))
    await ui.waitForCount((e) => e.type === 'frame' && e.method === 'notifications/message', count, 120_000)
    rss.push(rssOf(host.pid))
    // Flat: what a quarter of the flood left in memory is what all of it leaves (the old engine grew ~2 MB per 1,000).
    expect(rss[1] - rss[0], `RSS ${rss.map((m) => m.toFixed(0)).join(' → ')} MB`).toBeLessThan(80)

    const [session] = (await ui.invoke('sessions.list', {})) as ListedSession[]
    expect(session.frames).toBeGreaterThanOrEqual(count)
    expect(session.logs).toBeGreaterThanOrEqual(count)
    for (const position of [0, Math.floor(count / 2), session.frames - 1]) {
      const { rows } = await ui.invoke('frames.rows', { connectionId, from: position, count: 1 })
      const page = decodeBacklog({
        frames: rows,
        logs: { shapes: [], seq: [], ts: [], shape: [], frameSeq: [] },
        events: [],
        lastSeq: 0,
        more: false,
      })
      expect(frameOfRow(page.frames, 0).connectionId).toBe(connectionId)
    }
    const found = await ui.invoke('frames.find', {
      connectionId,
      filter: { text: 'notifications/message', direction: 'in', kind: '', hideProbes: false, wire: '' },
      from: count - 1,
      count: 1,
    })
    expect(found.total).toBe(count)
  }, 180_000)

  it('kill -9 mid-flood loses at most the last batch; the next start says the session was cut short, and reads it', async () => {
    const dataDir = dataFolder()
    const first = await attach(dataDir)
    const { connectionId } = await openApprovedTarget(first.ui, flood(1_000_000, 20_000))
    await first.ui.waitForCount((e) => e.type === 'frame' && e.method === 'notifications/message', 20_000, 60_000)
    const seen = floodFrames(first.ui, connectionId)
    process.kill(first.host.pid, 'SIGKILL')
    hosts.splice(hosts.indexOf(first.host), 1)
    uis.splice(uis.indexOf(first.ui), 1)
    await first.ui.close()

    const second = await attach(dataDir)
    const [session] = (await second.ui.invoke('sessions.list', {})) as ListedSession[]
    expect(session).toMatchObject({ ended: 'cut-short', running: false, connectionId })
    // The UI saw what the engine had emitted; the store had it on disk but for the last ~50 ms (at 20,000/s: ~1,000).
    expect(session.frames).toBeGreaterThan(seen - 2_000)
    const page = decodeBacklog(await second.ui.invoke('sessions.backlog', { sessionId: session.id, afterSeq: 0 }))
    expect(page.events.some((e) => e.type === 'handshake')).toBe(true)
    const view = `session:${session.id}`
    const last = await second.ui.invoke('frames.rows', { connectionId: view, from: session.frames - 1, count: 1 })
    expect(last.rows.seq).toHaveLength(1)
  }, 120_000)
})

describe('parallax sessions', () => {
  it('lists what commands kept, saves one (or a time range) as a recording, deletes it', async () => {
    const parallax = cliRunner(dataFolder())
    expect((await parallax('inspect', 'demo:tools', '--json')).code).toBe(0)
    const listed = await parallax('sessions', '--json')
    expect(listed.code, listed.stderr).toBe(0)
    const [session] = (JSON.parse(listed.stdout) as { format: string; sessions: ListedSession[] }).sessions
    expect(session).toMatchObject({ targetId: 'demo:tools', ended: 'closed', host: 'cli' })
    expect((await parallax('sessions')).stdout).toContain(session.id)

    const out = join(dataFolder(), 'inspect.jsonl')
    const saved = await parallax('sessions', 'export', session.id, '--out', out, '--json')
    expect(saved.code, saved.stderr).toBe(0)
    const lines = readFileSync(out, 'utf8').trim().split('\n')
    expect(JSON.parse(lines[0])).toMatchObject({ format: 'parallax.recording/1', targets: [{ id: 'demo:tools' }] })
    expect(lines.length - 1).toBe((JSON.parse(saved.stdout) as { exported: { events: number } }).exported.events)
    expect(lines.length - 1).toBe(session.events)

    const middle = (session.startedAt + session.lastEventAt) / 2
    const part = join(dataFolder(), 'part.jsonl')
    const ranged = await parallax('sessions', 'export', session.id, '--out', part, '--from', String(Math.round(middle)))
    expect(ranged.code, ranged.stderr).toBe(0)
    const partLines = readFileSync(part, 'utf8').trim().split('\n')
    expect(partLines.length).toBeLessThan(lines.length + 6) // its context (the state then) and the events after
    expect((JSON.parse(partLines[0]) as { context: number }).context).toBeGreaterThan(0)

    expect((await parallax('sessions', 'delete', session.id)).code).toBe(0)
    expect(JSON.parse((await parallax('sessions', '--json')).stdout).sessions).toEqual([])
    const bad = await parallax('sessions', 'export', 'nope', '--out', out, '--json')
    expect(bad.code).toBe(2)
    expect(JSON.parse(bad.stdout)).toMatchObject({ format: 'parallax.sessions/1', error: { kind: 'usage' } })
  }, 60_000)
})

describe('a disk that fills up', () => {
  it('stops keeping the session with a clear error in its log; what was written stays readable; the connection goes on', async () => {
    const dataDir = dataFolder()
    // Room for 256 KB a file: the flood's session outgrows it.
    const host = await startWebHostProcess({ dataDir, fileSizeLimitKiB: 256 })
    hosts.push(host)
    const ui = await openUiClient(host)
    uis.push(ui)
    const { connectionId } = await openApprovedTarget(ui, flood(20_000, 0))
    const said = await ui.waitFor((e) => e.type === 'log' && e.connectionId === connectionId && e.level === 'error', 60_000)
    expect(said.type === 'log' && said.text).toMatch(
      /^Parallax stopped keeping this session on disk: the disk is full \(EFBIG\)\. What it wrote before is kept/,
    )
    await ui.waitForCount((e) => e.type === 'frame' && e.method === 'notifications/message', 20_000, 60_000)
    expect(await ui.invoke('connections.probe', { connectionId })).toEqual({ ok: true })
    const [session] = (await ui.invoke('sessions.list', {})) as ListedSession[]
    expect(session).toMatchObject({ ended: 'cut-short', reason: expect.stringMatching(/EFBIG/) })
    expect(session.frames).toBeGreaterThan(100)
    const { rows } = await ui.invoke('frames.rows', { connectionId: `session:${session.id}`, from: session.frames - 1, count: 1 })
    expect(rows.seq).toHaveLength(1)
  }, 90_000)
})
