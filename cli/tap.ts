import { basename, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { describeSpec, redactArgs, type Protocol } from '../shared/contract'
import { now } from '../shared/runtime/clock'
import { guardProcess } from '../shared/runtime/faultScope'
import { ensurePrivateDir } from '../shared/runtime/privateFiles'
import { ObservedSession } from '../shared/tap/observedSession'
import { StdioRelay } from '../shared/tap/stdioRelay'
import { TapLog } from '../shared/tap/tapLog'
import { tapHttp } from './tapHttp'
import { UsageError } from './usage'
import { dataDir } from './web'

/** The signals a host ends its server with: passed to the server, whose exit the tap then takes as its own. */
const PASSED_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']

/**
 * `parallax tap [--name NAME] [--record FILE] [--protocol mcp|acp] -- COMMAND [ARGS…]`: runs a stdio server
 * for a host (which puts this where its config had the command), relays its stdin, stdout and stderr byte
 * for byte, and keeps the session in the data folder (the app shows it live, or later) and, with
 * `--record`, in a recording. The server's exit is the tap's: its code, or its signal.
 */
export async function tap(argv: string[]): Promise<number> {
  const end = argv.indexOf('--')
  const flags = end === -1 ? argv : argv.slice(0, end)
  if (flags.some((flag) => flag === '--listen' || flag.startsWith('--listen='))) return tapHttp(argv)
  if (end === -1) throw new UsageError("give the server's command after --: parallax tap [--name NAME] -- COMMAND [ARGS…]")
  const { values } = parseArgs({
    args: argv.slice(0, end),
    options: {
      name: { type: 'string' },
      record: { type: 'string' },
      protocol: { type: 'string' },
      'secret-key': { type: 'string', multiple: true, default: [] },
    },
  })
  const [command, ...args] = argv.slice(end + 1)
  if (!command) throw new UsageError("give the server's command after --")
  if (values.protocol !== undefined && values.protocol !== 'mcp' && values.protocol !== 'acp')
    throw new UsageError("--protocol is mcp or acp (without it, the host's first message says which)")
  const protocol = values.protocol as Protocol | undefined
  const name = values.name ?? basename(command)
  const commandLine = describeSpec({ kind: 'mcp-stdio', command, args: redactArgs(args), env: {} })

  await ensurePrivateDir(dataDir()).catch(() => {})
  const connectionId = `tap-${process.pid}`
  const say = (line: string) => process.stderr.write(`parallax tap: ${line}\n`)
  // A fault in Parallax's own work is said once; the host's session goes on as if the tap were not there.
  let faulted = false
  const unguard = guardProcess((fault) => {
    if (!faulted) say(`a fault in reading the session (${String((fault.reason as Error)?.message ?? fault.reason)}); relaying goes on`)
    faulted = true
  })
  const log = new TapLog({
    sessionsDir: join(dataDir(), 'sessions'),
    connectionId,
    secretKeys: values['secret-key'],
    ...(values.record && {
      record: {
        path: resolve(values.record),
        name,
        spec: (p: Protocol) => ({ kind: p === 'acp' ? ('acp' as const) : ('mcp-stdio' as const), command, args, env: {}, mcpServers: [] }),
      },
    }),
    onFailure: (why) => say(`${why} (relaying goes on)`),
  })
  const session = new ObservedSession({
    connectionId,
    name,
    transport: 'stdio',
    ...(protocol && { protocol }),
    observed: { via: 'stdio', command: commandLine, pid: process.pid },
    emit: (event) => log.emit(event),
    spill: log.spill,
  })
  // Said at once, so the session is on disk (and in a running app) before the host says anything.
  log.emit({ type: 'log', connectionId, source: 'engine', level: 'info', text: `parallax tap: relaying ${commandLine}` })

  let relay: StdioRelay
  try {
    relay = new StdioRelay({
      command,
      args,
      input: process.stdin,
      output: process.stdout,
      errors: process.stderr,
      watcher: {
        message: (way, message, ts, wire) => session.message(way, message, ts, wire),
        garbage: (way, text, ts) => session.garbage(way, text, ts),
        stderr: (line, ts) => session.stderr(line, ts),
      },
    })
  } catch (error) {
    session.end(now(), { failed: `the server could not be started: ${(error as Error).message}` })
    log.close()
    throw error
  }
  relay.onWatcherFailure = (error) => say(`reading the session failed (${(error as Error).message}); relaying goes on`)
  const pass = (signal: NodeJS.Signals) => () => relay.signal(signal)
  const handlers = PASSED_SIGNALS.map((signal) => [signal, pass(signal)] as const)
  for (const [signal, handler] of handlers) process.on(signal, handler)

  let exit: { code: number | null; signal: NodeJS.Signals | null }
  try {
    exit = await relay.exited
  } catch (error) {
    const why = `${commandLine} could not be started: ${(error as Error).message}`
    session.end(now(), { failed: why })
    log.close()
    for (const [signal, handler] of handlers) process.off(signal, handler)
    throw new UsageError(why)
  }
  const how = exit.signal ? `ended by ${exit.signal}` : `exited with code ${exit.code}`
  session.end(now(), {
    ...(exit.code === 0 || exit.signal ? { reason: `the server ${how}` } : { failed: `the server ${how}` }),
    exit,
  })
  log.close()
  for (const [signal, handler] of handlers) process.off(signal, handler)
  unguard()
  process.stdin.pause()
  process.stdin.unref?.()
  if (exit.signal) {
    // Ended by a signal: so is the tap, as the host would have seen the server end.
    process.kill(process.pid, exit.signal)
    return 128 + (SIGNAL_NUMBERS[exit.signal] ?? 15)
  }
  return exit.code ?? 0
}

const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }
