import { parseArgs } from 'node:util'
import {
  visibleText,
  isFailedTurn,
  turnFailure,
  lastUserMessage,
  summary,
  type A2aPushConfig,
  type ConversationMessage,
  type SavedTarget,
  type Turn,
  type TurnResult,
  protocolOf,
  type Protocol,
} from '../shared/contract'
import {
  applyLogLevel,
  cliHost,
  connectOrExplain,
  listenToServer,
  logLevelFlag,
  wholeNumber,
  type CliHost,
  type LogLevelOutcome,
} from './connect'
import { adcpFindingText } from '../shared/hooks/callInspector'
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
      push: { type: 'boolean', default: false },
      'push-within': { type: 'string', default: '5000' },
      ...CLIENT_OPTIONS,
      ...AUTH_OPTIONS,
    },
  })
  if (positionals.length !== 1)
    throw new UsageError('converse takes exactly one target, e.g. parallax converse demo:a2a --turn "search sports video"')
  if (values.turn.length === 0) throw new UsageError('give at least one --turn')
  const timeout = wholeNumber(values.timeout, '--timeout', 100)
  const logLevel = logLevelFlag(values['log-level'])
  const pushWithin = wholeNumber(values['push-within'], '--push-within', 100)
  const client = await clientFlags(values)
  const target = withAuthFlags(withClientFlags(await resolveTarget(positionals[0], values.config, values.binding), client), values)
  const protocol = protocolOf(target.spec)
  if (values.push && protocol !== 'a2a') throw new UsageError('--push is for A2A agents: push notifications are A2A’s')
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
  const push = values.push ? { configs: [] as A2aPushConfig[], findings: [] as string[] } : undefined
  let printed = false
  const interrupt = stopOnInterrupt(host, protocol, progress, () => {
    print()
    process.exit(130)
  })
  try {
    const connectionId = await connectOrExplain(host, target, 'session', client.profile)
    interrupt.connected(connectionId)
    if (logLevel) logLevelOutcome = await applyLogLevel(host, connectionId, logLevel, progress)
    for (const [i, turn] of turns.entries()) {
      if (interrupt.said()) break
      try {
        const result = await host.invoke('conversation.send', { connectionId, turn, stream: values.stream })
        results.push(result)
        if (isFailedTurn(result.state)) failed = true
        const failure = turnFailure(result.response)
        progress(`turn ${i + 1}: ${result.state}${result.taskId ? ` (task ${result.taskId})` : ''}${failure ? `: ${failure}` : ''}`)
        // An AdCP task's request or response that breaks AdCP's schemas is a finding, as on `parallax call`.
        for (const finding of result.adcp?.findings ?? []) {
          failed = true
          progress(`turn ${i + 1}: ${adcpFindingText(result.adcp!.release, result.adcp!.task, finding)}`)
        }
        // --push: a task that is not over gets a webhook on Parallax's receiver, once.
        if (push && result.taskId && !TERMINAL.has(result.state) && !push.configs.some((c) => c.taskId === result.taskId)) {
          const config = await host.invoke('pushConfigs.create', { connectionId, taskId: result.taskId, expectWithinMs: pushWithin })
          push.configs.push(config)
          progress(`push notifications for task ${result.taskId} go to ${config.url}`)
        }
      } catch (error) {
        failed = true
        results.push({ turn: i + 1, request: turn, error: (error as Error).message, state: 'error' })
        progress(`turn ${i + 1}: error: ${(error as Error).message}`)
      }
    }
    if (push?.configs.length && !interrupt.said()) await awaitPushes(host, connectionId, push, history, pushWithin, progress)
  } catch (error) {
    interrupt.done()
    throw error
  } finally {
    await host.close()
  }
  print()
  interrupt.done()
  return failed || push?.findings.length || interrupt.said() ? 1 : 0

  /** The report of what came so far: on stdout once, whether the turns ended or Ctrl+C cut them short. */
  function print(): void {
    if (printed) return
    printed = true
    const report = conversationReport()
    if (values.json) printJson(report)
    else {
      process.stdout.write(`${visibleText(summary({ contextId: report.contextId, history }, history.length))}\n`)
      const last = lastUserMessage({ history })
      if (last) progress(`last user message: ${last.content}`)
      for (const finding of push?.findings ?? []) process.stdout.write(`${visibleText(`push finding: ${finding}`)}\n`)
      if (report.interrupted) process.stdout.write(`${visibleText(`interrupted: ${report.interrupted}`)}\n`)
    }
  }

  function conversationReport() {
    const contextId = results.findLast((r) => 'contextId' in r && r.contextId) as TurnResult | undefined
    const interrupted = interrupt.said()
    const unsent = turns.length - results.length
    return {
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
        ...('adcp' in r && r.adcp && { adcp: r.adcp }),
      })),
      history: history.map(({ role, content, timestamp, metadata }) => ({ role, content, timestamp, metadata })),
      ...(logLevelOutcome && { logLevel: logLevelOutcome }),
      serverLog: serverLog(),
      serverRequests: serverRequests(),
      ...(push && {
        push: {
          configs: push.configs.map(({ id, taskId, url }) => ({ id, taskId, url })),
          received: history
            .filter((m) => m.metadata?.kind === 'push')
            .map(({ timestamp, metadata }) => ({
              taskId: metadata?.taskId,
              state: metadata?.state,
              at: timestamp,
              frame: metadata?.frameSeq,
            })),
          /** Tasks that changed state with no push within --push-within: each a finding (exit 1). */
          findings: push.findings,
        },
      }),
      /** Ctrl+C cut the run short: what was cancelled, and how many turns were never sent. */
      ...(interrupted && { interrupted: `${interrupted}${unsent > 0 ? `; ${unsent} turn(s) not sent` : ''}` }),
    }
  }
}

