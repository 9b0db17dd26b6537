import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openApproved, openApprovedTarget, openUiClient, waitConnected, type UiClient } from '../../web/client'
import { startWebHostProcess, type RunningWebHost } from '../../web/launch'
import { CLI } from '../fixtures/cli'
import { childProcesses, isRunning } from '../fixtures/processes'
import { fixtureTarget } from '../fixtures/targets'

// A Parallax killed with SIGKILL leaves nothing behind. What it started dies with it: `kill -9` of `parallax
// web` or of a CLI command leaves no stdio server running (a stubborn one included, and what that one
// started), within a few hundred ms. What a Parallax process left in the temporary folder goes at the next start.

const require = createRequire(import.meta.url)
const EVERYTHING = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js')
/** How soon every child must be gone after the host is killed. */
const GONE_WITHIN_MS = 500

let host: RunningWebHost | undefined
let ui: UiClient | undefined
const leftovers: number[] = []
afterEach(async () => {
  await ui?.close()
  await host?.stop()
  host = ui = undefined
  for (const pid of leftovers.splice(0)) if (isRunning(pid)) process.kill(pid, 'SIGKILL')
})

/** Kills `pid` with SIGKILL and says how long until none of `children` is running, and when each went (at most 5 s). */
async function killAndTimeChildren(pid: number, children: number[]): Promise<{ goneAfterMs: number; running: number[]; each: string }> {
  leftovers.push(...children)
  process.kill(pid, 'SIGKILL')
  const killedAt = performance.now()
  const gone = new Map<number, number>()
  while (gone.size < children.length && performance.now() - killedAt < 5_000) {
    for (const child of children) if (!gone.has(child) && !isRunning(child)) gone.set(child, Math.round(performance.now() - killedAt))
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const each = children.map((child) => `${child}: ${gone.get(child) ?? 'still running'}`).join(', ')
  return { goneAfterMs: Math.round(performance.now() - killedAt), running: children.filter(isRunning), each }
}

/** The process a stubborn fixture started, once it has. */
async function grandchildOf(stubborn: number): Promise<number> {
  for (;;) {
    const [grandchild] = childProcesses(stubborn, /setInterval/)
    if (grandchild) return grandchild
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('a Parallax killed with SIGKILL', () => {
  it('kill -9 of parallax web: its stdio servers (a demo, server-everything, one that ignores EOF and SIGTERM, and its own child) and ACP agent are gone at once', async () => {
    host = await startWebHostProcess()
    ui = await openUiClient(host)
    const demo = await openApproved(ui, 'demo:tools')
    const agent = await openApproved(ui, 'demo:acp')
    const everything = (
      await openApprovedTarget(ui, {
        name: 'server-everything',
        spec: { kind: 'mcp-stdio', command: process.execPath, args: [EVERYTHING, 'stdio'], env: {} },
      })
    ).connectionId
    const { origin: _origin, id: _id, ...stubbornDraft } = fixtureTarget('stubborn', ['grandchild'])
    const stubborn = (await openApprovedTarget(ui, stubbornDraft)).connectionId
    for (const connectionId of [demo, agent, everything, stubborn]) await waitConnected(ui, connectionId)
    const children = childProcesses(host.pid, /stdio|stubborn/)
    expect(children).toHaveLength(4)
    const grandchild = await grandchildOf(childProcesses(host.pid, /stubborn/)[0])

    const { goneAfterMs, running, each } = await killAndTimeChildren(host.pid, [...children, grandchild])
    console.log(`parallax web killed: its ${children.length + 1} processes were gone after ${goneAfterMs} ms (${each})`)
    expect(running).toEqual([])
    expect(goneAfterMs).toBeLessThan(GONE_WITHIN_MS)
  }, 60_000)

  it('kill -9 of a CLI command: the server it inspects (stubborn, with its own child) is gone at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parallax-children-'))
    try {
      const target = fixtureTarget('stubborn', ['grandchild']).spec as { command: string; args: string[] }
      const cli = spawn(
        process.execPath,
        [CLI, 'inspect', `stdio:${[target.command, ...target.args].join(' ')}`, '--probes', '1000', '--interval', '100'],
        { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PARALLAX_DATA_DIR: dir } },
      )
      let stderr = ''
      cli.stderr.on('data', (chunk) => (stderr += chunk))
      // The server is running, and has started its own child.
      let server: number | undefined
      while (!(server = childProcesses(cli.pid!, /stubborn/)[0]) && cli.exitCode === null)
        await new Promise((resolve) => setTimeout(resolve, 20))
      expect(server, stderr).toBeDefined()
      const children = [server!, await grandchildOf(server!)]

      const { goneAfterMs, running, each } = await killAndTimeChildren(cli.pid!, children)
      console.log(`parallax inspect killed: its ${children.length} processes were gone after ${goneAfterMs} ms (${each})`)
      expect(running).toEqual([])
      expect(goneAfterMs).toBeLessThan(GONE_WITHIN_MS)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  it('keeps oversized frames in its data folder, not the temporary one; a start removes what dead Parallax processes left there', async () => {
    const temp = mkdtempSync(join(tmpdir(), 'parallax-tmp-'))
    try {
      host = await startWebHostProcess({ env: { TMPDIR: temp } })
      ui = await openUiClient(host)
      // server-everything's tools/list answer is over 1 KB: with frames kept up to 1 KB, it is kept aside whole.
      const { connectionId } = await openApprovedTarget(ui, {
        name: 'server-everything',
        spec: { kind: 'mcp-stdio', command: process.execPath, args: [EVERYTHING, 'stdio'], env: {} },
        options: { maxFrameBytes: 1024 },
      })
      await waitConnected(ui, connectionId)
      const big = await ui.waitFor((e) => e.type === 'frame' && e.connectionId === connectionId && e.truncated?.file !== undefined)
      expect(big.type === 'frame' && big.truncated?.file).toMatch(/^payloads\.bin#/) // in its session, in the data folder
      expect(readdirSync(temp).filter((name) => name.includes(`-${host!.pid}-`))).toEqual([])
      // Folders of this test's own process: as its own start names them (kept), and with another start (a reused pid:
      // removed) — frame files of older versions, and an engine's temporary sessions.
      const stat = readFileSync('/proc/self/stat', 'utf8')
      const started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
      const running = `parallax-sessions-${process.pid}-${started}-Abc123`
      const leftovers = [`parallax-frames-${process.pid}-1-Abc123`, `parallax-sessions-${process.pid}-1-Xyz789`]
      for (const name of [running, ...leftovers]) mkdirSync(join(temp, name))

      await ui.close()
      await killAndTimeChildren(host.pid, [])
      host = await startWebHostProcess({ env: { TMPDIR: temp } })
      const since = performance.now()
      while (leftovers.some((name) => readdirSync(temp).includes(name)) && performance.now() - since < 5_000)
        await new Promise((resolve) => setTimeout(resolve, 20))
      expect(readdirSync(temp).filter((name) => name.startsWith('parallax-'))).toEqual([running])
    } finally {
      rmSync(temp, { recursive: true, force: true })
    }
  }, 60_000)
})
