import { parseArgs } from 'node:util'
import {
  visibleText,
  isFailedTurn,
  turnFailure,
  lastUserMessage,
  summary,
  type ConversationMessage,
  type SavedTarget,
  type Turn,
  type TurnResult,
  protocolOf,
  type Protocol,
} from '../shared/contract'
import { applyLogLevel, cliHost, connectOrExplain, listenToServer, logLevelFlag, wholeNumber, type LogLevelOutcome } from './connect'
import { printJson } from './failure'
import { AUTH_OPTIONS, withAuthFlags } from './authFlags'
import { resolveTarget } from './resolveTarget'
import { CLIENT_OPTIONS, clientFlags, listenToServerRequests, withClientFlags } from './clientFlags'
import { UsageError } from './usage'

export const CONVERSATION_FORMAT = 'parallax.conversation/1'

/**
 * A turn from the command line. For A2A: a JSON object is sent as a data part, anything else as text.
 * For MCP: a JSON object {"tool": NAME, "arguments": {…}}. For ACP: a prompt, or such a call (sent as its slash command).
 */
export function parseTurn(text: string, protocol: Protocol): Turn {
  let json: unknown
  if (text.trim().startsWith('{')) {
    try {
      json = JSON.parse(text)
    } catch (error) {
      throw new UsageError(`--turn ${JSON.stringify(text)} looks like JSON but is not: ${(error as Error).message}`)
    }
  }
  if (protocol === 'acp') {
    const call = json as { tool?: unknown; arguments?: unknown } | undefined
    return call && typeof call.tool === 'string'
      ? { tool: call.tool, arguments: (call.arguments ?? {}) as Record<string, unknown> }
      : { text }
  }
  if (protocol === 'mcp') {
    const call = json as { tool?: unknown; arguments?: unknown } | undefined
    if (!call || typeof call.tool !== 'string')
      throw new UsageError(`an MCP turn is {"tool": NAME, "arguments": {…}}, got ${JSON.stringify(text)}`)
    return { tool: call.tool, arguments: (call.arguments ?? {}) as Record<string, unknown> }
  }
  return json && typeof json === 'object' && !Array.isArray(json) ? { data: json as Record<string, unknown> } : { text }
}

/** `parallax converse <target> --turn T …`: runs the turns in order on one connection and reports the conversation. */
export async function converse(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      turn: { type: 'string', multiple: true, default: [] },
      stream: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      config: { type: 'string' },
      yes: { type: 'boolean', short: 'y', default: false },
      timeout: { type: 'string', default: '30000' },
      'log-level': { type: 'string' },
      binding: { type: 'string' },
      ...CLIENT_OPTIONS,
      ...AUTH_OPTIONS,
    },
  })
  if (positionals.length !== 1)
    throw new UsageError('converse takes exactly one target, e.g. parallax converse demo:a2a --turn "search sports video"')
  if (values.turn.length === 0) throw new UsageError('give at least one --turn')
  const timeout = wholeNumber(values.timeout, '--timeout', 100)
  const logLevel = logLevelFlag(values['log-level'])
  const client = await clientFlags(values)
  const target = withAuthFlags(withClientFlags(await resolveTarget(positionals[0], values.config, values.binding), client), values)
  const protocol = protocolOf(target.spec)
  const turns = values.turn.map((t) => parseTurn(t, protocol))

  const host = cliHost({
    progress: (line) => {
      if (!values.json) process.stderr.write(`${visibleText(line)}\n`)
    },
    yes: values.yes,
    configFile: values.config,
    defaults: { requestTimeoutMs: timeout, reconnectAttempts: 0, keepaliveIntervalMs: 3_600_000 },
  })
  const history: ConversationMessage[] = []
  host.onEvents((events) => {
    for (const e of events) if (e.type === 'conversation') history.push(e.message)
  })
  const progress = (line: string) => {
    if (!values.json) process.stderr.write(`${visibleText(line)}\n`)
  }
  const results: (TurnResult | { turn: number; request: Turn; error: string; state: 'error' })[] = []
  const serverLog = listenToServer(host, progress)
  const serverRequests = listenToServerRequests(host, progress)
  let logLevelOutcome: LogLevelOutcome | undefined
  let failed = false
  try {
    const connectionId = await connectOrExplain(host, target, 'session', client.profile)
    if (logLevel) logLevelOutcome = await applyLogLevel(host, connectionId, logLevel, progress)
    for (const [i, turn] of turns.entries()) {
      try {
        const result = await host.invoke('conversation.send', { connectionId, turn, stream: values.stream })
        results.push(result)
        if (isFailedTurn(result.state)) failed = true
        const failure = turnFailure(result.response)
        progress(`turn ${i + 1}: ${result.state}${result.taskId ? ` (task ${result.taskId})` : ''}${failure ? `: ${failure}` : ''}`)
      } catch (error) {
        failed = true
        results.push({ turn: i + 1, request: turn, error: (error as Error).message, state: 'error' })
        progress(`turn ${i + 1}: error: ${(error as Error).message}`)
      }
    }
  } finally {
    await host.close()
  }
  const contextId = results.findLast((r) => 'contextId' in r && r.contextId) as TurnResult | undefined
  const report = {
    format: CONVERSATION_FORMAT,
    protocol,
    target: targetName(target),
    contextId: contextId?.contextId,
    turns: results.map((r) => ({
      request: r.request,
      response: 'response' in r ? r.response : undefined,
      state: r.state,
      ...('error' in r && { error: r.error }),
      ...('taskId' in r && r.taskId && { taskId: r.taskId }),
    })),
    history: history.map(({ role, content, timestamp, metadata }) => ({ role, content, timestamp, metadata })),
    ...(logLevelOutcome && { logLevel: logLevelOutcome }),
    serverLog: serverLog(),
    serverRequests: serverRequests(),
  }
  if (values.json) printJson(report)
  else {
    process.stdout.write(`${visibleText(summary({ contextId: report.contextId, history }, history.length))}\n`)
    const last = lastUserMessage({ history })
    if (last) progress(`last user message: ${last.content}`)
  }
  return failed ? 1 : 0
}

function targetName(target: SavedTarget): string {
  return target.origin === 'demo' ? target.id : target.name
}
