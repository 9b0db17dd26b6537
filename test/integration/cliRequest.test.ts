// `parallax request`, checked the way a script would: exit code, the one JSON object on stdout, what stderr
// says. Against the demo servers and @modelcontextprotocol/server-everything (its tools only with
// arguments of our own, never its schema defaults).
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { cliRunner, type CliRun } from '../fixtures/cli'
import { demoBuy } from '../fixtures/demoBuy'

const require = createRequire(import.meta.url)
const EVERYTHING = `stdio:${process.execPath} ${join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js')} stdio`
const dir = mkdtempSync(join(tmpdir(), 'parallax-cli-request-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const parallax = cliRunner(join(dir, 'data'))

function oneObject(run: CliRun): Record<string, unknown> {
  const lines = run.stdout.trim().split('\n')
  expect(lines, run.stdout + run.stderr).toHaveLength(1)
  return JSON.parse(lines[0]) as Record<string, unknown>
}

it('gets a prompt: the result on stdout, exit 0', async () => {
  const run = await parallax(
    'request',
    'demo:prompts',
    'prompts/get',
    '--params',
    '{"name": "media_brief", "arguments": {"product": "the Aurora phone", "audience": "commuters"}}',
    '--json',
  )
  expect(run.code, run.stderr).toBe(0)
  const object = oneObject(run)
  expect(object).toMatchObject({ format: 'parallax.request/1', target: 'demo:prompts', method: 'prompts/get', outcome: 'result' })
  expect(JSON.stringify(object.result)).toContain('the launch of the Aurora phone aimed at commuters')
  expect(object.rpcError).toBeUndefined()
})

it('reads a templated resource, as text a person reads', async () => {
  const run = await parallax('request', 'demo:resources', 'resources/read', '--params', '{"uri": "media://products/prod_mobile_run"}')
  expect(run.code, run.stderr).toBe(0)
  const result = JSON.parse(run.stdout) as { contents: { mimeType: string; text: string }[] }
  expect(result.contents[0].mimeType).toBe('application/json')
  expect(JSON.parse(result.contents[0].text)).toMatchObject({ product_id: 'prod_mobile_run' })
})

it('server-everything: completion, progress said as it comes, and a JSON-RPC error answer exits 1', async () => {
  const completion = oneObject(
    await parallax(
      'request',
      EVERYTHING,
      'completion/complete',
      '--params',
      '{"ref": {"type": "ref/prompt", "name": "completable-prompt"}, "argument": {"name": "department", "value": "S"}}',
      '--json',
    ),
  )
  expect(completion.result).toMatchObject({ completion: { values: ['Sales', 'Support'] } })

  const long = await parallax(
    'request',
    EVERYTHING,
    'tools/call',
    '--params',
    '{"name": "trigger-long-running-operation", "arguments": {"duration": 0.6, "steps": 3}}',
  )
  expect(long.code, long.stderr).toBe(0)
  expect(long.stderr).toContain('progress 1 of 3 (33%)')
  expect(long.stderr).toContain('progress 3 of 3 (100%)')
  expect(JSON.parse(long.stdout)).toMatchObject({ content: [{ type: 'text', text: expect.stringContaining('Steps: 3') }] })

  const missing = await parallax('request', EVERYTHING, 'resources/read', '--params', '{"uri": "demo://resource/dynamic/text/0"}', '--json')
  expect(missing.code).toBe(1)
  const object = oneObject(missing)
  expect(object.outcome).toBe('error')
  expect(object.rpcError).toMatchObject({ code: expect.any(Number), message: expect.stringContaining('Unknown resource') })
})

it('a tool result with isError is a failed turn (exit 1); params the MCP schema refuses are a usage mistake (exit 2)', async () => {
  const failed = await parallax(
    'request',
    'demo:tools',
    'tools/call',
    '--params',
    JSON.stringify({
      name: 'create_media_buy',
      arguments: demoBuy({ product_id: 'prod_nope', budget: 100 }),
    }),
  )
  expect(failed.code).toBe(1)
  expect(failed.stderr).toContain('the tool answered with an error (isError)')

  const refused = await parallax('request', 'demo:prompts', 'prompts/get', '--params', '{"arguments": {}}', '--json')
  expect(refused.code).toBe(2)
  expect(oneObject(refused)).toEqual({
    format: 'parallax.request/1',
    error: { kind: 'usage', message: expect.stringContaining('invalid params for prompts/get (MCP schema): params.name'), cause: null },
  })
  const notJson = await parallax('request', 'demo:prompts', 'prompts/list', '--params', '[1]')
  expect(notJson.code).toBe(2)
  expect(notJson.stderr).toContain('--params must be a JSON object')
})
