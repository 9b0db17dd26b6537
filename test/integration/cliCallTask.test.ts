import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { cliRunner } from '../fixtures/cli'
import { fixtureTarget } from '../fixtures/targets'

// `parallax call --task`: the call goes through as an MCP task, and the output says so — the task's id and the
// status it ended in, as text and in the JSON object.

const dir = mkdtempSync(join(tmpdir(), 'parallax-cli-task-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const parallax = cliRunner(join(dir, 'data'))

const spec = fixtureTarget('taskTools').spec as { command: string; args: string[] }
const TASK_SERVER = `stdio:${[spec.command, ...spec.args].join(' ')}`
const ARGS = ['get_products', '--args', '{"buying_mode": "brief", "brief": "sports fans"}']
/** The task the server itself says the result belongs to. */
const relatedTask = (response: { _meta?: Record<string, { taskId?: string }> }) =>
  response._meta?.['io.modelcontextprotocol/related-task']?.taskId

it('call --task says the task id and its final status, as text and as JSON; a plain call names no task', async () => {
  const json = await parallax('call', TASK_SERVER, ...ARGS, '--task', '--json')
  expect(json.code, json.stderr).toBe(0)
  const report = JSON.parse(json.stdout)
  expect(report.task).toEqual({ id: expect.stringMatching(/\S/), status: 'completed' })
  expect(relatedTask(report.response)).toBe(report.task.id)

  const text = await parallax('call', TASK_SERVER, ...ARGS, '--task')
  expect(text.code, text.stderr).toBe(0)
  const line = /^ {2}task {4}(\S+): completed \(the call went through as an MCP task, followed to its end\)$/m.exec(text.stdout)
  expect(line, text.stdout).not.toBeNull()
  expect(text.stdout).toContain(`"taskId":"${line![1]}"`)

  const plain = await parallax('call', TASK_SERVER, ...ARGS, '--json')
  expect(plain.code, plain.stderr).toBe(0)
  expect(JSON.parse(plain.stdout).task).toBeUndefined()
  expect((await parallax('call', TASK_SERVER, ...ARGS)).stdout).not.toMatch(/^ {2}task /m)
}, 60_000)

it('call --task --task-deadline S: a task that never ends is followed S seconds, then said and left to the server (exit 1)', async () => {
  const started = Date.now()
  const run = await parallax('call', TASK_SERVER, 'slow_report', '--args', '{"topic": "tides"}', '--task', '--task-deadline', '1', '--json')
  expect(Date.now() - started).toBeLessThan(15_000)
  expect(run.code, run.stderr).toBe(1)
  const report = JSON.parse(run.stdout)
  expect(report.error).toMatch(/^Parallax stopped following task \S+ after 1 s \(the target's task deadline\); it was still working/)
  expect(report.findings).toContain(report.error)
  expect((await parallax('call', TASK_SERVER, ...ARGS, '--task-deadline', '0')).stderr).toMatch(
    /--task-deadline must be a whole number from 1/,
  )
}, 60_000)
