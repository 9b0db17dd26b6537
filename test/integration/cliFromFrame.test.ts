// `parallax request --from-frame`: a request a recording holds, sent again against the demo tool server, the
// way a script would see it (exit code, the one JSON object on stdout, what stderr says).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FrameEvent } from '../../shared/contract'
import { cliRunner, type CliRun } from '../fixtures/cli'

const dir = mkdtempSync(join(tmpdir(), 'parallax-from-frame-'))
const library = join(dir, 'data', 'recordings')
const recording = join(library, 'buying.jsonl')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const parallax = cliRunner(join(dir, 'data'))

function oneObject(run: CliRun): Record<string, unknown> {
  const lines = run.stdout.trim().split('\n')
  expect(lines, run.stdout + run.stderr).toHaveLength(1)
  return JSON.parse(lines[0]) as Record<string, unknown>
}

let toolCall: FrameEvent
beforeAll(async () => {
  mkdirSync(library, { recursive: true })
  const run = await parallax(
    'record',
    'demo:tools',
    '--turn',
    '{"tool":"get_products","arguments":{"buying_mode":"brief","brief":"podcast"}}',
    '--out',
    recording,
  )
  expect(run.code, run.stderr).toBe(0)
  const frames = readFileSync(recording, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line) as FrameEvent)
    .filter((e) => e.type === 'frame')
  toolCall = frames.find((f) => f.direction === 'out' && f.method === 'tools/call')!
  expect(toolCall).toBeDefined()
}, 60_000)

describe('parallax request --from-frame', () => {
  it('a recorded tool call asks first: without a terminal or --yes nothing is sent, and it says how to send it', async () => {
    const run = await parallax('request', 'demo:tools', '--from-frame', `${recording}#${toolCall.seq}`, '--json')
    expect(run.code).toBe(2)
    expect(oneObject(run).error).toMatchObject({ message: expect.stringMatching(/not sent: tools\/call get_products .* --yes/) })
  })

  it('sends the recorded call again with --yes: the frame’s method and params', async () => {
    const run = await parallax('request', 'demo:tools', '--from-frame', `${recording}#${toolCall.seq}`, '--yes', '--json')
    expect(run.code, run.stderr).toBe(0)
    const object = oneObject(run)
    expect(object).toMatchObject({
      method: 'tools/call',
      outcome: 'result',
      params: { name: 'get_products', arguments: { buying_mode: 'brief', brief: 'podcast' } },
    })
    expect(JSON.stringify(object.result)).toContain('prod_podcast_audio')
  })

  it('--params replaces the frame’s params; a recording in the library is named by its name alone', async () => {
    const run = await parallax(
      'request',
      'demo:tools',
      '--from-frame',
      `buying#${toolCall.seq}`,
      '--params',
      '{"name": "list_creative_formats", "arguments": {"name_search": "connected tv"}}',
      '--yes',
      '--json',
    )
    expect(run.code, run.stderr).toBe(0)
    expect(JSON.stringify(oneObject(run).result)).toContain('ctv_30s')
  })

  it('a frame that is no request is refused with the requests the recording holds', async () => {
    const answer = toolCall.seq + 1
    const run = await parallax('request', 'demo:tools', '--from-frame', `${recording}#${answer}`, '--json')
    expect(run.code).toBe(2)
    const message = String((oneObject(run).error as { message: string }).message)
    expect(message).toMatch(/cannot be sent again|not a frame|no event/)
    expect(message).toContain(`#${toolCall.seq} tools/call get_products`)
  })

  it('a file holding one request (as Frames copies it) is sent as it is; a read asks nothing', async () => {
    const file = join(dir, 'prompt.json')
    writeFileSync(
      file,
      JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'prompts/get', params: { name: 'media_brief', arguments: { product: 'a kettle' } } }),
    )
    const run = await parallax('request', 'demo:prompts', '--from-frame', file, '--json')
    expect(run.code, run.stderr).toBe(0)
    expect(JSON.stringify(oneObject(run).result)).toContain('a kettle')
  })
})
