// A JSON-RPC error is said with its code once. A server built with the MCP SDK sends its McpError's message,
// which already reads "MCP error <code>: …", and the client's SDK prefixes it again ("MCP error -1: MCP error -1:
// …"); Parallax's own refusals to a server's request went out so prefixed too, and came back doubled in the
// server's answer. Checked through the CLI, against test/fixtures/servers/refusals.ts and server-everything.
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { cliRunner } from '../fixtures/cli'

const require = createRequire(import.meta.url)
const REFUSALS = `stdio:${process.execPath} --import tsx ${fileURLToPath(new URL('../fixtures/servers/refusals.ts', import.meta.url))}`
const EVERYTHING = `stdio:${process.execPath} ${join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js')} stdio`
const dir = mkdtempSync(join(tmpdir(), 'parallax-rpc-error-text-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const parallax = cliRunner(join(dir, 'data'))

/** How many times `text` holds "MCP error <code>:". */
function prefixes(text: string, code: number): number {
  return text.split(`MCP error ${code}:`).length - 1
}

it('request: a JSON-RPC error answer is its code and the server’s words, with no SDK prefix', async () => {
  const read = await parallax('request', REFUSALS, 'resources/read', '--params', '{"uri": "archive://2019"}')
  expect(read.code).toBe(1)
  expect(read.stdout).toBe('JSON-RPC error -32002: no such resource: archive://2019\n')

  const prompt = await parallax('request', REFUSALS, 'prompts/get', '--params', '{"name": "summary"}', '--json')
  expect(prompt.code).toBe(1)
  expect(JSON.parse(prompt.stdout)).toMatchObject({ outcome: 'error', rpcError: { code: -32602, message: 'unknown prompt: summary' } })
})

it('converse and call: a tool refused with JSON-RPC error -1 says "MCP error -1:" once', async () => {
  const converse = await parallax('converse', REFUSALS, '--turn', '{"tool": "archive", "arguments": {}}')
  expect(converse.code).toBe(1)
  expect(converse.stdout).toContain('agent: MCP error -1: the archive is offline')
  expect(converse.stderr).toContain('turn 1: error: MCP error -1: the archive is offline')
  expect(prefixes(converse.stdout + converse.stderr, -1)).toBe(2) // once on each line

  const call = await parallax('call', REFUSALS, 'archive', '--args', '{}', '--json')
  const report = JSON.parse(call.stdout) as { error: string; findings: string[] }
  expect(report.error).toBe('MCP error -1: the archive is offline')
  expect(report.findings).toEqual(['MCP error -1: the archive is offline'])
})

it('Parallax refusing a sampling request sends its words alone: the server’s report of it says "MCP error -1:" once', async () => {
  const run = await parallax('call', EVERYTHING, 'trigger-sampling-request', '--args', '{"prompt": "hello"}', '--json')
  const report = JSON.parse(run.stdout) as { response: { content: { text: string }[]; isError: boolean } }
  expect(report.response.isError).toBe(true)
  const text = report.response.content[0].text
  expect(text).toMatch(/^MCP error -1: nobody is here to answer a sampling request/)
  expect(prefixes(text, -1)).toBe(1)
})
