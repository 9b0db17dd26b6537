import { builtInDemos } from '../shared/demo/builtIns'
import { randomUUID } from 'node:crypto'
import { Role } from '@a2a-js/sdk'
import {
  type Client as A2aClient,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js'
import { forUi, type SavedTarget } from '../shared/contract'
import { demoTargets } from '../shared/demo/targets'
import { EventBatcher } from '../shared/runtime/batcher'
import { liftListenerLimit } from '../shared/runtime/httpAnswers'
import { Engine } from '../shared/engine/engine'
import { figure, interleave, median, type BenchOptions, type Figure } from './harness'
import { startBenchServers } from './servers'

const CALL = { name: 'list_creative_formats', arguments: { name_search: 'banner' } }

/** An engine as the app runs it: frame tap and events on, a UI client subscribed through the batcher. */
export function engineWithUi(dataDir?: string): Engine {
  const engine = new Engine({ host: 'web', builtIns: builtInDemos(), dataDir, defaults: { keepaliveIntervalMs: 3_600_000 } })
  const batcher = new EventBatcher((events) => void JSON.stringify({ events })) // what the web host sends
  engine.events.subscribe((event) => batcher.push(forUi(event)))
  return engine
}

/** The raw SDK's stdio transport to the server a Parallax target spawns (same command, args and env). */
export function rawStdioTransport(spec: SavedTarget['spec']): StdioClientTransport {
  if (spec.kind !== 'mcp-stdio') throw new Error(`not a stdio target: ${spec.kind}`)
  return new StdioClientTransport({
    command: spec.command,
    args: spec.args,
    env: { ...getDefaultEnvironment(), ...spec.env },
    stderr: 'pipe',
  })
}

/**
 * The raw SDK client and Parallax, each on its own connection to the same kind of server, called in turns,
 * each putting the same request on the wire: with `progress`, both ask for progress (a token, the timeout
 * restarted by each report) as Parallax does for a call a person makes; without, neither does, as a
 * replayed turn that was fast when recorded.
 */
async function mcpPair(name: string, rawTransport: Transport, target: SavedTarget, count: number, progress = false): Promise<Figure> {
  const client = new Client({ name: 'raw', version: '1' })
  await client.connect(rawTransport)
  const engine = engineWithUi()
  const asking = progress ? { onprogress: () => {}, resetTimeoutOnProgress: true } : {}
  try {
    const connection = await engine.createConnection(target)
    if (!(await connection.open())) throw new Error(`cannot connect to ${target.name}`)
    const [raw, parallax] = await interleave(
      count,
      () => client.request({ method: 'tools/call', params: CALL }, CallToolResultSchema, asking),
      () => engine.sendTurn(connection.id, { tool: CALL.name, arguments: CALL.arguments }, { progress }),
    )
    const what = progress ? 'both asking for progress' : 'no progress asked'
    return figure(name, median(parallax), median(raw), 'ms median round trip', `${count} sequential tools/call each, interleaved; ${what}`)
  } finally {
    await client.close()
    await engine.dispose()
  }
}

export async function callOverhead({ quick }: BenchOptions): Promise<Figure[]> {
  const count = quick ? 100 : 2_000
  const figures: Figure[] = []

  const stdio = demoTargets().find((t) => t.id === 'demo:tools')!
  figures.push(await mcpPair('call-overhead-stdio', rawStdioTransport(stdio.spec), stdio, count))
  figures.push(await mcpPair('call-overhead-stdio-progress', rawStdioTransport(stdio.spec), stdio, count, true))

  const servers = await startBenchServers()
  try {
    const target: SavedTarget = {
      id: 'bench-http',
      name: 'http',
      origin: 'user',
      options: {},
      spec: { kind: 'mcp-http', url: servers.mcp, headers: {}, transport: 'streamable-http' },
    }
    figures.push(await mcpPair('call-overhead-streamable-http', rawHttpTransport(servers.mcp), target, count))
    figures.push(await a2aPair(servers.a2a, count))
  } finally {
    await servers.stop()
  }
  return figures
}

/** The raw SDK's streamable HTTP transport, its session signal's listener limit lifted as Parallax lifts it (no leak warnings). */
function rawHttpTransport(url: string): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(url), {
    fetch: (input, init) => {
      liftListenerLimit(init?.signal)
      return fetch(input, init)
    },
  })
}

/** The raw `@a2a-js/sdk` client, set up as its documentation shows (v1.0 first, v0.3 compatible). */
export async function a2aClient(url: string): Promise<A2aClient> {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [
        new JsonRpcTransportFactory({ legacyCompat: { enabled: true } }),
        new RestTransportFactory({ legacyCompat: { enabled: true } }),
      ],
      cardResolver: new DefaultAgentCardResolver({ legacyCompat: { enabled: true } }),
    }),
  )
  return factory.createFromUrl(url)
}

/** A `SendMessage` request carrying one data part, as the raw client takes it. */
export function a2aMessage(data: Record<string, unknown>, contextId = '') {
  return {
    tenant: '',
    message: {
      messageId: randomUUID(),
      role: Role.ROLE_USER,
      parts: [{ content: { $case: 'data' as const, value: data }, metadata: undefined, filename: '', mediaType: 'application/json' }],
      taskId: '',
      contextId,
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  }
}

async function a2aPair(url: string, count: number): Promise<Figure> {
  const engine = engineWithUi()
  try {
    const client = await a2aClient(url)
    const data = { skill: 'list_creative_formats', input: { name_search: 'banner' } }
    const target: SavedTarget = {
      id: 'bench-a2a',
      name: 'a2a',
      origin: 'user',
      options: {},
      spec: { kind: 'a2a', url: url, headers: {}, binding: 'auto' },
    }
    const connection = await engine.createConnection(target)
    if (!(await connection.open())) throw new Error('cannot connect to the demo agent')
    // A new context each time, as the raw client does (no threading through earlier tasks).
    const [raw, parallax] = await interleave(
      count,
      () => client.sendMessage(a2aMessage(data)),
      () => engine.sendTurn(connection.id, { data }, { newContext: true }),
    )
    return figure(
      'call-overhead-a2a-sendmessage',
      median(parallax),
      median(raw),
      'ms median round trip',
      `${count} sequential SendMessage each, interleaved`,
    )
  } finally {
    await engine.dispose()
  }
}
