import { parseArgs } from 'node:util'
import { turnFailure, visibleText, type RequestAnswer, type SavedTarget } from '../shared/contract'
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
import { printJson } from './failure'
import { AUTH_OPTIONS, withAuthFlags } from './authFlags'
import { resolveTarget } from './resolveTarget'
import { CLIENT_OPTIONS, clientFlags, listenToServerRequests, withClientFlags } from './clientFlags'
import { UsageError } from './usage'
import { confirmSavedRequest, savedRequest } from './fromFrame'

export const REQUEST_FORMAT = 'parallax.request/1'

/** The flags of `request`: its own, and those that let a script play the rest of the client (what the server asks of it). */
const OPTIONS = {
  params: { type: 'string' },
  'from-frame': { type: 'string' },
  json: { type: 'boolean', default: false },
  config: { type: 'string' },
  yes: { type: 'boolean', short: 'y', default: false },
  timeout: { type: 'string', default: '30000' },
  'log-level': { type: 'string' },
  ...CLIENT_OPTIONS,
  ...AUTH_OPTIONS,
} as const

/** One `notifications/progress` the server sent about the request, as it said it. */
interface ProgressLine {
  progress: unknown
  total?: unknown
  message?: unknown
}

/**
 * `parallax request <target> <method> [--params JSON]`: any MCP request (`prompts/get`, `resources/read`,
 * `completion/complete`, `logging/setLevel`, …) through the same command as the UI's (connections.request),
 * and the answer as it came. Exit 0 for a result, 1 for a JSON-RPC error answer, no answer (a timeout, or
 * Ctrl+C: the request is cancelled, notifications/cancelled sent) or a tool result with isError (a failed
 * turn); 2 for a usage mistake (params the MCP schema refuses) or a connection that could not be made.
 * `--from-frame FILE#SEQ` takes the method and params from a saved frame (`--params` replaces the params).
 */
export async function request(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS })
  const saved = values['from-frame'] !== undefined ? savedRequest(values['from-frame']) : undefined
  if (positionals.length !== 2 && !(saved && positionals.length === 1))
    throw new UsageError(
      'request takes a target and a method, e.g. parallax request demo:prompts prompts/get --params \'{"name": "media_brief", "arguments": {"product": "a phone"}}\' (or a target and --from-frame FILE#SEQ)',
    )
  const [targetText, asked] = positionals
  if (saved && asked !== undefined && asked !== saved.method)
    throw new UsageError(
      `the method given (${asked}) is not the saved frame's (${saved.method} in ${saved.source}); leave it out to send the frame's`,
    )
  const method = saved?.method ?? asked
  const params = paramsFlag(values.params) ?? saved?.params
  if (saved) await confirmSavedRequest(saved, values.yes)
  const timeout = wholeNumber(values.timeout, '--timeout', 100)
  const logLevel = logLevelFlag(values['log-level'])
  const client = await clientFlags(values)
  const target = withAuthFlags(withClientFlags(await resolveTarget(targetText, values.config), client), values)
  if (target.spec.kind === 'a2a') throw new UsageError(`${targetText} is an A2A agent: request sends MCP requests (use converse for A2A)`)

  const host = cliHost({
    progress: (line) => {
      if (!values.json) process.stderr.write(`${visibleText(line)}\n`)
    },
    yes: values.yes,
    configFile: values.config,
    defaults: { requestTimeoutMs: timeout, reconnectAttempts: 0, keepaliveIntervalMs: 3_600_000 },
  })
  const say = (line: string) => {
    if (!values.json) process.stderr.write(`${visibleText(line)}\n`)
  }
  const serverLog = listenToServer(host, say)
  const progress = listenToProgress(host, say)
  const serverRequests = listenToServerRequests(host, say)
  let logLevelOutcome: LogLevelOutcome | undefined
  try {
    const connectionId = await connectOrExplain(host, target, 'session', client.profile)
    if (logLevel) logLevelOutcome = await applyLogLevel(host, connectionId, logLevel, say)
    const answer = await cancelOnInterrupt(
      host,
      connectionId,
      () => host.invoke('connections.request', { connectionId, method, params }),
      say,
    )
    const failed = answer.outcome !== 'result' || (method === 'tools/call' && turnFailure(answer.result) !== undefined)
    if (values.json)
      printJson({
        format: REQUEST_FORMAT,
        target: targetName(target),
        ...jsonAnswer(answer, params),
        progress: progress.lines(),
        ...(logLevelOutcome && { logLevel: logLevelOutcome }),
        serverLog: serverLog(),
        serverRequests: serverRequests(),
      })
    else writeAnswer(answer, say)
    return failed ? 1 : 0
  } finally {
    await host.close()
  }
}

