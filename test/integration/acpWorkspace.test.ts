// An ACP agent's fs/* requests never leave the workspace folder: a real agent process (test/fixtures/acp/fileAgent.ts)
// asks to write and read through links planted in the workspace — dangling, chained, to /proc — through `..`, by
// absolute paths, and while another process swaps links in and out under the same paths as fast as it can.
import { spawn, type ChildProcess } from 'node:child_process'
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AcpPromptAnswer } from '../../shared/contract'
import { builtInDemos } from '../../shared/demo/builtIns'
import { Engine } from '../../shared/engine/engine'
import { acpTarget } from '../fixtures/acp/targets'
import { approveAll } from '../fixtures/targets'

type Op = { op: 'write'; path: string; content: string } | { op: 'read'; path: string }
type Outcome = { op: string; path: string; ok: boolean; content?: string; error?: string }

let engine: Engine | undefined
let base: string
let ws: string
let outside: string
let flipper: ChildProcess | undefined

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'parallax-acp-ws-'))
  ws = join(base, 'workspace')
  outside = join(base, 'outside')
  await mkdir(ws)
  await mkdir(outside)
  await writeFile(join(outside, 'secret.txt'), 'not yours\n')
})
afterEach(async () => {
  flipper?.kill('SIGKILL')
  flipper = undefined
  await engine?.dispose()
  engine = undefined
  await rm(base, { recursive: true, force: true })
})

/** Opens the file agent on the workspace and runs one prompt: the outcome of each operation it asked for. */
async function agentAsks(ops: Op[], repeat = 1): Promise<Outcome[]> {
  engine ??= new Engine({
    host: 'cli',
    builtIns: builtInDemos(),
    approver: approveAll,
    defaults: { keepaliveIntervalMs: 3_600_000, requestTimeoutMs: 60_000 },
  })
  const { connectionId } = await engine.invoke('connections.open', { target: acpTarget('fileAgent', 'default', { workspace: ws }) })
  expect((await engine.invoke('connections.wait', { connectionId })).connected).toBe(true)
  const result = await engine.invoke('conversation.send', { connectionId, turn: { text: JSON.stringify({ ops, repeat }) } })
  return JSON.parse((result.response as AcpPromptAnswer).text) as Outcome[]
}

/** What is in the folder outside the workspace: only what the test put there. */
const outsideHolds = async () => (await readdir(outside)).sort()

