import type { LogEvent, SavedTarget } from '../shared/contract'
import { join } from 'node:path'
import { Engine, type EngineOptions } from '../shared/engine/engine'
import { builtInDemos } from '../shared/demo/builtIns'
import type { SupervisedConnection } from '../shared/runtime/supervisedConnection'
import { UsageError } from './usage'
import { dataDir } from './web'
import { cliApprover } from './approve'

/** Opens a connection for a CLI command, or fails with one line saying why (exit 2), stderr included. */
export async function connectOrExplain(engine: Engine, target: SavedTarget): Promise<SupervisedConnection> {
  const connection = await engine.createConnection(target)
  if (await connection.open()) return connection
  const events = engine.events.since(0).filter((e) => e.connectionId === connection.id)
  const failed = events.findLast((e) => e.type === 'connection' && e.state === 'failed')
  const stderr = events.filter((e): e is LogEvent => e.type === 'log' && e.source === 'stderr').slice(-3)
  const hint = stderr.length ? ` (server stderr: ${stderr.map((e) => e.text).join(' | ')})` : ''
  throw new UsageError(`cannot connect to ${target.name}: ${failed && 'reason' in failed ? failed.reason : 'unknown error'}${hint}`)
}

/** A whole number from a flag (a count, or milliseconds), within bounds. */
export function wholeNumber(text: string | undefined, flag: string, min: number, max = 3_600_000): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}`)
  return n
}

/** The CLI's engine: no saved targets, but the approvals the user granted (in the app or an earlier run), and a terminal to ask on. */
export function cliEngine({ yes, configFile, ...options }: Omit<EngineOptions, 'host'> & { yes: boolean; configFile?: string }): Engine {
  return new Engine({ host: 'cli', builtIns: builtInDemos(), approvalsFile: join(dataDir(), 'approvals.json'), approver: cliApprover({ yes, configFile }), ...options })
}