function paramsFlag(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined
  let params: unknown
  try {
    params = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`--params is not valid JSON: ${(error as Error).message}`)
  }
  if (!params || typeof params !== 'object' || Array.isArray(params))
    throw new UsageError('--params must be a JSON object (the request’s params)')
  return params as Record<string, unknown>
}

/** The answer as the JSON object has it: the result, or `rpcError` (the server's JSON-RPC error), or why no answer came. */
function jsonAnswer(answer: RequestAnswer, params: Record<string, unknown> | undefined): Record<string, unknown> {
  const { method, requestId, durationMs, problems } = answer
  const common = { method, ...(params && { params }), requestId, outcome: answer.outcome, durationMs, ...(problems && { problems }) }
  if (answer.outcome === 'result') return { ...common, result: answer.result }
  if (answer.outcome === 'error') return { ...common, rpcError: answer.error }
  return { ...common, reason: answer.reason }
}

/** The answer as a person reads it: the result (or the server's error) on stdout as JSON; no answer said on stderr. */
function writeAnswer(answer: RequestAnswer, say: (line: string) => void): void {
  for (const problem of answer.problems ?? []) say(`the result breaks the MCP schema for ${answer.method}: ${problem}`)
  if (answer.outcome === 'result') {
    process.stdout.write(`${visibleText(JSON.stringify(answer.result, null, 2))}\n`)
    const failure = answer.method === 'tools/call' ? turnFailure(answer.result) : undefined
    if (failure) say(failure)
  } else if (answer.outcome === 'error') {
    const data = answer.error.data !== undefined ? `\n${JSON.stringify(answer.error.data, null, 2)}` : ''
    process.stdout.write(visibleText(`JSON-RPC error ${answer.error.code}: ${answer.error.message}${data}\n`))
  } else say(`no answer (${answer.outcome}): ${answer.reason}`)
}

/** Progress the server reports on requests of this run, said as it comes and kept for the JSON object. */
function listenToProgress(host: CliHost, say: (line: string) => void): { lines: () => ProgressLine[] } {
  const lines: ProgressLine[] = []
  host.onEvents((events) => {
    for (const e of events) {
      if (e.type !== 'frame' || e.direction !== 'in' || e.method !== 'notifications/progress') continue
      const { progress, total, message } = (e.payload as { params?: Partial<ProgressLine> }).params ?? {}
      lines.push({ progress, ...(total !== undefined && { total }), ...(message !== undefined && { message }) })
      const share =
        typeof progress === 'number' && typeof total === 'number' && total > 0 ? ` (${Math.round((progress / total) * 100)}%)` : ''
      say(
        `progress ${String(progress)}${total !== undefined ? ` of ${String(total)}` : ''}${share}${typeof message === 'string' ? `: ${message}` : ''}`,
      )
    }
  })
  return { lines: () => lines }
}

/** While the answer is awaited, Ctrl+C cancels the request (notifications/cancelled) instead of leaving it running; a second one quits. */
async function cancelOnInterrupt(
  host: CliHost,
  connectionId: string,
  ask: () => Promise<RequestAnswer>,
  say: (line: string) => void,
): Promise<RequestAnswer> {
  let requestId: string | number | undefined
  host.onEvents((events) => {
    for (const e of events) {
      const meta = e.type === 'conversation' ? e.message.metadata : undefined
      const asked = meta?.kind === 'call' || meta?.kind === 'request' ? meta.requestId : undefined
      if (typeof asked === 'string' || typeof asked === 'number') requestId = asked
    }
  })
  const interrupt = () => {
    if (requestId === undefined) process.exit(130)
    say('cancelling the request (notifications/cancelled); Ctrl+C again to quit')
    void host
      .invoke('connections.cancel', { connectionId, requestId, reason: 'cancelled from the command line (Ctrl+C)' })
      .then(({ cancelled }) => cancelled || say('the request was no longer waiting for its answer'))
    process.once('SIGINT', () => process.exit(130))
  }
  process.once('SIGINT', interrupt)
  try {
    return await ask() // asked once listening: the request's id is in the events it makes at once
  } finally {
    process.removeListener('SIGINT', interrupt)
  }
}

function targetName(target: SavedTarget): string {
  return target.origin === 'demo' ? target.id : target.name
}
