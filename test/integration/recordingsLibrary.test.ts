import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import type { RecordingInfo } from '../../shared/contract'
import { builtInDemos } from '../../shared/demo/builtIns'
import { Engine } from '../../shared/engine/engine'
import { openUiClient, type UiClient } from '../../web/client'
import { startWebHostProcess, type RunningWebHost, type WebHostOptions } from '../../web/launch'

// The recordings library against the real `parallax web`, driven over its socket as the UI drives it:
// nothing the user has is overwritten, one bad file never hides the others, a full disk leaves nothing
// behind, and everything in the data folder is the user's alone.

const DEMO = readFileSync(fileURLToPath(new URL('../../shared/demo/recordings/media-buying.jsonl', import.meta.url)), 'utf8')
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`

const running: { host: RunningWebHost; ui: UiClient }[] = []
const folders: string[] = []

async function start(options?: WebHostOptions): Promise<{ host: RunningWebHost; ui: UiClient }> {
  const host = await startWebHostProcess(options)
  const ui = await openUiClient(host)
  running.push({ host, ui })
  return { host, ui }
}

async function stop(host: RunningWebHost): Promise<void> {
  const index = running.findIndex((r) => r.host === host)
  if (index >= 0) {
    const [{ ui }] = running.splice(index, 1)
    await ui.close()
  }
  await host.stop()
}

function freshFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'parallax-library-'))
  folders.push(folder)
  return folder
}

const list = (ui: UiClient) => ui.invoke('recordings.list', {}) as Promise<RecordingInfo[]>

afterEach(async () => {
  for (const { host, ui } of running.splice(0)) {
    await ui.close()
    await host.stop()
  }
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

describe('recordings library: nothing is lost', () => {
  it('refuses to rename a recording onto an existing name, keeps both intact, and names a free one', async () => {
    const { host, ui } = await start()
    const copy = DEMO.replace('"startedAt":"', '"note":"the copy","startedAt":"')
    await ui.invoke('recordings.import', { name: 'copy', text: copy })
    await list(ui) // the seeded demo recording is there
    const folder = join(host.dataDir, 'recordings')

    const refused = ui.invoke('recordings.rename', { name: 'copy', to: 'media-buying' })
    await expect(refused).rejects.toThrow('a recording named "media-buying" exists already; pick another name (e.g. "media-buying (2)")')
    expect(readFileSync(join(folder, 'media-buying.jsonl'), 'utf8')).toBe(DEMO)
    expect(readFileSync(join(folder, 'copy.jsonl'), 'utf8')).toBe(copy)

    expect(await ui.invoke('recordings.rename', { name: 'copy', to: 'media-buying (2)' })).toEqual({ name: 'media-buying (2)' })
    expect((await list(ui)).map((r) => r.name).sort()).toEqual(['media-buying', 'media-buying (2)'])
    expect(readFileSync(join(folder, 'media-buying (2).jsonl'), 'utf8')).toBe(copy)
    // Starting a recording under a taken name is refused too, instead of appending to it.
    const { connectionId } = await ui.invoke('connections.open', { targetId: 'demo:prompts' })
    await expect(ui.invoke('recordings.start', { connectionId, name: 'media-buying' })).rejects.toThrow(/exists already/)
    expect(readFileSync(join(folder, 'media-buying.jsonl'), 'utf8')).toBe(DEMO)
  })

  it('lists a recording nested 10,000 levels deep (and other bad files) as damaged, with why, beside the good ones; each can be removed', async () => {
    const { host, ui } = await start()
    const header = (extra: string) => `{"format":"parallax.recording/1","startedAt":"2026-01-01T00:00:00.000Z","targets":[],"x":${extra}}`
    const event = '{"type":"connection","state":"connecting","connectionId":"c1","seq":1,"ts":1}'
    await list(ui)
    const folder = join(host.dataDir, 'recordings')
    // Files dropped into the folder by hand (or imported by an older version) are listed as damaged, with why.
    writeFileSync(join(folder, 'deep header.jsonl'), `${header(deep(10_000))}\n${event}\n`)
    writeFileSync(join(folder, 'deep array.jsonl'), `${deep(10_000)}\n${event}\n`)
    expect((await list(ui)).map((r) => r.name).sort()).toEqual(['deep array', 'deep header', 'media-buying'])
    writeFileSync(join(folder, 'not json.jsonl'), '{"format":\n')
    writeFileSync(join(folder, 'foreign.jsonl'), '{"format":"something-else/1"}\n')
    writeFileSync(join(folder, 'empty.jsonl'), '')
    symlinkSync(join(folder, 'nowhere'), join(folder, 'dangling.jsonl'))
    const listed = await list(ui)
    const damaged = Object.fromEntries(listed.filter((r) => r.damaged).map((r) => [r.name, r.damaged]))
    expect(damaged).toEqual({
      'deep header': 'the first line is nested more than 64 levels deep, not a Parallax header',
      'deep array': 'the first line is nested more than 64 levels deep, not a Parallax header',
      'not json': 'the first line is not valid JSON',
      foreign: 'the first line is not a parallax.recording/1 header',
      empty: 'the file is empty',
      dangling: 'cannot be read: the file is missing (a dangling link?)',
    })
    const good = listed.find((r) => r.name === 'media-buying')!
    expect(good.damaged).toBeUndefined()
    expect(good.header).toEqual({
      format: 'parallax.recording/1',
      startedAt: '2026-11-26T22:29:07.272Z',
      targets: [{ id: 'demo:tools', name: 'Demo media-sales agent' }],
    })
    expect(JSON.stringify(listed).length).toBeLessThan(4000) // a summary, never the agent-controlled header

    // Loading the deep one is a clear report, not a crash.
    const loaded = await ui.invoke('recordings.load', { name: 'deep header' })
    expect(loaded).toMatchObject({ turns: [], problems: [{ line: 1, message: expect.stringMatching(/nested more than 64/) }] })
    expect(loaded.header).toBeUndefined()

    for (const name of Object.keys(damaged)) expect(await ui.invoke('recordings.delete', { name })).toEqual({ deleted: true })
    expect((await list(ui)).map((r) => r.name)).toEqual(['media-buying'])
    expect(readdirSync(folder).sort()).toEqual(['media-buying.jsonl'])

    // Import checks the header the same way and refuses it, with the reason.
    await expect(ui.invoke('recordings.import', { name: 'deep', text: `${header(deep(10_000))}\n${event}\n` })).rejects.toThrow(
      /not a Parallax recording: line 1: the first line is nested more than 64 levels deep/,
    )
    await expect(ui.invoke('recordings.import', { name: 'deep', text: `${deep(10_000)}\n${event}\n` })).rejects.toThrow(
      /nested more than 64 levels deep/,
    )
    expect(readdirSync(folder)).toEqual(['media-buying.jsonl'])
  })

  it("a header Parallax cannot use is dropped whole: the turns are read as any recording's, its mapping unused", async () => {
    const { host, ui } = await start()
    await list(ui)
    const folder = join(host.dataDir, 'recordings')
    const data = { skill: 'get_products', input: { buying_mode: 'brief', brief: 'spring' } }
    const message = { role: 'user', content: '', timestamp: 1, metadata: { kind: 'message', turn: 1, data } }
    const asked = JSON.stringify({ type: 'conversation', seq: 1, ts: 1, connectionId: 'c1', message })
    const headerWith = (fields: object) =>
      JSON.stringify({ format: 'parallax.recording/1', targets: [], mapping: { skillField: 'tool', inputField: 'args' }, ...fields })
    writeFileSync(join(folder, 'no start.jsonl'), `${headerWith({})}\n${asked}\n`)
    writeFileSync(join(folder, 'whole.jsonl'), `${headerWith({ startedAt: '2026-01-01T00:00:00.000Z' })}\n${asked}\n`)

    const damaged = await ui.invoke('recordings.load', { name: 'no start' })
    expect(damaged.header).toBeUndefined()
    expect(damaged.problems).toEqual([{ line: 1, message: 'the header has no valid startedAt time' }])
    expect(damaged.turns).toEqual([
      { index: 1, turn: { kind: 'call', tool: 'get_products', arguments: { buying_mode: 'brief', brief: 'spring' } } },
    ])
    // The same header, whole: its mapping is the recording's own, under which this data part names no skill.
    const whole = await ui.invoke('recordings.load', { name: 'whole' })
    expect(whole.problems).toEqual([])
    expect(whole.turns).toEqual([{ index: 1, turn: { kind: 'data', data } }])

    // A header whose mapping names no fields is said so, and the default mapping stands in, for loading and replaying.
    writeFileSync(join(folder, 'no mapping.jsonl'), `${headerWith({ startedAt: '2026-01-01T00:00:00.000Z', mapping: null })}\n${asked}\n`)
    const unmapped = await ui.invoke('recordings.load', { name: 'no mapping' })
    expect(unmapped.problems).toEqual([
      { line: 1, message: "the header's mapping does not name a skill field and an input field: the defaults (skill, input) are used" },
    ])
    expect(unmapped.turns).toEqual(damaged.turns)
    const { replayId } = await ui.invoke('replay.start', { recording: 'no mapping', targetIds: ['demo:tools'] })
    expect(await ui.invoke('replay.run', { replayId })).toMatchObject({ total: 1, errors: 0 })
  })

  it('a full disk refuses an import and a new recording clearly, leaves no file, and the same names work once there is space', async () => {
    const dataDir = join(freshFolder(), 'data')
    const folder = join(dataDir, 'recordings')
    const full = await start({ dataDir, fileSizeLimitKiB: 0 })
    // Nothing can be written: the seed copy fails (silently), the import and the recording say why.
    const imported = await full.ui.invoke('recordings.import', { name: 'session', text: DEMO }).catch((error: Error) => error)
    const { connectionId } = await full.ui.invoke('connections.open', { targetId: 'demo:prompts' })
    const named = await full.ui.invoke('recordings.start', { connectionId, name: 'live' }).catch((error: Error) => error)
    const generated = await full.ui.invoke('recordings.start', { connectionId }).catch((error: Error) => error)
    expect(readdirSync(folder)).toEqual([]) // no empty or partial file, no temp file
    expect(await list(full.ui)).toEqual([])
    expect((imported as Error).message).toBe('"session" was not imported, and nothing was written: the disk is full (EFBIG)')
    expect((named as Error).message).toMatch(/cannot record to .*live\.jsonl: the first line could not be written \(EFBIG/)
    expect((generated as Error).message).toMatch(/cannot record to .*the first line could not be written/)
    await stop(full.host)

    // Space is back: a host without the limit, on the same data folder.
    const { ui } = await start({ dataDir })
    expect(await ui.invoke('recordings.import', { name: 'session', text: DEMO })).toEqual({ name: 'session', problems: [] })
    const reopened = await ui.invoke('connections.open', { targetId: 'demo:prompts' })
    expect(await ui.invoke('recordings.start', { connectionId: reopened.connectionId, name: 'live' })).toEqual({ name: 'live' })
    expect((await ui.invoke('recordings.stop', { connectionId: reopened.connectionId })).lines).toBeGreaterThan(0)
    expect((await list(ui)).map((r) => [r.name, r.damaged]).sort()).toEqual([
      ['live', undefined],
      ['session', undefined],
    ])
    expect(readFileSync(join(folder, 'session.jsonl'), 'utf8')).toBe(DEMO)
  })

  it('import never writes part of a file: a recording larger than the space left is refused whole', async () => {
    const dataDir = join(freshFolder(), 'data')
    const { ui } = await start({ dataDir, fileSizeLimitKiB: 8 }) // room for small files, not for the 24 KB demo
    const refused = await ui.invoke('recordings.import', { name: 'session', text: DEMO }).catch((error: Error) => error)
    expect(readdirSync(join(dataDir, 'recordings')).filter((f) => f.includes('session'))).toEqual([])
    expect((refused as Error).message).toMatch(/the disk is full \(EFBIG\)/)
    const small = DEMO.split('\n').slice(0, 3).join('\n')
    expect(await ui.invoke('recordings.import', { name: 'session', text: small })).toMatchObject({ name: 'session' })
    expect(readFileSync(join(dataDir, 'recordings', 'session.jsonl'), 'utf8')).toBe(small)
  })
})

describe("the data folder is the user's alone", () => {
  const mode = (path: string) => statSync(path).mode & 0o777
  /** Every file and folder under `dir`, with its permission bits. */
  const modes = (dir: string): Record<string, string> => {
    const found: Record<string, string> = { '.': mode(dir).toString(8) }
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      const path = join(entry.parentPath, entry.name)
      found[path.slice(dir.length + 1)] = mode(path).toString(8)
    }
    return found
  }

  it('makes the data folder and the recordings folder 0700 and every file in them 0600, the seeded demo recording included', async () => {
    const dataDir = join(freshFolder(), 'parallax')
    const { host, ui } = await start({ dataDir })
    expect(existsSync(dataDir)).toBe(true) // made at launch, before anything is saved
    expect(host.dataDir).toBe(dataDir)
    await ui.invoke('targets.import', { text: JSON.stringify({ mcpServers: { remote: { url: 'http://127.0.0.1:9/mcp' } } }) })
    await ui.invoke('profiles.save', { profile: { name: 'mine', description: 'a saved profile' } })
    await ui.invoke('recordings.import', { name: 'imported', text: DEMO })
    const { connectionId } = await ui.invoke('connections.open', { targetId: 'demo:prompts' })
    await ui.invoke('recordings.start', { connectionId, name: 'recorded' })
    await ui.invoke('recordings.stop', { connectionId })
    await ui.invoke('recordings.rename', { name: 'recorded', to: 'renamed' })
    const found = modes(dataDir)
    expect(found).toMatchObject({
      '.': '700',
      'targets.json': '600',
      'profiles.json': '600',
      recordings: '700',
      'recordings/media-buying.jsonl': '600',
      'recordings/imported.jsonl': '600',
      'recordings/renamed.jsonl': '600',
    })
    for (const [path, bits] of Object.entries(found))
      expect(`${path} ${bits}`).toBe(`${path} ${statSync(join(dataDir, path)).isDirectory() ? '700' : '600'}`)
  })

  it('tightens a data folder an older version left open (folders 0700, recordings 0600) and removes temp files of a write that never finished', async () => {
    const dataDir = join(freshFolder(), 'parallax')
    const first = await start({ dataDir })
    await list(first.ui)
    await stop(first.host)
    chmodSync(dataDir, 0o755)
    chmodSync(join(dataDir, 'recordings'), 0o755)
    chmodSync(join(dataDir, 'recordings', 'media-buying.jsonl'), 0o644)
    // A host killed mid-import two hours ago left its temp file; another host's import is under way now.
    const stale = join(dataDir, 'recordings', '.big.jsonl.0123456789ab.tmp')
    writeFileSync(stale, 'partial', { mode: 0o600 })
    utimesSync(stale, new Date(Date.now() - 2 * 3600_000), new Date(Date.now() - 2 * 3600_000))
    writeFileSync(join(dataDir, 'recordings', '.other.jsonl.ba9876543210.tmp'), 'in progress', { mode: 0o600 })
    const { ui } = await start({ dataDir })
    await list(ui)
    expect(modes(dataDir)).toEqual({
      '.': '700',
      sessions: '700',
      recordings: '700',
      'recordings/media-buying.jsonl': '600',
      'recordings/.other.jsonl.ba9876543210.tmp': '600',
    })
  })

  it('keeps an oversized frame whole in its session, the user’s alone (0700 folder, 0600 files), read back by frames.export', async () => {
    const dataDir = join(freshFolder(), 'parallax')
    const engine = new Engine({ host: 'web', dataDir, builtIns: builtInDemos(), defaults: { maxFrameBytes: 1024 } })
    try {
      const { connectionId } = await engine.invoke('connections.open', { targetId: 'demo:tools' })
      expect((await engine.invoke('connections.wait', { connectionId })).connected).toBe(true)
      await engine.invoke('tools.call', { connectionId, tool: 'get_products', arguments: { buying_mode: 'brief', brief: 'video' } })
      const big = engine.events.since(0).find((e) => e.type === 'frame' && e.truncated?.file)
      expect(big?.type === 'frame' && big.truncated?.file).toMatch(/^payloads\.bin#\d+\+\d+$/)
      const whole = await engine.invoke('frames.export', { connectionId, seq: big!.seq })
      expect(whole.text.length).toBe(whole.bytes)
      expect(JSON.parse(whole.text)).toMatchObject({ jsonrpc: '2.0' })
      const found = modes(join(dataDir, 'sessions'))
      expect(Object.keys(found).some((path) => path.endsWith('payloads.bin'))).toBe(true)
      for (const [path, bits] of Object.entries(found))
        expect(`${path} ${bits}`).toBe(`${path} ${statSync(join(dataDir, 'sessions', path)).isDirectory() ? '700' : '600'}`)
    } finally {
      await engine.dispose()
    }
  })
})
