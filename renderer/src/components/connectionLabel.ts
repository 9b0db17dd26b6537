import type { ConnectionOwner, ObservedBy } from '../../../shared/contract'
import type { ConnectionView } from '../store/connectionView'
import { timeOfDay } from './format'

const PURPOSES: Record<ConnectionOwner['purpose'], string> = {
  session: 'your session',
  compare: 'compare',
  replay: 'replay',
  recording: 'recording',
  tap: 'observed · tap',
}

/**
 * A connection as lists name it: "Demo agent · your session · 12:44:02", "Demo agent · replay r2 · 12:45:10";
 * a past session opened from History: "Demo agent · past session · 12:44:02".
 */
export function connectionLabel(view: Pick<ConnectionView, 'targetName' | 'owner' | 'past'>): string {
  const purpose = view.past && view.owner.purpose === 'session' ? 'past session' : `${view.past ? 'past ' : ''}${purposeLabel(view.owner)}`
  return `${view.targetName} · ${purpose} · ${timeOfDay(view.owner.startedAt)}`
}

/** What a connection is for, in words: "your session", "replay r2 B", "compare c1 A (minimal)", "observed · tap · Claude Code 2.1". */
export function purposeLabel(owner: ConnectionOwner): string {
  const host = owner.observed && hostLabel(owner.observed)
  return [PURPOSES[owner.purpose], owner.by, owner.side, host && `· ${host}`].filter(Boolean).join(' ')
}

/** The host of an observed session as it named itself in the handshake ("Cursor 1.2.3"), or undefined before it did. */
export function hostLabel(observed: ObservedBy): string | undefined {
  return observed.host && [observed.host.name, observed.host.version].filter(Boolean).join(' ')
}

/** What a tap relays: the server's command (stdio), or where it listens and where to (HTTP). */
export function tappedWhat(observed: ObservedBy): string {
  if (observed.via === 'http') return `${observed.listen ?? 'a local address'} → ${observed.upstream ?? 'its upstream'}`
  return observed.command ?? 'a stdio server'
}
