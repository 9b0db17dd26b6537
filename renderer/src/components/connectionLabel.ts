import type { ConnectionOwner } from '../../../shared/contract'
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

/** What a connection is for, in words: "your session", "replay r2 B", "compare c1 A (minimal)". */
export function purposeLabel(owner: ConnectionOwner): string {
  return [PURPOSES[owner.purpose], owner.by, owner.side].filter(Boolean).join(' ')
}
