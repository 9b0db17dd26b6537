import type { LogEvent, ParallaxApi, SavedTarget, TargetRef } from '../shared/contract'
import { join } from 'node:path'
import { Engine, type EngineOptions } from '../shared/engine/engine'
import { builtInDemos } from '../shared/demo/builtIns'
import { UsageError } from './usage'
import { dataDir } from './web'
import { cliApprover } from './approve'

/**
 * The CLI's host: an engine in this process, driven through the same command API as every other host
 * (typed, answers whole: the CLI writes out what it gets).
 */
export interface CliHost extends ParallaxApi {
  /** Closes every connection the commands opened: no child process or timer outlives the command. */
  close(): Promise<void>
}

/** The CLI's engine: no saved targets, but the approvals the user granted (in the app or an earlier run), and a terminal to ask on. */
export function cliHost({ yes, configFile, ...options }: Omit<EngineOptions, 'host'> & { yes: boolean; configFile?: string }): CliHost {
  const engine = new Engine({
    host: 'cli',
    builtIns: builtInDemos(),
    approvalsFile: join(dataDir(), 'approvals.json'),
    approver: cliApprover({ yes, configFile }),
    recordToFiles: true,
    ...options,
  })
  return {
    invoke: (command, input) => engine.invoke(command, input),
    onEvents: (listener) => engine.events.subscribe((event) => listener([event])),
    close: () => engine.dispose(),
  }
}

/** A target as commands name it: a demo (every engine has them) by id; any other is given whole, unsaved. */
export function targetRef(target: SavedTarget): { targetId: string } | { target: TargetRef['target'] } {
  return target.origin === 'demo' ? { targetId: target.id } : { target: { ...target, origin: target.origin } }
}

/** Opens a connection for a CLI command, or fails with one line saying why (exit 2), stderr included. */
export async function connectOrExplain(host: CliHost, target: SavedTarget): Promise<string> {
  const { connectionId } = await host.invoke('connections.open', targetRef(target))
  const outcome = await host.invoke('connections.wait', { connectionId })
  if (outcome.connected) return connectionId
  const events = await host.invoke('events.since', { afterSeq: 0 })
  const stderr = events.filter((e): e is LogEvent => e.connectionId === connectionId && e.type === 'log' && e.source === 'stderr').slice(-3)
  const hint = stderr.length ? ` (server stderr: ${stderr.map((e) => e.text).join(' | ')})` : ''
  throw new UsageError(`cannot connect to ${target.name}: ${outcome.reason ?? 'unknown error'}${hint}`)
}

/** A whole number from a flag (a count, or milliseconds), within bounds. */
export function wholeNumber(text: string | undefined, flag: string, min: number, max = 3_600_000): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}`)
  return n
}
