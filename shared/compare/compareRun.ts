import type { ClientProfile, CompareResult, ConnectionOwner, SavedTarget } from '../contract'
import type { EventLog } from '../runtime/eventLog'
import type { SupervisedConnection } from '../runtime/supervisedConnection'
import { compareSnapshots, snapshotOf, type OperationPairing } from './compare'

/** What a compare needs of the engine: connections of its own, and the event log their discovery is read from. */
export interface CompareHost {
  readonly events: Pick<EventLog, 'eventsOf'>
  /** A connection owned by this compare (never the user's session). */
  createConnection(
    target: SavedTarget,
    profile: ClientProfile | undefined,
    owner: Omit<ConnectionOwner, 'startedAt'>,
  ): Promise<SupervisedConnection>
  /** Why a connection could not open, as the error the compare's caller sees. */
  connectFailure(connection: SupervisedConnection): Error
}

/** One side of a compare: a target, under a client profile (its own without one). */
export interface CompareSide {
  target: SavedTarget
  profile?: ClientProfile
}

/**
 * Connects each side (its own connection, under its profile, owned by this compare — `by` — never the user's
 * session), waits until discovery has settled, and diffs what the two exposed. The connections (and their
 * processes) close afterwards, whatever happened; their frames stay. `prompt` (ACP): sent on each ACP side
 * once it settled, so the compare shows the tools the agent used, not only what it exposed.
 */
export async function compareSides(
  host: CompareHost,
  by: string,
  a: CompareSide,
  b: CompareSide,
  pairing?: OperationPairing,
  prompt?: string,
): Promise<CompareResult> {
  const sides: SupervisedConnection[] = []
  try {
    for (const [side, { target, profile }] of [['A', a] as const, ['B', b] as const])
      sides.push(
        await host.createConnection(target, profile, { purpose: 'compare', by, side: profile ? `${side} (${profile.name})` : side }),
      )
    const opened = await Promise.all(sides.map((c) => c.open()))
    opened.forEach((ok, i) => {
      if (!ok) throw host.connectFailure(sides[i])
    })
    await Promise.all(sides.map((c) => c.settled()))
    if (prompt) await Promise.all(sides.filter((c) => c.protocol === 'acp').map((c) => c.sendTurn({ text: prompt })))
    const [snapshotA, snapshotB] = sides.map((side) => snapshotOf(host.events.eventsOf(side.id), side.id))
    const report = compareSnapshots(snapshotA, snapshotB, pairing)
    const describe = (i: number, profile?: ClientProfile) => ({
      targetId: sides[i].target.id,
      targetName: sides[i].target.name,
      ...(profile && { profile: profile.name }),
      connectionId: sides[i].id,
    })
    return { a: describe(0, a.profile), b: describe(1, b.profile), ...report }
  } finally {
    await Promise.all(sides.map((c) => c.close()))
  }
}
