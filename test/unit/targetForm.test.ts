import { describe, expect, it } from 'vitest'
import { DEFAULT_CONNECTION_OPTIONS, type SavedTarget } from '../../shared/contract'
import { draftOf, formOf } from '../../renderer/src/shell/targetEditor/targetForm'

// The target editor's fields and the draft they save: a target opened in the editor and saved unchanged is
// saved as it was, whatever its kind; what the user must fix is said before anything is saved.
const saved = (fields: Pick<SavedTarget, 'spec'> & Partial<SavedTarget>): SavedTarget => ({
  id: 't1',
  name: 'a target',
  origin: 'user',
  options: { keepaliveIntervalMs: 5000, requestTimeoutMs: 20_000, taskDeadlineMs: 120_000 },
  ...fields,
})
const unchanged = (target: SavedTarget) => draftOf(formOf(target, DEFAULT_CONNECTION_OPTIONS), target)

describe('the target editor form', () => {
  it('saves each kind of target as it was opened', () => {
    const stdio = saved({
      spec: { kind: 'mcp-stdio', command: 'node', args: ['server.js', 'two words'], env: { A: '1' }, cwd: '/srv' },
      profile: 'minimal',
      roots: [{ uri: 'file:///work', name: 'my work' }, { uri: 'file:///tmp' }],
      responder: { file: 'answers.json' },
    })
    expect(unchanged(stdio)).toEqual({
      id: 't1',
      name: 'a target',
      options: stdio.options,
      spec: stdio.spec,
      profile: 'minimal',
      roots: stdio.roots,
      responder: stdio.responder,
    })

    const http = saved({
      spec: { kind: 'mcp-http', url: 'http://127.0.0.1:3001/mcp', headers: { 'X-Key': 'k' }, transport: 'sse', oauth: { clientId: 'c' } },
    })
    expect(unchanged(http)).toEqual({
      id: 't1',
      name: 'a target',
      options: http.options,
      spec: http.spec,
      profile: undefined,
      roots: undefined,
      responder: undefined,
    })

    const a2a = saved({ spec: { kind: 'a2a', url: 'http://127.0.0.1:4000', headers: {}, binding: 'GRPC' } })
    expect(unchanged(a2a)).toEqual({ id: 't1', name: 'a target', options: a2a.options, spec: { ...a2a.spec, oauth: undefined } })

    const acp = saved({
      spec: { kind: 'acp', command: 'agent', args: ['--acp'], env: {}, workspace: '/work', mcpServers: ['t2'] },
      responder: { permission: 'allow' },
    })
    expect(unchanged(acp)).toEqual({
      id: 't1',
      name: 'a target',
      options: acp.options,
      profile: undefined,
      responder: { permission: 'allow' },
      spec: { ...acp.spec, cwd: undefined },
    })
  })

  it('starts a new target from the engine defaults, named after its command when left unnamed', () => {
    const form = formOf(undefined, { ...DEFAULT_CONNECTION_OPTIONS, keepaliveIntervalMs: 2500 })
    expect(form).toMatchObject({ kind: 'mcp-stdio', interval: '2.5', timeout: '30', taskDeadline: '10', profile: 'default' })
    const draft = draftOf({ ...form, commandLine: 'npx -y server' }, undefined)
    expect(draft).toMatchObject({ name: 'npx', spec: { kind: 'mcp-stdio', command: 'npx', args: ['-y', 'server'] } })
    expect(draft.options).toEqual({ keepaliveIntervalMs: 2500, requestTimeoutMs: 30_000, taskDeadlineMs: 600_000 })
  })

  it('says what to fix: the options first, then the fields of the kind, then the client role', () => {
    const form = formOf(undefined, DEFAULT_CONNECTION_OPTIONS)
    expect(() => draftOf({ ...form, interval: '0', commandLine: '' }, undefined)).toThrow('keepalive interval must be at least 0.1 seconds')
    expect(() => draftOf({ ...form, taskDeadline: '2000' }, undefined)).toThrow('task deadline must be from 1 second')
    expect(() => draftOf(form, undefined)).toThrow('enter the command that starts the server')
    expect(() => draftOf({ ...form, kind: 'acp' }, undefined)).toThrow('enter the command that starts the agent in ACP mode')
    expect(() => draftOf({ ...form, commandLine: 'x', env: 'NOVALUE' }, undefined)).toThrow('environment, line 1: expected NAME=value')
    expect(() => draftOf({ ...form, kind: 'a2a', headers: 'a\nb: c' }, undefined)).toThrow('headers, line 1: expected NAME:value')
    expect(() => draftOf({ ...form, commandLine: 'x', roots: 'file:///a\n/b' }, undefined)).toThrow(
      'roots, line 2: a root is a file:// URI',
    )
  })
})
