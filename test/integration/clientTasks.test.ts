// The client's side of MCP tasks (2025-11-25), against @modelcontextprotocol/server-everything over stdio, as a
// script would use the CLI: Parallax offers `tasks` where its profile offers sampling and elicitation, so the
// server shows it the tools it gates on them (as it shows any client that offers tasks), and a sampling or an
// elicitation the server sends as a task is answered as one: the task at once, its status, then its result or
// the error the request itself would have answered. Its tools are always called with arguments of our own.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { CallReport, EngineEvent } from '../../shared/contract'
import { openApprovedTarget, openUiClient, waitConnected, type UiClient } from '../../web/client'
import { startWebHostProcess, type RunningWebHost } from '../../web/launch'
import { cliRunner } from '../fixtures/cli'
import { fixtureTarget } from '../fixtures/targets'

const require = createRequire(import.meta.url)
const ENTRY = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js')
const EVERYTHING = `stdio:${process.execPath} ${ENTRY} stdio`
const ASYNC_TOOLS = ['trigger-elicitation-request-async', 'trigger-sampling-request-async']
const TASKS = { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } }

const dir = mkdtempSync(join(tmpdir(), 'parallax-client-tasks-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const parallax = cliRunner(join(dir, 'data'))

interface InspectObject {
  handshake: { clientCapabilities: Record<string, unknown> }
  tools: { name: string }[]
}

async function inspect(...flags: string[]): Promise<InspectObject> {
  const run = await parallax('inspect', EVERYTHING, '--json', '--probes', '0', ...flags)
  expect(run.code, run.stderr).toBe(0)
  return JSON.parse(run.stdout) as InspectObject
}

/** The tools server-everything lists to a plain SDK client offering `capabilities`. */
async function toolsSeenBy(capabilities: Record<string, unknown>): Promise<string[]> {
  const client = new Client({ name: 'sdk-client', version: '1.0.0' }, { capabilities })
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [ENTRY, 'stdio'], stderr: 'ignore' }))
  try {
    return (await client.listTools()).tools.map((t) => t.name).sort()
  } finally {
    await client.close()
  }
}

function profileFile(name: string, capabilities: Record<string, unknown>): string {
  const file = join(dir, `${name}.json`)
  writeFileSync(file, JSON.stringify({ name, mcp: { capabilities } }))
  return file
}

describe('the client tasks capability', () => {
  it('offered by default: server-everything lists Parallax the tools it lists an SDK client that offers tasks', async () => {
    const report = await inspect()
    expect(report.handshake.clientCapabilities.tasks).toEqual(TASKS)
    const names = report.tools.map((t) => t.name).sort()
    expect(names).toEqual(expect.arrayContaining(ASYNC_TOOLS))
    expect(names).toEqual(
      await toolsSeenBy({ roots: { listChanged: true }, sampling: {}, elicitation: { form: {}, url: {} }, tasks: TASKS }),
    )
  }, 60_000)

  it('offered only for what the profile offers itself: no elicitation, no elicitation tasks; no tasks, no gated tools', async () => {
    const samplingOnly = await inspect('--profile', profileFile('sampling-only', { sampling: {}, tasks: TASKS }))
    expect(samplingOnly.handshake.clientCapabilities.tasks).toEqual({ list: {}, cancel: {}, requests: { sampling: { createMessage: {} } } })
    expect(samplingOnly.tools.map((t) => t.name)).toContain('trigger-sampling-request-async')
    expect(samplingOnly.tools.map((t) => t.name)).not.toContain('trigger-elicitation-request-async')

    const noTasks = await inspect('--profile', profileFile('no-tasks', { sampling: {}, elicitation: {} }))
    expect(noTasks.handshake.clientCapabilities.tasks).toBeUndefined()
    for (const tool of ASYNC_TOOLS) expect(noTasks.tools.map((t) => t.name)).not.toContain(tool)
  }, 60_000)

  it('a sampling and an elicitation sent as tasks are answered as tasks: completed with the answer, or failed with the refusal', async () => {
    const replies = join(dir, 'replies.json')
    writeFileSync(replies, JSON.stringify({ sampling: [{ text: 'Answered in a task' }] }))
    const sampled = await parallax(
      'call',
      EVERYTHING,
      ASYNC_TOOLS[1],
      '--args',
      '{"prompt": "hello", "maxTokens": 5}',
      '--sampling',
      replies,
      '--json',
    )
    expect(sampled.code, sampled.stderr).toBe(0)
    const sampledText = JSON.parse(sampled.stdout).response.content[0].text as string
    expect(sampledText).toMatch(/^\[COMPLETED\] Async sampling completed!/)
    expect(sampledText).toMatch(/Task created: \S+\nPoll 1: completed/)
    expect(sampledText).toContain('Answered in a task')

    const elicited = await parallax(
      'call',
      EVERYTHING,
      ASYNC_TOOLS[0],
      '--args',
      '{}',
      '--elicit',
      'accept',
      '--elicit-content',
      '{"name": "Ada"}',
      '--json',
    )
    expect(elicited.code, elicited.stderr).toBe(0)
    const elicitedText = (JSON.parse(elicited.stdout).response.content as { text: string }[]).map((c) => c.text).join('\n')
    expect(elicitedText).toContain('[COMPLETED] User provided the requested information!')
    expect(elicitedText).toContain('- Name: Ada')

    // Nobody to answer (no --sampling): the task fails, with the refusal the request itself would have had.
    const refused = await parallax('call', EVERYTHING, ASYNC_TOOLS[1], '--args', '{"prompt": "hello", "maxTokens": 5}', '--json')
    const refusedText = JSON.parse(refused.stdout).response.content[0].text as string
    expect(refusedText).toMatch(/Poll 1: failed - nobody is here to answer a sampling request/)
  }, 60_000)
})

