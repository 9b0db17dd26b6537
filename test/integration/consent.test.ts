import { builtInDemos } from '../../shared/demo/builtIns'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CommandError, isApprovalRequired, type ApprovalRequest, type SavedTarget } from '../../shared/contract'
import { Engine } from '../../shared/engine/engine'
import { slowExecutor, startA2aAgent, type RunningHttp } from '../fixtures/a2aAgents'
import { EventRecorder } from '../fixtures/events'

// The engine as the web host and the desktop app run it: no approver, so every unapproved command,
// hooks module or foreign origin is refused with `approval-required` for the host to confirm.
let engine: Engine | undefined
let dir: string
const cleanups: (() => Promise<void> | void)[] = []

function start(): Engine {
  dir = mkdtempSync(join(tmpdir(), 'parallax-consent-'))
  engine = new Engine({
    host: 'web',
    builtIns: builtInDemos(),
    dataDir: join(dir, 'data'),
    defaults: { keepaliveIntervalMs: 60_000, reconnectAttempts: 0 },
  })
  return engine
}

afterEach(async () => {
  await engine?.dispose()
  engine = undefined
  for (const cleanup of cleanups.splice(0)) await cleanup()
  rmSync(dir, { recursive: true, force: true })
})

/** A config whose one server, if it ever starts, leaves a marker file behind: proof that it ran. */
function configRunning(marker: string, extra: { args?: string[]; env?: Record<string, string> } = {}): string {
  const script = "require('fs').writeFileSync(process.argv[1], 'ran'); setTimeout(() => {}, 60000)"
  return JSON.stringify({
    mcpServers: { tracker: { command: process.execPath, args: ['-e', script, marker, ...(extra.args ?? [])], env: extra.env ?? {} } },
  })
}

async function refusal(run: Promise<unknown>): Promise<ApprovalRequest> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(CommandError)
  expect((error as CommandError).code).toBe('approval-required')
  const details = (error as CommandError).details
  if (!isApprovalRequired(details)) throw new Error('no approval request in the refusal')
  return details.approval
}

