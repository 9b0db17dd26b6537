import {
  CommandError,
  LOG_LEVELS,
  visibleText,
  type ClientProfile,
  type LogLevel,
  type ParallaxApi,
  type SavedTarget,
  type TargetRef,
} from '../shared/contract'
import { join } from 'node:path'
import { Engine, type EngineOptions } from '../shared/engine/engine'
import { builtInDemos } from '../shared/demo/builtIns'
import { CliError } from './failure'
import { watchEngine } from './faults'
import { UsageError } from './usage'
import { dataDir } from './web'
import { cliApprover } from './approve'
import { FileSecretStore } from '../shared/auth/secretStore'
import { onDesktop, openSystemBrowser } from './openBrowser'

/**
 * The CLI's host: an engine in this process, driven through the same command API as every other host
 * (typed, answers whole: the CLI writes out what it gets).
 */
export interface CliHost extends ParallaxApi {
  /** Closes every connection the commands opened: no child process or timer outlives the command. */
  close(): Promise<void>
}

/**
 * How long a stdio server has to exit once a one-shot command is done with it (its stdin closed), and again
 * after SIGTERM: short, as the command's work is done and a CI job waits on it (`PARALLAX_EXIT_GRACE_MS`
 * sets it; the desktop and web hosts give 2 s).
 */
export const CLI_EXIT_GRACE_MS = 200

function exitGraceMs(): number {
  const text = process.env.PARALLAX_EXIT_GRACE_MS
  if (text === undefined || text === '') return CLI_EXIT_GRACE_MS
  const ms = Number(text)
  if (!Number.isInteger(ms) || ms < 0 || ms > 60_000)
    throw new UsageError('PARALLAX_EXIT_GRACE_MS must be a whole number of milliseconds from 0 to 60000')
  return ms
}

/**
 * The CLI's engine: no saved targets, but the approvals the user granted (in the app or an earlier run), a
 * terminal to ask on, the secret store of the data folder (a sign-in lasts beyond one command), the system
 * browser; each authorization step is said through `progress` (stderr). Where a person can sign in (a
 * desktop and a terminal), a server asking for more access mid-command opens the browser to sign in
 * again, and the request goes again once they have.
 */
export function cliHost({
  yes,
  configFile,
  progress,
  defaults,
  ...options
}: Omit<EngineOptions, 'host'> & { yes: boolean; configFile?: string; progress?: (line: string) => void }): CliHost {
  const person = canAskPerson()
  const engine = new Engine({
    host: 'cli',
    builtIns: builtInDemos(),
    approvalsFile: join(dataDir(), 'approvals.json'),
    // Every session a command opens is kept with the app's (parallax sessions, the History of each target).
    sessionsDir: join(dataDir(), 'sessions'),
    approver: cliApprover({ yes, configFile }),
    recordToFiles: true,
    secrets: new FileSecretStore(join(dataDir(), 'secrets.json')),
    openBrowser: openSystemBrowser,
    defaults: { exitGraceMs: exitGraceMs(), ...defaults },
    stepUpByPerson: person,
    ...options,
  })
  const unwatch = watchEngine(engine)
  const host: CliHost = {
    invoke: (command, input) => engine.invoke(command, input),
    onEvents: (listener) => engine.events.subscribe((event) => listener([event])),
    close: async () => {
      unwatch()
      await engine.dispose()
    },
  }
  engine.events.subscribe((event) => {
    if (event.type !== 'auth') return
    if (progress && event.step !== 'request') progress(`auth: ${event.summary}`)
    // A failed sign-in ends the step-up (the engine says why): the request that waited fails with it.
    if (event.step === 'more-access' && person)
      void signInWithBrowser(host, 'the server asks for more access: sign in again', event.connectionId).catch(() => {})
  })
  return host
}

/** A target as commands name it: a demo (every engine has them) by id; any other is given whole, unsaved. */
export function targetRef(target: SavedTarget): { targetId: string } | { target: TargetRef['target'] } {
  return target.origin === 'demo' ? { targetId: target.id } : { target: { ...target, origin: target.origin } }
}

/**
 * Opens a connection for a CLI command (the user's session, or a recording's own), or fails saying why
 * (exit 2): the engine's reason, and its cause whole (the command line, how the process ended and its
 * stderr; the HTTP answer; the address that refused; a fallback tried).
 */
