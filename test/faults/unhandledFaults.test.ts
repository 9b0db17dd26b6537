import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { ConnectionOptions } from '../../shared/contract'
import { cliRunner } from '../fixtures/cli'
import { fixtureTarget } from '../fixtures/targets'
import { openApproved, openApprovedTarget, openUiClient, UiCommandError, waitConnected, type UiClient } from '../../web/client'
import { startWebHostProcess, type RunningWebHost } from '../../web/launch'

// Faults that no code in Parallax handled — a rejection nobody awaited, an exception thrown from a timer — used to
// end the whole `parallax web` process, every connection, recording and UI with it. Here they happen under the
// real web host with a UI client attached: the connection whose work faulted fails, saying why, and the host,
// the UI and every other connection go on.

let host: RunningWebHost | undefined
let ui: UiClient
const dir = mkdtempSync(join(tmpdir(), 'parallax-faults-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

afterEach(async () => {
  await ui?.close()
  await host?.stop()
  host = undefined
})

async function attach(): Promise<void> {
  host = await startWebHostProcess()
  ui = await openUiClient(host)
}

async function openTaskTools(options: Partial<ConnectionOptions>): Promise<string> {
  const { origin: _origin, id: _id, ...draft } = fixtureTarget('taskTools', [], options)
  const { connectionId } = await openApprovedTarget(ui, { ...draft, name: 'task tools' })
  await waitConnected(ui, connectionId)
  return connectionId
}

/** Loads a hooks module on a connection, approving its content as the user would in the dialog. */
async function loadHooks(connectionId: string, path: string): Promise<void> {
  try {
    await ui.invoke('hooks.load', { connectionId, path })
  } catch (error) {
    if (!(error instanceof UiCommandError) || error.code !== 'approval-required') throw error
    const { approval } = error.details as { approval: { fingerprint: string } }
    await ui.invoke('approvals.grant', { fingerprint: approval.fingerprint })
    await ui.invoke('hooks.load', { connectionId, path })
  }
}

async function hostServes(connectionIds: string[]): Promise<void> {
  expect(host!.alive()).toBe(true)
  expect(ui.isOpen).toBe(true)
  expect((await ui.invoke('app.info', {})).name).toBe('Parallax')
  for (const connectionId of connectionIds) {
    const report = await ui.invoke('tools.call', {
      connectionId,
      tool: 'get_products',
      arguments: { buying_mode: 'brief', brief: 'podcast' },
    })
    expect(report.error, connectionId).toBeUndefined()
  }
}

describe('faults nobody handled, under the real web host with a UI attached', () => {
  it('an MCP task whose tasks/result is not answered within the request timeout: followed on, its result fetched', async () => {
    await attach()
    const connectionId = await openTaskTools({ requestTimeoutMs: 1_000 })
    const report = await ui.invoke('tools.call', { connectionId, tool: 'needs_input', arguments: { finishAfterMs: 2_500 }, task: true })
    expect(report.error).toBeUndefined()
    expect(JSON.stringify(report.response)).toContain('Budget settled: 5000')
    // tasks/result was asked while the task waited for input, got no answer in time, and was asked again.
    const asked = ui.of('frame', connectionId).filter((f) => f.direction === 'out' && f.method === 'tasks/result')
    expect(asked.length).toBeGreaterThanOrEqual(2)
    expect(ui.of('connection', connectionId).at(-1)?.state).toBe('connected')
    await hostServes([connectionId])
  }, 30_000)

  it('an MCP task that never ends: followed until the task deadline, then Parallax stops and says so', async () => {
    await attach()
    const connectionId = await openTaskTools({ taskDeadlineMs: 1_500 })
    const started = Date.now()
    const report = await ui.invoke('tools.call', { connectionId, tool: 'slow_report', arguments: { topic: 'tides' }, task: true })
    expect(Date.now() - started).toBeLessThan(6_000)
    expect(report.error).toMatch(/^Parallax stopped following task \S+ after 1\.5 s \(the target's task deadline\); it was still working/)
    const last = ui.of('conversation', connectionId).at(-1)!.message
    expect(last).toMatchObject({ role: 'agent', content: report.error, metadata: { kind: 'error', turn: 1, asTask: true } })
    expect(ui.of('connection', connectionId).at(-1)?.state).toBe('connected')
  }, 30_000)

  it.each([
    ['MCP', 'demo:tools'],
    ['A2A', 'demo:a2a'],
    ['ACP', 'demo:acp'],
  ])(
    'a rejection and an exception left behind in a %s connection fail that connection alone',
    async (_protocol, targetId) => {
      await attach()
      const faulty = await openApproved(ui, targetId)
      await waitConnected(ui, faulty)
      const sibling = await openApproved(ui, 'demo:prompts')
      const neighbour = await openApproved(ui, 'demo:tools' === targetId ? 'demo:a2a' : 'demo:tools')
      await Promise.all([waitConnected(ui, sibling), waitConnected(ui, neighbour)])
      // A hook that leaves work behind: a promise rejected with no one to catch it, and an exception from a timer.
      const hooks = join(dir, `stray-${targetId.replace(/\W/g, '-')}.mjs`)
      writeFileSync(
        hooks,
        `export function get_products(_tool, args) {
        setTimeout(() => { Promise.reject(new Error('stray rejection')) }, 20)
        setTimeout(() => { throw new Error('thrown from a timer') }, 40)
        return args
      }\n`,
      )
      await loadHooks(faulty, hooks)
      await ui.invoke('tools.call', { connectionId: faulty, tool: 'get_products', arguments: { buying_mode: 'brief', brief: 'podcast' } })

      const failed = await ui.waitFor((e) => e.type === 'connection' && e.connectionId === faulty && e.state === 'failed', 10_000)
      expect(failed.type === 'connection' && failed.reason).toBe(
        'Parallax stopped this connection after an unhandled rejection: stray rejection',
      )
      expect(failed.type === 'connection' && failed.cause?.fault).toMatchObject({ kind: 'unhandled rejection' })
      expect(ui.of('log', faulty).some((l) => l.level === 'error' && /unhandled rejection: stray rejection/.test(l.text))).toBe(true)
      // The exception that followed found the connection already failed: it changed nothing else.
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(host!.stderr()).toMatch(/uncaught exception: thrown from a timer/)

      await hostServes([neighbour])
      expect(await ui.invoke('connections.probe', { connectionId: sibling })).toEqual({ ok: true })
      // The user can connect again, once rid of the faulty hooks (a target's hooks outlive its connections): a new session works.
      await ui.invoke('hooks.clear', { connectionId: faulty })
      const { connectionId: again } = await ui.invoke('connections.reconnect', { connectionId: faulty })
      await waitConnected(ui, again)
      await hostServes([again])
    },
    60_000,
  )

  it('in a one-shot CLI command: the faulty connection fails, said on stderr, one JSON object on stdout, no stack dump', async () => {
    const hooks = join(dir, 'stray-cli.mjs')
    writeFileSync(hooks, `export function get_products(_tool, args) {\n  Promise.reject(new Error('stray rejection'))\n  return args\n}\n`)
    const parallax = cliRunner(join(dir, 'cli-data'))
    const run = await parallax(
      'call',
      'demo:tools',
      'get_products',
      '--args',
      '{"buying_mode":"brief","brief":"podcast"}',
      '--hooks',
      hooks,
      '--yes',
      '--json',
    )
    const out = JSON.parse(run.stdout) as { format: string; error?: string }
    expect(out.format).toBe('parallax.call/1')
    // The fault is reported as it is processed: before the answer came (the call then failed: exit 1) or after (exit 0).
    expect(run.code).toBe(out.error ? 1 : 0)
    expect(run.stderr).toMatch(/demo:tools#1 \(Demo media-sales agent\) failed after an unhandled rejection: stray rejection/)
    expect(run.stderr).not.toMatch(/at .*node:internal/)
  }, 30_000)
})
