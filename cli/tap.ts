import { basename, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { describeSpec, redactArgs, type Protocol } from '../shared/contract'
import { now } from '../shared/runtime/clock'
import { ensurePrivateDir } from '../shared/runtime/privateFiles'
import { Holds } from '../shared/tap/holds'
import { StdioRelay } from '../shared/tap/stdioRelay'
import { TapReader } from '../shared/tap/tapReader'
import { tapHttp } from './tapHttp'
import { breakpointsOf, holdInFlight, HOLD_OPTIONS } from './tapHolds'
import { tapInstall } from './tapInstall'
import { tapVoice } from './tapVoice'
import { UsageError } from './usage'
import { dataDir } from './web'

/** The signals a host ends its server with: passed to the server, whose exit the tap then takes as its own. */
const PASSED_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']

/**
 * `parallax tap [--name NAME] [--record FILE] [--protocol mcp|acp] [--hold …] -- COMMAND [ARGS…]`: runs a stdio
 * server for a host (which puts this where its config had the command), relays its stdin, stdout and stderr
 * byte for byte, and keeps the session in the data folder (the app shows it live, or later) and, with
 * `--record`, in a recording — read on a thread of its own, so the relay never waits on it. The server's exit
 * is the tap's: its code, or its signal. `parallax tap install|uninstall …`: cli/tapInstall.ts.
 */
export async function tap(argv: string[]): Promise<number> {
  if (argv[0] === 'install' || argv[0] === 'uninstall') return tapInstall(argv.slice(1), argv[0])
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
      ...HOLD_OPTIONS,
    },
  })
  const [command, ...args] = argv.slice(end + 1)
  if (!command) throw new UsageError("give the server's command after --")
  if (values.protocol !== undefined && values.protocol !== 'mcp' && values.protocol !== 'acp')
    throw new UsageError("--protocol is mcp or acp (without it, the host's first message says which)")
  const protocol = values.protocol as Protocol | undefined
  breakpointsOf(values) // flags checked before anything starts
  const commandLine = describeSpec({ kind: 'mcp-stdio', command, args: redactArgs(args), env: {} })

  const { say, unguard } = tapVoice()
  await ensurePrivateDir(dataDir()).catch(() => {})
  const reader = new TapReader(
    {
      connectionId: `tap-${process.pid}`,
      name: values.name ?? basename(command),
      ...(protocol && { protocol }),
      observed: { via: 'stdio', command: commandLine, pid: process.pid },
      sessionsDir: join(dataDir(), 'sessions'),
      ...(values.record && { record: { path: resolve(values.record), command, args } }),
      secretKeys: values['secret-key'],
    },
    (why) => say(`${why} (relaying goes on)`),
  )

  const holds: Holds = new Holds(
    (event) => reader.event(event),
    (way, line) => relay.send(way, line),
  )
  const relay: StdioRelay = new StdioRelay({
    command,
    args,
    input: process.stdin,
    output: process.stdout,
    errors: process.stderr,
    passed: (way, chunk, ts) => reader.passed(way, chunk, ts),
    gate: holds,
  })
  const control = holdInFlight(holds, values, () => reader.sessionDir)
  const handlers = PASSED_SIGNALS.map((signal) => [signal, () => relay.signal(signal)] as const)
  for (const [signal, handler] of handlers) process.on(signal, handler)
  const finish = async (how: Parameters<TapReader['end']>[1]) => {
    control.stop()
    holds.dispose()
    await reader.end(now(), how)
    for (const [signal, handler] of handlers) process.off(signal, handler)
    unguard()
    process.stdin.pause()
  }

  let exit: { code: number | null; signal: NodeJS.Signals | null }
  try {
    exit = await relay.exited
  } catch (error) {
    const why = `${commandLine} could not be started: ${(error as Error).message}`
    await finish({ failed: why })
    throw new UsageError(why)
  }
  const how = exit.signal ? `ended by ${exit.signal}` : `exited with code ${exit.code}`
  await finish({ ...(exit.code === 0 || exit.signal ? { reason: `the server ${how}` } : { failed: `the server ${how}` }), exit })
  if (exit.signal) {
    // Ended by a signal: so is the tap, as the host would have seen the server end.
    process.kill(process.pid, exit.signal)
    return 128 + (SIGNAL_NUMBERS[exit.signal] ?? 15)
  }
  return exit.code ?? 0
}

const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }
