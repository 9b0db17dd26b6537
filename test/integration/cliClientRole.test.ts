// The CLI plays the whole client against @modelcontextprotocol/server-everything, as a script would: a file
// of canned sampling replies, a fixed elicitation answer, roots, and the profile that decides what the
// server offers. Its tools are always called with arguments of our own (one tool's default is an internet URL).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { cliRunner, type CliRun } from '../fixtures/cli'

const require = createRequire(import.meta.url)
const EVERYTHING = `stdio:${process.execPath} ${join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js')} stdio`
const dir = mkdtempSync(join(tmpdir(), 'parallax-cli-client-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const parallax = cliRunner(join(dir, 'data'))

interface CallObject {
  format: string
  response?: { content?: { type: string; text?: string }[] }
  serverRequests: { method: string; state: string; by?: string; source?: string; result?: unknown }[]
}

async function callJson(...args: string[]): Promise<{ run: CliRun; object: CallObject; text: string }> {
  const run = await parallax('call', EVERYTHING, ...args, '--json')
  const object = JSON.parse(run.stdout) as CallObject
  const text = (object.response?.content ?? []).map((c) => c.text ?? '').join('\n')
  return { run, object, text }
}

it('answers sampling from a file of canned replies, the one whose match fits the request', async () => {
  const replies = join(dir, 'replies.json')
  writeFileSync(
    replies,
    JSON.stringify({ sampling: [{ match: 'haiku', text: 'Frames drift on the wire', model: 'canned-haiku' }, { text: 'Anything else' }] }),
  )
  const { run, object, text } = await callJson(
    'trigger-sampling-request',
    '--args',
    '{"prompt": "Write a haiku about ports", "maxTokens": 20}',
    '--sampling',
    replies,
  )
  expect(run.code, run.stderr).toBe(0)
  expect(text).toContain('Frames drift on the wire')
  expect(object.serverRequests).toContainEqual(
    expect.objectContaining({ method: 'sampling/createMessage', state: 'answered', by: 'script', source: replies }),
  )

  // Without --json the same answer is said on stderr as it happens.
  const plain = await parallax(
    'call',
    EVERYTHING,
    'trigger-sampling-request',
    '--args',
    '{"prompt": "hello", "maxTokens": 5}',
    '--sampling',
    replies,
  )
  expect(plain.code, plain.stderr).toBe(0)
  expect(plain.stderr).toContain(`server asked sampling/createMessage: answered by ${replies}`)
  expect(plain.stdout).toContain('Anything else')
})

it('without a responder the CLI refuses sampling: the tool call fails and says why', async () => {
  const { run, object } = await callJson('trigger-sampling-request', '--args', '{"prompt": "hi", "maxTokens": 5}')
  expect(run.code).toBe(1)
  expect(object.serverRequests).toContainEqual(expect.objectContaining({ method: 'sampling/createMessage', state: 'failed' }))
})

it('--elicit accept --elicit-content sends what was given, over the form’s defaults; decline says so', async () => {
  const accepted = await callJson(
    'trigger-elicitation-request',
    '--args',
    '{}',
    '--elicit',
    'accept',
    '--elicit-content',
    '{"name": "Ada"}',
  )
  expect(accepted.run.code, accepted.run.stderr).toBe(0)
  expect(accepted.text).toContain('User provided the requested information')
  expect(accepted.text).toContain('Ada')
  // The schema's defaults fill what was not given (SEP-1034).
  expect(accepted.text).toContain('It was a dark and stormy night.')
  expect(accepted.object.serverRequests).toContainEqual(
    expect.objectContaining({ method: 'elicitation/create', state: 'answered', source: '--elicit accept' }),
  )

  const declined = await callJson('trigger-elicitation-request', '--args', '{}', '--elicit', 'decline')
  expect(declined.text).toContain('declined')
})

it('--roots are what the server is told: a path becomes a file:// URI', async () => {
  const { run, text } = await callJson('get-roots-list', '--args', '{}', '--roots', 'file:///work/project', '--roots', dir)
  expect(run.code, run.stderr).toBe(0)
  expect(text).toContain('URI: file:///work/project')
  expect(text).toContain(`URI: file://${dir}`)
})

it('--profile minimal offers nothing, so the server hides its sampling tool; a bad flag is a usage mistake', async () => {
  const hidden = await parallax(
    'call',
    EVERYTHING,
    'trigger-sampling-request',
    '--args',
    '{"prompt": "hi", "maxTokens": 5}',
    '--profile',
    'minimal',
    '--json',
  )
  expect(hidden.code).toBe(1)
  expect(hidden.stdout).toMatch(/trigger-sampling-request/)

  const bad = await parallax('call', EVERYTHING, 'echo', '--args', '{"message": "x"}', '--elicit', 'maybe', '--json')
  expect(bad.code).toBe(2)
  expect(JSON.parse(bad.stdout)).toMatchObject({ error: { kind: 'usage', message: expect.stringContaining('--elicit is one of') } })
})

it('request plays the client too: an elicitation behind a tools/call sent as a raw request is answered by --elicit', async () => {
  const run = await parallax(
    'request',
    EVERYTHING,
    'tools/call',
    '--params',
    '{"name": "trigger-elicitation-request", "arguments": {}}',
    '--elicit',
    'cancel',
    '--json',
  )
  expect(run.code, run.stderr).toBe(0)
  const object = JSON.parse(run.stdout) as { result: unknown; serverRequests: CallObject['serverRequests'] }
  expect(JSON.stringify(object.result)).toMatch(/cancel/i)
  expect(object.serverRequests).toContainEqual(expect.objectContaining({ method: 'elicitation/create', source: '--elicit cancel' }))
})