describe('an ACP agent’s files stay in the workspace, links and all', () => {
  it('refuses to write through a dangling link, a chain of links, or a linked folder that leads out; nothing is created outside', async () => {
    await symlink(join(outside, 'planted.md'), join(ws, 'notes.md')) // dangling: its target does not exist yet
    await symlink(join(ws, 'hop2'), join(ws, 'hop1'))
    await symlink(join(ws, 'hop3'), join(ws, 'hop2'))
    await symlink(join(outside, 'chained.md'), join(ws, 'hop3'))
    await symlink(join(outside, 'newdir'), join(ws, 'docs')) // a folder that does not exist yet
    await symlink('../outside/relative.md', join(ws, 'relative.md'))
    await symlink(join(outside, 'secret.txt'), join(ws, 'secret-link.txt'))
    const outcomes = await agentAsks([
      { op: 'write', path: join(ws, 'notes.md'), content: 'escaped' },
      { op: 'write', path: join(ws, 'hop1'), content: 'escaped' },
      { op: 'write', path: join(ws, 'docs', 'readme.md'), content: 'escaped' },
      { op: 'write', path: join(ws, 'relative.md'), content: 'escaped' },
      { op: 'write', path: join(ws, 'secret-link.txt'), content: 'overwritten' },
    ])
    expect(outcomes.map((o) => [o.path.slice(ws.length), o.ok])).toEqual([
      ['/notes.md', false],
      ['/hop1', false],
      ['/docs/readme.md', false],
      ['/relative.md', false],
      ['/secret-link.txt', false],
    ])
    for (const o of outcomes) expect(o.error).toMatch(/outside the workspace .* \(it resolves to .*outside/)
    expect(await outsideHolds()).toEqual(['secret.txt'])
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('not yours\n')
  })

  it('follows links that stay inside: a dangling chain ending inside creates the file inside', async () => {
    await symlink(join(ws, 'b.md'), join(ws, 'a.md'))
    await symlink(join(ws, 'drafts', 'c.md'), join(ws, 'b.md'))
    const [written, read] = await agentAsks([
      { op: 'write', path: join(ws, 'a.md'), content: 'kept inside\n' },
      { op: 'read', path: join(ws, 'a.md') },
    ])
    expect(written.ok).toBe(true)
    expect(read).toMatchObject({ ok: true, content: 'kept inside\n' })
    expect(await readFile(join(ws, 'drafts', 'c.md'), 'utf8')).toBe('kept inside\n')
  })

  it('refuses "..", absolute paths outside, and /proc, however they are reached', async () => {
    await symlink('/proc/self', join(ws, 'proc'))
    await symlink('/proc/self/cwd', join(ws, 'cwd'))
    const outcomes = await agentAsks([
      { op: 'write', path: `${ws}/../outside/dotdot.md`, content: 'escaped' },
      { op: 'read', path: `${ws}/../outside/secret.txt` },
      { op: 'read', path: join(outside, 'secret.txt') },
      { op: 'write', path: join(outside, 'absolute.md'), content: 'escaped' },
      { op: 'read', path: '/proc/self/environ' },
      { op: 'read', path: join(ws, 'proc', 'environ') },
      { op: 'write', path: join(ws, 'cwd', 'planted.md'), content: 'escaped' },
      { op: 'read', path: 'relative/path.md' },
    ])
    expect(outcomes.every((o) => !o.ok)).toBe(true)
    expect(outcomes.map((o) => o.error)).toEqual([
      expect.stringMatching(/names "\.\."/),
      expect.stringMatching(/names "\.\."/),
      expect.stringMatching(/outside the workspace/),
      expect.stringMatching(/outside the workspace/),
      expect.stringMatching(/outside the workspace/),
      expect.stringMatching(/outside the workspace .*resolves to \/proc\//),
      expect.stringMatching(/outside the workspace/),
      expect.stringMatching(/not an absolute path/),
    ])
    expect(await outsideHolds()).toEqual(['secret.txt'])
  })

  it('lets no link swapped in between the check and the write lead out (a file and a folder, swapped as fast as another process can)', async () => {
    await mkdir(join(ws, 'sub'))
    // Another process, as fast as it can: the file to be written is now nothing, now a link out; the folder it
    // is written in is now a folder, now a link out.
    const script = `
      const fs = require('node:fs')
      const [file, target, folder, held, out] = process.argv.slice(1)
      const until = Date.now() + 20000
      while (Date.now() < until) {
        try { fs.unlinkSync(file) } catch {}
        try { fs.symlinkSync(target, file) } catch {}
        try { fs.renameSync(folder, held); fs.symlinkSync(out, folder) } catch {}
        try { fs.unlinkSync(folder); fs.renameSync(held, folder) } catch {}
      }`
    flipper = spawn(
      process.execPath,
      ['-e', script, join(ws, 'raced.md'), join(outside, 'raced.md'), join(ws, 'sub'), join(ws, 'sub-held'), outside],
      { stdio: 'ignore' },
    )
    // Asked once the other process is at it: the link has appeared at least once.
    for (let waited = 0; !(await lstat(join(ws, 'raced.md')).catch(() => undefined)); waited += 10) {
      if (waited > 20_000) throw new Error('the other process never swapped a link in')
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    const outcomes = await agentAsks(
      [
        { op: 'write', path: join(ws, 'raced.md'), content: 'escaped' },
        { op: 'write', path: join(ws, 'sub', 'raced-in-folder.md'), content: 'escaped' },
      ],
      150,
    )
    flipper.kill('SIGKILL')
    // The race was run: some writes landed inside, some were refused.
    expect(outcomes.filter((o) => o.ok).length).toBeGreaterThan(0)
    expect(outcomes.filter((o) => !o.ok).length).toBeGreaterThan(0)
    expect(await outsideHolds()).toEqual(['secret.txt'])
  })
})
