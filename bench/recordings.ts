import { mkdtempSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js'
import type { CommandInput, CommandName, CommandOutput, SavedTarget } from '../shared/contract'
import { demoTargets } from '../shared/demo/targets'
import type { Engine } from '../shared/engine/engine'
import { a2aClient, a2aMessage, engineWithUi, rawStdioTransport } from './callOverhead'
import { floodTarget, isFloodFrame } from './eventDelivery'
import { collectGarbage, figure, median, type BenchOptions, type Figure } from './harness'
import { startBenchServers } from './servers'

/** The turns of the replayed session: calls that each side answers at once, in a cycle. */
const CALLS = [
  { tool: 'get_products', arguments: { buying_mode: 'brief', brief: 'sports fans watching in spring', filters: { channels: ['olv'] } } },
  { tool: 'list_creative_formats', arguments: { name_search: 'banner' } },
  { tool: 'get_products', arguments: { buying_mode: 'brief', brief: 'podcast listeners who cook', pagination: { max_results: 3 } } },
  { tool: 'list_creative_formats', arguments: {} },
]

const run = <C extends CommandName>(engine: Engine, command: C, input: CommandInput<C>) =>
  engine.execute(command, input) as Promise<CommandOutput<C>>

/** Records everything a connection to `target` says, from before it opens until `work` is done, under `name`. */
async function record(
  engine: Engine,
  target: Omit<SavedTarget, 'id' | 'origin'>,
  name: string,
  work: (connectionId: string) => Promise<unknown>,
): Promise<number> {
  const connection = await engine.createConnection(await run(engine, 'targets.save', { ...target, approve: true }))
  const connectionId = connection.id
  // A recording holds what happens once it started: it starts before the connection opens.
  await run(engine, 'recordings.start', { connectionId, name })
  if (!(await connection.open())) throw new Error(`cannot connect to ${target.name}`)
  await work(connectionId)
  const { lines } = await run(engine, 'recordings.stop', { connectionId })
  await run(engine, 'connections.close', { connectionId })
  return lines
}

/**
 * Opening a recording of `events` events (what the Replay view asks for) against reading and parsing its
 * lines. The server floods log notifications: each is two events, its frame and its log line.
 */
async function openRecording(engine: Engine, dataDir: string, events: number): Promise<Figure> {
  const count = events / 2
  let seen = 0
  let flooded!: () => void
  const done = new Promise<void>((resolve) => (flooded = resolve))
  const unsubscribe = engine.events.subscribe((e) => {
    if (isFloodFrame(e) && ++seen === count) flooded()
  })
  const lines = await record(engine, floodTarget(count, 0), 'flood', () => done)
  unsubscribe()
  const file = join(dataDir, 'recordings', 'flood.jsonl')
  const rawParse = async () =>
    (await readFile(file, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown)
  const open = () => run(engine, 'recordings.load', { name: 'flood' })
  const parallax: number[] = []
  const raw: number[] = []
  for (let i = 0; i < 5; i++) {
    collectGarbage()
    raw.push(await timed(rawParse))
    collectGarbage()
    parallax.push(await timed(open))
  }
  return figure(
    'recording-open',
    median(parallax),
    median(raw),
    'ms',
    `a recording of ${lines.toLocaleString('en-US')} events; baseline: read the file and JSON.parse its lines`,
  )
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await work()
  return performance.now() - start
}

/**
 * Replaying `turns` recorded turns against two demo targets (the tool server over stdio and the A2A
 * agent), against raw SDK clients making the same calls on the same kinds of server, each side keeping
 * its conversation going as a replay does.
 */
async function replay(engine: Engine, turns: number, a2aUrl: string): Promise<Figure> {
  const tools = demoTargets().find((t) => t.id === 'demo:tools')!
  await record(engine, { name: 'recorded', spec: tools.spec, options: {} }, 'session', async (connectionId) => {
    for (let i = 0; i < turns; i++) await engine.sendTurn(connectionId, CALLS[i % CALLS.length])
  })
  const a = await run(engine, 'targets.save', { name: 'tools', spec: tools.spec, options: {} })
  const b = await run(engine, 'targets.save', {
    name: 'agent',
    spec: { kind: 'a2a', url: a2aUrl, headers: {}, binding: 'auto' },
    options: {},
  })

  // Three rounds of each, alternating, best of each: the first round also warms both servers and the JIT.
  const parallax: number[] = []
  const raw: number[] = []
  for (let round = 0; round < 3; round++) {
    raw.push(await rawReplay(tools.spec, a2aUrl, turns))
    parallax.push(await replayOnce(engine, [a.id, b.id], turns))
  }
  const speed = (ms: number) => turns / (ms / 1000)
  return figure(
    'replay-speed',
    speed(Math.min(...parallax)),
    speed(Math.min(...raw)),
    'turns/s',
    `${turns} turns, each sent to both sides at once (MCP over stdio, A2A), best of 3; baseline: raw MCP and A2A SDK clients`,
  )
}

async function replayOnce(engine: Engine, targetIds: string[], turns: number): Promise<number> {
  const { replayId, total } = await run(engine, 'replay.start', { recording: 'session', targetIds })
  if (total !== turns) throw new Error(`the recording holds ${total} turns, not ${turns}`)
  const started = performance.now()
  const summary = await run(engine, 'replay.run', { replayId })
  const ms = performance.now() - started
  if (summary.same !== turns) throw new Error(`the replay did not find the two sides alike: ${JSON.stringify(summary)}`)
  return ms
}

async function rawReplay(spec: SavedTarget['spec'], a2aUrl: string, turns: number): Promise<number> {
  const mcp = new Client({ name: 'raw', version: '1' })
  await mcp.connect(rawStdioTransport(spec))
  const a2a = await a2aClient(a2aUrl)
  try {
    let contextId = ''
    const started = performance.now()
    for (let i = 0; i < turns; i++) {
      const call = CALLS[i % CALLS.length]
      const data = { skill: call.tool, input: call.arguments }
      const [, answer] = await Promise.all([
        mcp.request({ method: 'tools/call', params: { name: call.tool, arguments: call.arguments } }, CallToolResultSchema),
        a2a.sendMessage(a2aMessage(data, contextId)),
      ])
      contextId = (answer as { contextId?: string }).contextId ?? contextId
    }
    return performance.now() - started
  } finally {
    await mcp.close()
  }
}

export async function recordings({ quick }: BenchOptions): Promise<Figure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parallax-bench-'))
  const engine = engineWithUi(dataDir)
  const servers = await startBenchServers()
  try {
    return [await openRecording(engine, dataDir, quick ? 2_000 : 100_000), await replay(engine, quick ? 40 : 1_000, servers.a2a)]
  } finally {
    await engine.dispose()
    await servers.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