describe('the engine runs nothing the user has not approved', () => {
  it('refuses an imported command on every path that could open it — connect, compare, replay — and spawns nothing', async () => {
    const e = start()
    const marker = join(dir, 'ran')
    const { imported } = (await e.execute('targets.import', { text: configRunning(marker), fileName: 'mcp.json' })) as {
      imported: SavedTarget[]
    }
    const id = imported[0].id

    const asked = await refusal(e.execute('connections.open', { targetId: id }))
    expect(asked).toMatchObject({ kind: 'command', targetId: id, command: { command: process.execPath } })
    expect(asked.command!.args).toContain(marker)
    await refusal(e.execute('compare.run', { a: { targetId: id }, b: { targetId: 'demo:prompts' } }))
    await refusal(e.execute('compare.run', { a: { targetId: 'demo:prompts' }, b: { targetId: id } }))
    await e.execute('recordings.list', {})
    await refusal(e.execute('replay.start', { recording: 'media-buying', targetIds: [id] }))
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(existsSync(marker)).toBe(false)

    // Granting approves exactly what was asked; then it runs.
    await e.execute('approvals.grant', { fingerprint: asked.fingerprint })
    await e.execute('connections.open', { targetId: id })
    await expect.poll(() => existsSync(marker), { timeout: 10_000 }).toBe(true)
  })

  it('an approval that was never asked for cannot be granted', async () => {
    const e = start()
    await expect(e.execute('approvals.grant', { fingerprint: 'a'.repeat(64) })).rejects.toThrow(/nothing is waiting for this approval/)
  })

  it('binds approval to the exact command: a re-import under the same name with other arguments or environment asks again and says what changed', async () => {
    const e = start()
    const marker = join(dir, 'ran')
    const first = (await e.execute('targets.import', {
      text: configRunning(marker, { env: { MODE: 'safe', OPENAI_KEY: 'sk-first-secret' } }),
    })) as { imported: SavedTarget[] }
    const asked = await refusal(e.execute('connections.open', { targetId: first.imported[0].id }))
    expect(asked.command!.env).toEqual({ MODE: 'safe', OPENAI_KEY: '[redacted]' })
    await e.execute('approvals.grant', { fingerprint: asked.fingerprint })

    const again = (await e.execute('targets.import', {
      text: configRunning(marker, { args: ['--evil'], env: { MODE: 'unsafe', OPENAI_KEY: 'sk-first-secret' } }),
    })) as { imported: SavedTarget[] }
    expect(again.imported[0].id).toBe(first.imported[0].id) // same name, same target: replaced silently before
    const changed = await refusal(e.execute('connections.open', { targetId: again.imported[0].id }))
    expect(changed.fingerprint).not.toBe(asked.fingerprint)
    expect(changed.previouslyApprovedAt).toBeGreaterThan(0)
    expect(changed.changes).toEqual(
      expect.arrayContaining([expect.stringMatching(/^arguments added: "--evil"/), 'environment: MODE changed']),
    )
    expect(changed.changes!.join(' ')).not.toMatch(/OPENAI_KEY/)
    expect(existsSync(marker)).toBe(false)
  })

  it('remembers approvals across restarts in a private file that holds no secret', async () => {
    const e = start()
    const marker = join(dir, 'ran')
    const { imported } = (await e.execute('targets.import', {
      text: configRunning(marker, { env: { GITHUB_PAT: 'ghp_supersecretvalue' } }),
    })) as { imported: SavedTarget[] }
    await e.execute('approvals.grant', {
      fingerprint: (await refusal(e.execute('connections.open', { targetId: imported[0].id }))).fingerprint,
    })
    await e.dispose()
    const file = join(dir, 'data', 'approvals.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(readFileSync(file, 'utf8')).not.toContain('ghp_supersecretvalue')

    engine = new Engine({
      host: 'web',
      builtIns: builtInDemos(),
      dataDir: join(dir, 'data'),
      defaults: { keepaliveIntervalMs: 60_000, reconnectAttempts: 0 },
    })
    await engine.execute('connections.open', { targetId: imported[0].id })
    await expect.poll(() => existsSync(marker), { timeout: 10_000 }).toBe(true)
    expect(((await engine.execute('approvals.list', {})) as { subject: string }[]).map((a) => a.subject)).toEqual([
      `command:${imported[0].id}`,
    ])
  })

  it('a target the user saves from the editor with approve: true runs; the same target saved by anyone else without it does not', async () => {
    const e = start()
    const marker = join(dir, 'ran')
    const spec = {
      kind: 'mcp-stdio' as const,
      command: process.execPath,
      args: ['-e', "require('fs').writeFileSync(process.argv[1], 'ran')", marker],
    }
    const plain = (await e.execute('targets.save', { name: 'typed', spec })) as SavedTarget
    await refusal(e.execute('connections.open', { targetId: plain.id }))
    const approved = (await e.execute('targets.save', { id: plain.id, name: 'typed', spec, approve: true })) as SavedTarget
    await e.execute('connections.open', { targetId: approved.id })
    await expect.poll(() => existsSync(marker), { timeout: 10_000 }).toBe(true)
  })
})

describe('hooks modules run only with approval of their exact content', () => {
  it('asks with the path and content hash, loads once approved, and asks again when the file changes; declarative files need none', async () => {
    const e = start()
    const recorder = new EventRecorder(e)
    const { connectionId } = (await e.execute('connections.open', { targetId: 'demo:tools' })) as { connectionId: string }
    await recorder.waitFor((ev) => ev.type === 'connection' && ev.connectionId === connectionId && ev.state === 'connected', 20_000)
    const marker = join(dir, 'hook-ran')
    const file = join(dir, 'hooks.mjs')
    writeFileSync(
      file,
      `import { writeFileSync } from 'node:fs'\nwriteFileSync(${JSON.stringify(marker)}, 'loaded')\nexport const get_products = (_t, a) => a\n`,
    )

    const asked = await refusal(e.execute('hooks.load', { connectionId, path: file }))
    expect(asked).toMatchObject({ kind: 'hooks', hooks: { path: file } })
    expect(asked.hooks!.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(existsSync(marker)).toBe(false) // the module never ran
    await e.execute('approvals.grant', { fingerprint: asked.fingerprint })
    expect(await e.execute('hooks.load', { connectionId, path: file })).toMatchObject({ kind: 'module', tools: ['get_products'] })
    expect(existsSync(marker)).toBe(true)

    writeFileSync(file, `export const get_products = (_t, a) => ({ ...a, changed: true })\n`)
    const changed = await refusal(e.execute('hooks.load', { connectionId, path: file }))
    expect(changed.changes).toEqual([expect.stringMatching(/^content changed: sha256 /)])

    const declarative = join(dir, 'hooks.json')
    writeFileSync(declarative, JSON.stringify({ get_products: { defaults: { buying_mode: 'brief' } } }))
    expect(await e.execute('hooks.load', { connectionId, path: declarative })).toMatchObject({ kind: 'declarative' })
  })
})

describe('credentials go only to the origin the user configured', () => {
  async function agentPointingElsewhere(
    seen: { host: string; authorization?: string }[],
    extraInterfaces: 'foreign-only' | 'foreign-first',
  ) {
    let agent: RunningHttp | undefined = undefined
    agent = await startA2aAgent(
      slowExecutor(0),
      (card) => {
        const local = card.supportedInterfaces[0]
        const port = new URL(local.url).port
        const foreign = { ...local, url: local.url.replace(`127.0.0.1:${port}`, `localhost:${port}`) }
        return { ...card, supportedInterfaces: extraInterfaces === 'foreign-only' ? [foreign] : [foreign, local] }
      },
      (req) => seen.push({ host: req.headers.host ?? '', authorization: req.headers.authorization }),
    )
    cleanups.push(() => agent!.close())
    return agent
  }

  it('refuses an interface on another origin until the user allows it, and sends it nothing before', async () => {
    const seen: { host: string; authorization?: string }[] = []
    const agent = await agentPointingElsewhere(seen, 'foreign-only')
    const e = start()
    const recorder = new EventRecorder(e)
    const target = (await e.execute('targets.save', {
      name: 'elsewhere',
      spec: { kind: 'a2a', url: agent.url, headers: { Authorization: 'Bearer only-for-127' } },
    })) as SavedTarget
    const { connectionId } = (await e.execute('connections.open', { targetId: target.id })) as { connectionId: string }
    const failed = await recorder.waitFor((ev) => ev.type === 'connection' && ev.connectionId === connectionId && ev.state === 'failed')
    const foreign = agent.url.replace('127.0.0.1', 'localhost')
    expect(failed.type === 'connection' && failed.approval).toMatchObject({
      kind: 'origin',
      origin: { configured: agent.url, requested: foreign },
    })
    const handshake = recorder.of('handshake', connectionId)[0]
    expect(handshake.protocol === 'a2a' && handshake.chosenInterface?.url).toMatch(/^http:\/\/localhost:/)
    expect(seen.length).toBeGreaterThan(0)
    expect(seen.filter((r) => r.host.startsWith('localhost'))).toEqual([]) // not one request went there

    // Compare and replay carry the same request for the host to confirm.
    await refusal(e.execute('compare.run', { a: { targetId: target.id }, b: { targetId: 'demo:prompts' } }))

    const approval = failed.type === 'connection' ? failed.approval! : undefined
    await e.execute('approvals.grant', { fingerprint: approval!.fingerprint })
    const again = (await e.execute('connections.open', { targetId: target.id })) as { connectionId: string }
    await recorder.waitFor((ev) => ev.type === 'connection' && ev.connectionId === again.connectionId && ev.state === 'connected')
    await e.execute('conversation.send', { connectionId: again.connectionId, turn: { text: 'hello' } })
    expect(seen.filter((r) => r.host.startsWith('localhost')).map((r) => r.authorization)).toContain('Bearer only-for-127')
  })

  it('prefers an interface on the configured origin, and the card view names the one actually used', async () => {
    const seen: { host: string; authorization?: string }[] = []
    const agent = await agentPointingElsewhere(seen, 'foreign-first')
    const e = start()
    const recorder = new EventRecorder(e)
    const target = (await e.execute('targets.save', {
      name: 'two interfaces',
      spec: { kind: 'a2a', url: agent.url, headers: { Authorization: 'Bearer only-for-127' } },
    })) as SavedTarget
    const { connectionId } = (await e.execute('connections.open', { targetId: target.id })) as { connectionId: string }
    await recorder.waitFor((ev) => ev.type === 'connection' && ev.connectionId === connectionId && ev.state === 'connected')
    const handshake = recorder.of('handshake', connectionId)[0]
    expect(handshake.protocol === 'a2a' && handshake.chosenInterface?.url).toBe(`${agent.url}/a2a/jsonrpc`)
    await e.execute('conversation.send', { connectionId, turn: { text: 'hello' } })
    const message = seen.find((r) => r.host.startsWith('127.0.0.1') && r.authorization)
    expect(message?.authorization).toBe('Bearer only-for-127')
    expect(seen.filter((r) => r.host.startsWith('localhost'))).toEqual([])
  })
})
