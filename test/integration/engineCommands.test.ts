import { builtInDemos } from '../../shared/demo/builtIns'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { SavedTarget } from '../../shared/contract'
import { Engine } from '../../shared/engine/engine'
import { EventRecorder } from '../fixtures/events'

let engine: Engine | undefined
const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'parallax-engine-'))
  dirs.push(dir)
  return dir
}

afterEach(async () => {
  await engine?.dispose()
  engine = undefined
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('engine commands', () => {
  it('refuses unknown commands and invalid input with a message that names the problem', async () => {
    engine = new Engine({ host: 'web', builtIns: builtInDemos() })
    await expect(engine.execute('process.spawn', {})).rejects.toThrow(/unknown command "process.spawn"/)
    await expect(engine.execute('connections.open', { targetId: 42 })).rejects.toThrow(/invalid input for connections.open: targetId/)
    await expect(engine.execute('targets.save', { name: 'x', spec: { kind: 'mcp-http', url: 'file:///etc/passwd' } })).rejects.toThrow(
      /url/,
    )
    await expect(engine.execute('connections.open', { targetId: 'nope' })).rejects.toThrow(/no target with id "nope"/)
  })

  it('lists the demo targets first and keeps them read-only', async () => {
    engine = new Engine({ host: 'web', builtIns: builtInDemos() })
    const targets = (await engine.execute('targets.list', {})) as SavedTarget[]
    expect(targets.map((t) => t.id)).toEqual([
      'demo:tools',
      'demo:prompts',
      'demo:resources',
      'demo:tools-changed-context',
      'demo:a2a',
      'demo:a2a-grpc',
      'demo:acp',
    ])
    await expect(
      engine.execute('targets.save', { id: 'demo:tools', name: 'mine', spec: { kind: 'mcp-stdio', command: 'evil' } }),
    ).rejects.toThrow(/demo targets cannot be changed/)
  })

  it('saves, persists, reloads and removes a target in the data folder', async () => {
    const dataDir = tempDir()
    engine = new Engine({ host: 'web', builtIns: builtInDemos(), dataDir })
    const saved = (await engine.execute('targets.save', {
      name: 'remote',
      spec: { kind: 'mcp-http', url: 'http://127.0.0.1:3001/mcp', headers: { Authorization: 'Bearer x' } },
      options: { keepaliveIntervalMs: 5000 },
    })) as SavedTarget
    expect(saved).toMatchObject({ origin: 'user', spec: { transport: 'auto' }, options: { keepaliveIntervalMs: 5000 } })
    const again = new Engine({ host: 'web', builtIns: builtInDemos(), dataDir })
    expect(((await again.execute('targets.list', {})) as SavedTarget[]).find((t) => t.id === saved.id)?.name).toBe('remote')
    expect(await engine.execute('targets.remove', { id: saved.id })).toEqual({ removed: true })
    expect(JSON.parse(readFileSync(join(dataDir, 'targets.json'), 'utf8'))).toEqual([])
  })

  it('keeps a corrupt targets file aside instead of losing the next save', async () => {
    const dataDir = tempDir()
    writeFileSync(join(dataDir, 'targets.json'), '{ not json')
    engine = new Engine({ host: 'web', builtIns: builtInDemos(), dataDir })
    expect(((await engine.execute('targets.list', {})) as SavedTarget[]).every((t) => t.origin === 'demo')).toBe(true)
    await engine.execute('targets.save', { name: 'a', spec: { kind: 'mcp-stdio', command: 'node' } })
    expect(JSON.parse(readFileSync(join(dataDir, 'targets.json'), 'utf8'))).toHaveLength(1)
  })

  it('imports an mcpServers config: good entries added, bad ones reported, nothing spawned', async () => {
    engine = new Engine({ host: 'web', builtIns: builtInDemos() })
    const recorder = new EventRecorder(engine)
    const config = {
      mcpServers: {
        files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'], env: { LOG: '1' } },
        remote: { url: 'http://127.0.0.1:3001/mcp', headers: { Authorization: 'Bearer abc' } },
        legacy: { type: 'sse', url: 'http://127.0.0.1:3002/sse' },
        broken: { args: ['x'] },
      },
    }
    const result = (await engine.execute('targets.import', { text: JSON.stringify(config), fileName: 'claude.json' })) as {
      imported: SavedTarget[]
      errors: string[]
    }
    expect(result.imported.map((t) => [t.name, t.origin, t.spec.kind])).toEqual([
      ['files', 'import', 'mcp-stdio'],
      ['remote', 'import', 'mcp-http'],
      ['legacy', 'import', 'mcp-http'],
    ])
    expect(result.imported[2].spec).toMatchObject({ transport: 'sse' })
    expect(result.errors).toEqual(['mcpServers.broken: needs either "command" (stdio) or "url" (HTTP)'])
    expect(recorder.events).toHaveLength(0)
    const bad = (await engine.execute('targets.import', { text: '{"mcpServers": [', fileName: 'x.json' })) as { errors: string[] }
    expect(bad.errors[0]).toMatch(/x.json is not valid JSON/)
  })

  it('returns the live connection when a target is opened twice, and a backlog of its events', async () => {
    engine = new Engine({ host: 'web', builtIns: builtInDemos(), defaults: { keepaliveIntervalMs: 60_000 } })
    const recorder = new EventRecorder(engine)
    const first = (await engine.execute('connections.open', { targetId: 'demo:prompts' })) as { connectionId: string }
    const second = (await engine.execute('connections.open', { targetId: 'demo:prompts' })) as { connectionId: string }
    expect(second.connectionId).toBe(first.connectionId)
    await recorder.waitFor((e) => e.type === 'connection' && e.state === 'connected', 20_000)
    const backlog = (await engine.execute('events.since', { afterSeq: 3 })) as { seq: number }[]
    expect(backlog[0].seq).toBe(4)
    expect(backlog.length).toBe(recorder.events.length - 3)
    await engine.execute('connections.close', { connectionId: first.connectionId })
    const reopened = (await engine.execute('connections.open', { targetId: 'demo:prompts' })) as { connectionId: string }
    expect(reopened.connectionId).not.toBe(first.connectionId)
  })

  it('opens an unsaved target and waits for its outcome; refuses what a protocol or a host does not have', async () => {
    engine = new Engine({ host: 'web', builtIns: builtInDemos(), defaults: { keepaliveIntervalMs: 60_000 } })
    const unreachable = { kind: 'mcp-http', url: 'http://127.0.0.1:9/mcp', transport: 'streamable-http' } as const
    // An unsaved target never takes a saved target's id, nor passes for a demo.
    await expect(engine.execute('connections.open', { target: { id: 'demo:tools', name: 'mine', spec: unreachable } })).rejects.toThrow(
      /saved target's id/,
    )
    await expect(
      engine.execute('connections.open', { target: { id: 'mine', name: 'mine', origin: 'demo', spec: unreachable } }),
    ).rejects.toThrow(/target.origin/)
    await expect(engine.execute('connections.open', {})).rejects.toThrow(/give either targetId/)
    const failing = await engine.invoke('connections.open', { target: { id: 'mine', name: 'nothing there', spec: unreachable } })
    expect(await engine.invoke('connections.wait', failing)).toMatchObject({
      connected: false,
      state: 'failed',
      reason: expect.any(String),
    })

    const demo = await engine.invoke('connections.open', { targetId: 'demo:prompts' })
    expect(await engine.invoke('connections.wait', demo)).toEqual({ connected: true, state: 'connected' })
    await expect(engine.invoke('tasks.list', demo)).rejects.toMatchObject({
      code: 'invalid-input',
      message: 'this MCP connection has no tasks (the server advertises no capabilities.tasks)',
    })
    await expect(engine.invoke('conversation.newContext', demo)).rejects.toThrow(/has no conversation context/)
    await expect(engine.invoke('conversation.send', { ...demo, turn: { text: 'hello' } })).rejects.toThrow(/an MCP turn is a tool call/)
    // A UI host records into the library only, never into a file it names.
    await expect(engine.invoke('recordings.start', { ...demo, file: join(tempDir(), 'x.jsonl') })).rejects.toThrow(/not into a file/)
  })

  it('refreshes an A2A connection by fetching its card again, and says what it found', async () => {
    engine = new Engine({ host: 'web', builtIns: builtInDemos(), defaults: { keepaliveIntervalMs: 60_000 } })
    const recorder = new EventRecorder(engine)
    const demo = await engine.invoke('connections.open', { targetId: 'demo:a2a' })
    expect((await engine.invoke('connections.wait', demo)).connected).toBe(true)
    expect(await engine.invoke('connections.refresh', demo)).toEqual({ ok: true })
    const refreshed = recorder.of('discovery', demo.connectionId).filter((e) => e.trigger === 'refresh')
    expect(refreshed).toEqual([
      expect.objectContaining({
        method: 'agent-card',
        status: 'called',
        count: 6,
        reason: expect.stringMatching(/the same card this connection was made with/),
      }),
    ])
  })
})