export async function connectOrExplain(
  host: CliHost,
  target: SavedTarget,
  purpose: 'session' | 'recording' = 'session',
  /** The client profile to connect under (`--profile`): a preset's name, or one given whole. */
  profile?: string | ClientProfile,
): Promise<string> {
  const open = async () => {
    const { connectionId } = await host.invoke('connections.open', { ...targetRef(target), purpose, ...(profile && { profile }) })
    return { connectionId, outcome: await host.invoke('connections.wait', { connectionId }) }
  }
  let { connectionId, outcome } = await open()
  // The server wants a sign-in only a person can do: on a desktop, in the browser, then connect again.
  if (!outcome.connected && outcome.cause?.auth && canAskPerson()) {
    try {
      await signInWithBrowser(host, `sign in to ${target.name}`, connectionId)
    } catch (error) {
      throw new CliError(`cannot sign in to ${target.name}: ${(error as Error).message}`, 'connection')
    }
    ;({ connectionId, outcome } = await open())
  }
  if (outcome.connected) return connectionId
  // A stdio reason names the whole command line already.
  const what = target.spec.kind === 'mcp-stdio' ? 'cannot connect' : `cannot connect to ${target.name}`
  throw new CliError(`${what}: ${outcome.reason ?? 'unknown error'}`, outcome.approval ? 'approval' : 'connection', outcome.cause)
}

/** A person can sign in here: a desktop with a browser, and a terminal to say so on. */
function canAskPerson(): boolean {
  return onDesktop() && !!process.stderr.isTTY
}

/**
 * Signs in for a connection's target through the system browser and the loopback redirect (a step-up
 * waiting for the person, when there is one), saying where on stderr whatever --json says: the person needs it.
 */
async function signInWithBrowser(host: CliHost, what: string, connectionId: string): Promise<void> {
  const say = (line: string) => process.stderr.write(`${visibleText(line)}\n`)
  const begun = await host.invoke('auth.begin', { connectionId })
  if (begun.state === 'waiting' && begun.authorizationUrl) {
    say(`${what} in your browser (opening it); if it does not open, visit:\n  ${begun.authorizationUrl}`)
    await openSystemBrowser(begun.authorizationUrl).catch((error: Error) => say(error.message))
  }
  const status = await host.invoke('auth.wait', { flowId: begun.flowId })
  say(`signed in${status.grant?.scopes.length ? `: ${status.grant.scopes.join(' ')}` : ''}`)
}

/** What `--log-level` did: asked the server (`logging/setLevel`), or skipped, and why. */
export interface LogLevelOutcome {
  level: LogLevel
  sent: boolean
  /** Why it was not asked for (the server did not advertise `logging`; an A2A agent has no such thing). */
  skipped?: string
  /** The server's refusal, when it advertised `logging` but refused the level. */
  error?: string
}

/** The `--log-level` flag's value, checked against MCP's levels. */
export function logLevelFlag(text: string | undefined): LogLevel | undefined {
  if (text === undefined) return undefined
  if (!(LOG_LEVELS as readonly string[]).includes(text)) throw new UsageError(`--log-level is one of ${LOG_LEVELS.join(', ')}`)
  return text as LogLevel
}

/**
 * After connecting: asks the server for its log messages at `level` and above, when it advertised
 * `logging`; otherwise says it was skipped and why. Said on stderr as it happens (`progress`).
 */
export async function applyLogLevel(
  host: CliHost,
  connectionId: string,
  level: LogLevel,
  progress: (line: string) => void,
): Promise<LogLevelOutcome> {
  try {
    await host.invoke('connections.setLogLevel', { connectionId, level })
    progress(`log level: asked the server for "${level}" and above (logging/setLevel)`)
    return { level, sent: true }
  } catch (error) {
    if (!(error instanceof CommandError)) throw error
    if (error.code === 'invalid-input') {
      progress(`log level: skipped: ${error.message}`)
      return { level, sent: false, skipped: error.message }
    }
    progress(`log level: ${error.message}`)
    return { level, sent: true, error: error.message }
  }
}

/** A whole number from a flag (a count, or milliseconds), within bounds. */
export function wholeNumber(text: string | undefined, flag: string, min: number, max = 3_600_000): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}`)
  return n
}

/**
 * The server's own log messages (MCP notifications/message) as they come: each said as it arrives
 * (`progress`: stderr, unless --json), and the list, for the JSON object.
 */
export function listenToServer(host: CliHost, progress: (line: string) => void): () => ServerLogLine[] {
  const lines: ServerLogLine[] = []
  host.onEvents((events) => {
    for (const e of events) {
      if (e.type !== 'log' || e.source !== 'server') continue
      const line = { level: e.server?.level ?? e.level, ...(e.server?.logger && { logger: e.server.logger }), text: e.text }
      lines.push(line)
      progress(`server ${line.level}${line.logger ? ` [${line.logger}]` : ''}: ${line.text}`)
    }
  })
  return () => lines
}

/** One of the server's own log messages: its level as sent, its logger, its text. */
export interface ServerLogLine {
  level: string
  logger?: string
  text: string
}