describe('tasks a server makes on Parallax, with a person to answer (the web host, a UI attached)', () => {
  let host: RunningWebHost | undefined
  let ui: UiClient | undefined
  afterEach(async () => {
    await ui?.close()
    await host?.stop()
    host = ui = undefined
  })

  const elicitation = (state: string) => (e: EngineEvent) =>
    e.type === 'serverRequest' && e.method === 'elicitation/create' && e.state === state
  const seen = (report: CallReport) =>
    JSON.parse((report.response as { content: { text: string }[] }).content[0].text) as Record<string, unknown>

  it('listed and polled while the person answers, then the answer as its result; cancelled, no result and the person no longer asked', async () => {
    host = await startWebHostProcess()
    ui = await openUiClient(host)
    const { origin: _origin, id: _id, ...draft } = fixtureTarget('clientTasks')
    const { connectionId } = await openApprovedTarget(ui, draft)
    await waitConnected(ui, connectionId)

    const answered = ui.invoke('tools.call', { connectionId, tool: 'ask_as_task', arguments: {} })
    const pending = await ui.waitFor(elicitation('pending'))
    const id = pending.type === 'serverRequest' ? pending.id : ''
    // The person answers once the server has listed the task while it waited (Parallax's answer to its tasks/list).
    await ui.waitFor(
      (e) =>
        e.type === 'frame' &&
        e.connectionId === connectionId &&
        e.direction === 'out' &&
        e.kind === 'response' &&
        e.method === 'tasks/list',
    )
    await ui.invoke('serverRequests.answer', { connectionId, id, answer: { result: { action: 'accept', content: { name: 'Ada' } } } })
    const done = seen(await answered)
    expect(done).toMatchObject({ created: 'working', listed: ['working'], status: 'completed' })
    expect(done.result).toMatchObject({
      action: 'accept',
      content: { name: 'Ada' },
      _meta: { 'io.modelcontextprotocol/related-task': { taskId: expect.any(String) } },
    })

    const cancelled = seen(await ui.invoke('tools.call', { connectionId, tool: 'ask_as_task', arguments: { cancel: true } }))
    expect(cancelled).toMatchObject({ created: 'working', listed: ['working'], cancelled: 'cancelled', status: 'cancelled' })
    expect(cancelled.error).toMatchObject({
      message: expect.stringContaining('the task was cancelled (tasks/cancel), so it has no result'),
    })
    await ui.waitFor(elicitation('cancelled'))
    expect(ui.of('serverRequest', connectionId).filter((e) => e.state === 'pending')).toHaveLength(2)
  }, 60_000)
})