const TERMINAL = new Set(['completed', 'failed', 'canceled', 'rejected', 'message'])

/**
 * Ctrl+C while the turns run: the turn in flight is cancelled where the protocol can cancel one (ACP:
 * `session/cancel`; MCP: the tool call's `notifications/cancelled`), no later turn is sent, and the run
 * reports what came so far. Where nothing can be cancelled (before the connection, an A2A message in
 * flight), or at a second Ctrl+C, `quit` reports it at once and exits.
 */
function stopOnInterrupt(host: CliHost, protocol: Protocol, say: (line: string) => void, quit: () => void) {
  let connectionId: string | undefined
  let interrupted: string | undefined
  let callId: string | number | undefined
  host.onEvents((events) => {
    for (const e of events) {
      const meta = e.type === 'conversation' ? e.message.metadata : undefined
      if (meta?.kind === 'call' && (typeof meta.requestId === 'string' || typeof meta.requestId === 'number')) callId = meta.requestId
    }
  })
  const inFlight = (): { requestId: string | number; how: string } | undefined =>
    !connectionId
      ? undefined
      : protocol === 'acp'
        ? { requestId: 'prompt', how: 'session/cancel' }
        : protocol === 'mcp' && callId !== undefined
          ? { requestId: callId, how: 'notifications/cancelled' }
          : undefined
  const onInterrupt = () => {
    if (interrupted !== undefined) return quit()
    const turn = inFlight()
    if (!turn) {
      interrupted = 'Ctrl+C'
      return quit()
    }
    interrupted = `Ctrl+C: the turn in flight was cancelled (${turn.how})`
    say(`cancelling the turn in flight (${turn.how}); Ctrl+C again to quit`)
    void host
      .invoke('connections.cancel', {
        connectionId: connectionId!,
        requestId: turn.requestId,
        reason: 'cancelled from the command line (Ctrl+C)',
      })
      .then(
        ({ cancelled }) => cancelled || say('the turn was no longer in flight'),
        (error: Error) => say(`could not cancel the turn: ${error.message}`),
      )
  }
  process.on('SIGINT', onInterrupt)
  return {
    connected: (id: string) => void (connectionId = id),
    /** Why the run was cut short, once Ctrl+C was pressed. */
    said: () => interrupted,
    done: () => void process.removeListener('SIGINT', onInterrupt),
  }
}

/**
 * --push: waits for the agent's pushes — until each configured task has pushed an ending state, or until
 * `within` ms have passed with nothing new — then asks each config for its finding (a task that changed
 * state with no push within the bound).
 */
async function awaitPushes(
  host: CliHost,
  connectionId: string,
  push: { configs: A2aPushConfig[]; findings: string[] },
  history: ConversationMessage[],
  within: number,
  progress: (line: string) => void,
): Promise<void> {
  const ended = (taskId: string) =>
    history.some((m) => m.metadata?.kind === 'push' && m.metadata.taskId === taskId && TERMINAL.has(String(m.metadata.state)))
  let seen = history.length
  let quietSince = Date.now()
  // The bound, and a little more: the receiver's check runs at the bound itself.
  while (!push.configs.every((c) => ended(c.taskId)) && Date.now() - quietSince < within + 500) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    if (history.length !== seen) [seen, quietSince] = [history.length, Date.now()]
  }
  for (const config of push.configs) {
    const now = await host.invoke('pushConfigs.get', { connectionId, taskId: config.taskId, configId: config.id }).catch(() => undefined)
    if (now?.receiver?.finding) {
      push.findings.push(now.receiver.finding)
      progress(`finding: ${now.receiver.finding}`)
    }
  }
}

function targetName(target: SavedTarget): string {
  return target.origin === 'demo' ? target.id : target.name
}
