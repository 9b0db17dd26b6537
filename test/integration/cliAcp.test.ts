import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { quoteArg } from '../../shared/contract'
import { CLI, cliRunner, type CliRun } from '../fixtures/cli'
import { demoBuy } from '../fixtures/demoBuy'

const dir = mkdtempSync(join(tmpdir(), 'parallax-cli-acp-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const parallax = cliRunner(join(dir, 'data'))
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
const agent = (name: string, mode: string) =>
  `acp:${[process.execPath, '--import', TSX, fileURLToPath(new URL(`../fixtures/acp/${name}.ts`, import.meta.url)), mode].map(quoteArg).join(' ')}`

describe('the CLI speaks ACP', () => {
  it('inspect prints an ACP agent\'s handshake, session and commands, with "protocol":"acp"', async () => {
    const { code, stdout, stderr } = await parallax('inspect', 'demo:acp', '--json', '--probes', '1', '--interval', '200')
    expect(stderr).toBe('')
    expect(code).toBe(0)
    const report = JSON.parse(stdout)
    expect(report).toMatchObject({ format: 'parallax.inspect/1', protocol: 'acp' })
    expect(report.handshake.agentInfo.name).toBe('parallax-demo-media-sales')
    expect(report.handshake.session.how).toBe('new')
    expect(report.commands.map((c: { name: string }) => c.name)).toEqual([
      'get_adcp_capabilities',
      'get_products',
      'list_creative_formats',
      'create_media_buy',
      'get_media_buys',
    ])
    expect(report.keepalive.probes[0]).toMatchObject({ probe: 'process', ok: true })
    const text = await parallax('inspect', 'demo:acp', '--profile', 'hinted', '--probes', '0')
    expect(text.stdout).toContain('tool categories forecasting, creative (as field and meta)')
    expect(text.stdout).toContain('/forecast_delivery')
  })

  it("inspect lists an ACP agent's sign-in methods, and keeps its layout when a description runs over several lines", async () => {
    const { code, stdout } = await parallax('inspect', agent('stableAgent', 'described'), '--probes', '0')
    expect(code).toBe(0)
    const lines = stdout.split('\n')
    const section = (title: RegExp) => {
      const start = lines.findIndex((l) => title.test(l))
      const end = lines.findIndex((l, i) => i > start && !l.startsWith(' '))
      return lines.slice(start, end)
    }
    expect(section(/^sign-in methods \(2\)$/)).toEqual([
      'sign-in methods (2)',
      '  oauth-personal — Log in with your account',
      '  api-key — Use an API key: Set AGENT_API_KEY',
      '            before you start the agent',
    ])
    expect(section(/^commands \(2\)$/)).toEqual([
      'commands (2)',
      '  /review — Review the changes',
      '            Usage: /review [path]',
      '              --strict  fail on warnings',
      '  /plan — Make a plan',
    ])

    // An agent that wants a sign-in before any session: its methods are the report, its refusal the finding.
    const refused = await parallax('inspect', agent('stableAgent', 'auth'), '--probes', '0')
    expect(refused.code).toBe(1)
    expect(refused.stdout).toContain('sign-in methods (1)\n  none — No sign-in: saw fs')
    expect(refused.stdout).toMatch(/1 finding\(s\):\n {2}- it did not connect: the agent wants you to sign in first/)
    const json = JSON.parse((await parallax('inspect', agent('stableAgent', 'auth'), '--probes', '0', '--json')).stdout)
    expect(json.handshake.authMethods).toEqual([expect.objectContaining({ id: 'none', name: 'No sign-in' })])
  })

  it('converse answers permission by --permission, confines files to --workspace, and reports the turns', async () => {
    const workspace = mkdtempSync(join(dir, 'ws-'))
    const { code, stdout } = await parallax(
      'converse',
      agent('stableAgent', 'write'),
      '--workspace',
      workspace,
      '--permission',
      'allow',
      '--turn',
      'write it',
      '--json',
    )
    expect(code).toBe(0)
    const report = JSON.parse(stdout)
    expect(report).toMatchObject({ format: 'parallax.conversation/1', protocol: 'acp' })
    expect(report.turns[0].state).toBe('end_turn')
    expect(report.turns[0].response.text).toMatch(/^written; refused/)
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('hello from the agent\n')
    expect(report.serverRequests.map((r: { method: string; by: string }) => `${r.method} ${r.by}`)).toContain(
      'session/request_permission script',
    )
  })

  it('Ctrl+C mid-turn cancels the turn (session/cancel reaches the agent) and prints what came so far', async () => {
    /** Runs converse as a terminal would, in a process group of its own, and presses Ctrl+C (SIGINT to the group) mid-turn. */
    const interrupted = async (json: boolean): Promise<CliRun & { state: string }> => {
      const state = join(mkdtempSync(join(dir, 'slow-')), 'state')
      const child = spawn(
        process.execPath,
        [
          CLI,
          'converse',
          `${agent('stableAgent', 'slow')} ${quoteArg(state)}`,
          '--turn',
          'take your time',
          '--turn',
          'and then this',
          ...(json ? ['--json'] : []),
        ],
        { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PARALLAX_DATA_DIR: join(dir, 'data') }, detached: true },
      )
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (c) => (stdout += c))
      child.stderr.on('data', (c) => (stderr += c))
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve))
      for (let waited = 0; !(existsSync(state) && readFileSync(state, 'utf8').includes('prompted')); waited += 50) {
        if (waited > 30_000) throw new Error(`the agent was never prompted: ${stderr}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      process.kill(-child.pid!, 'SIGINT')
      const code = await closed
      return { code, stdout, stderr, state: readFileSync(state, 'utf8') }
    }

    const run = await interrupted(true)
    expect(run.state).toBe('prompted\ncancel received\n')
    expect(run.code).toBe(1)
    expect(run.stdout.trim().split('\n')).toHaveLength(1) // exactly one JSON object
    const report = JSON.parse(run.stdout)
    expect(report.turns).toHaveLength(1)
    expect(report.turns[0]).toMatchObject({ state: 'cancelled', response: { text: 'working on it… stopped as asked.' } })
    expect(report.interrupted).toBe('Ctrl+C: the turn in flight was cancelled (session/cancel); 1 turn(s) not sent')
    expect(report.history.map((m: { role: string; content: string }) => `${m.role}: ${m.content}`)).toContain(
      'agent: working on it… stopped as asked.',
    )

    const text = await interrupted(false)
    expect(text.state).toBe('prompted\ncancel received\n')
    expect(text.stderr).toContain('cancelling the turn in flight (session/cancel); Ctrl+C again to quit')
    expect(text.stdout).toContain('working on it')
    expect(text.stdout).toContain('interrupted: Ctrl+C: the turn in flight was cancelled (session/cancel); 1 turn(s) not sent')
  })

  it('exits 1 for a failed turn: the agent crashed mid-turn', async () => {
    const { code, stdout } = await parallax('converse', agent('stableAgent', 'crash'), '--turn', 'go', '--json')
    expect(code).toBe(1)
    expect(JSON.parse(stdout).turns[0].state).toBe('error')
  })

  it('compare says whether the agent honoured the hint, by what it exposed and what it did', async () => {
    const { code, stdout } = await parallax(
      'compare',
      'demo:acp',
      '--profile-a',
      'minimal',
      '--profile-b',
      'hinted',
      '--prompt',
      'Find video for a launch',
      '--json',
    )
    expect(code).toBe(1)
    const report = JSON.parse(stdout)
    expect(report.catalog.added.map((x: { kind: string; name: string }) => `${x.kind}:${x.name}`).sort()).toEqual([
      'command:forecast_delivery',
      'command:preview_creative',
      'used:forecast_delivery',
    ])
  })

  it('records an MCP session and replays it against the same agent over ACP: the same, turn by turn', async () => {
    const recording = join(dir, 'mcp.jsonl')
    const recorded = await parallax(
      'record',
      'demo:tools',
      '--turn',
      '{"tool":"get_products","arguments":{"buying_mode":"brief","brief":"sports video"}}',
      '--turn',
      JSON.stringify({
        tool: 'create_media_buy',
        arguments: demoBuy(),
      }),
      '--out',
      recording,
      '--json',
    )
    expect(recorded.code).toBe(0)
    const { code, stdout } = await parallax('replay', recording, '--target', 'demo:tools', '--target', 'demo:acp', '--json')
    const report = JSON.parse(stdout)
    expect(report.turns.map((t: { status: string }) => t.status)).toEqual(['same', 'same'])
    expect(code).toBe(0)
  })

  it('records an ACP session (prompts as turns) and replays it: against the agent itself, and against its MCP face', async () => {
    const recording = join(dir, 'acp.jsonl')
    const recorded = await parallax(
      'record',
      'demo:acp',
      '--turn',
      '{"tool":"list_creative_formats","arguments":{"name_search":"pre-roll"}}',
      '--turn',
      'Find audio for a podcast launch',
      '--out',
      recording,
      '--json',
    )
    expect(recorded.code).toBe(0)
    const self = JSON.parse((await parallax('replay', recording, '--target', 'demo:acp', '--json')).stdout)
    expect(self.turns.map((t: { status: string }) => t.status)).toEqual(['same', 'same'])
    const mcp = JSON.parse((await parallax('replay', recording, '--target', 'demo:acp', '--target', 'demo:tools', '--json')).stdout)
    expect(mcp.turns.map((t: { status: string }) => t.status)).toEqual(['same', 'skipped'])
    expect(mcp.turns[1].reason).toMatch(/no free-text turns/)
  })
})
