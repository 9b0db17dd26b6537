import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Workspace } from '../../shared/acp/workspace'

let root: string
let outside: string
beforeEach(async () => {
  const base = await mkdtemp(join(tmpdir(), 'parallax-ws-'))
  root = join(base, 'workspace')
  outside = join(base, 'outside')
  await mkdir(root)
  await mkdir(outside)
  await writeFile(join(outside, 'secret.txt'), 'not yours\n')
})
afterEach(async () => rm(join(root, '..'), { recursive: true, force: true }))

describe('an ACP agent’s files stay in the workspace folder', () => {
  it('reads and writes inside it, creating folders as needed, and reads a range of lines', async () => {
    const ws = new Workspace(root)
    await ws.write(join(root, 'docs', 'a.md'), 'one\ntwo\nthree\n')
    expect(await readFile(join(root, 'docs', 'a.md'), 'utf8')).toBe('one\ntwo\nthree\n')
    expect(await ws.read(join(root, 'docs', 'a.md'), 2, 1)).toBe('two')
  })

  it('refuses a relative path, a path naming "..", and one outside', async () => {
    const ws = new Workspace(root)
    await expect(ws.read('docs/a.md')).rejects.toThrow(/not an absolute path/)
    await expect(ws.read(`${root}/../outside/secret.txt`)).rejects.toThrow(/names ".."/)
    await expect(ws.read(join(outside, 'secret.txt'))).rejects.toThrow(/outside the workspace/)
    await expect(ws.write(join(outside, 'new.txt'), 'x')).rejects.toThrow(/outside the workspace/)
  })

  it('follows no link out: a linked file, a linked folder, a file to be written through a linked folder', async () => {
    await symlink(join(outside, 'secret.txt'), join(root, 'link.txt'))
    await symlink(outside, join(root, 'linked'))
    const ws = new Workspace(root)
    await expect(ws.read(join(root, 'link.txt'))).rejects.toThrow(/resolves to .*outside/)
    await expect(ws.read(join(root, 'linked', 'secret.txt'))).rejects.toThrow(/outside the workspace/)
    await expect(ws.write(join(root, 'linked', 'planted.txt'), 'x')).rejects.toThrow(/outside the workspace/)
    await expect(ws.write(join(root, 'link.txt'), 'overwritten')).rejects.toThrow(/outside the workspace/)
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('not yours\n')
  })
})
