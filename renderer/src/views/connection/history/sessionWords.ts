import type { ListedSession } from '../../../../../shared/contract'
import { purposeLabel } from '../../../components/connectionLabel'
import { timeOfDay } from '../../../components/format'

/** When a session started, as a person says it: "today 12:44:02", "yesterday 18:03:11", "Nov 24 09:12:40". */
export function whenStarted(ts: number, now = Date.now()): string {
  const day = (t: number) => new Date(t).toDateString()
  if (day(ts) === day(now)) return `today ${timeOfDay(ts)}`
  if (day(ts) === day(now - 86_400_000)) return `yesterday ${timeOfDay(ts)}`
  const date = new Date(ts).toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    year: new Date(ts).getFullYear() === new Date(now).getFullYear() ? undefined : 'numeric',
  })
  return `${date} ${timeOfDay(ts)}`
}

/** How long a session ran: "under a second", "42 s", "12 min 5 s", "3 h 04 min". */
export function howLong(ms: number): string {
  const s = Math.floor(ms / 1000)
  if (s < 1) return 'under a second'
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`
  return `${Math.floor(s / 3600)} h ${String(Math.floor(s / 60) % 60).padStart(2, '0')} min`
}

/** The session's end (or its last event, while it runs or when it was cut short). */
export function endOf(session: ListedSession): number {
  return session.endedAt ?? session.lastEventAt
}

/** How it ended, in a word or two: running, closed, failed, cut short. */
export function howItEnded(session: ListedSession): { text: string; tone: 'ok' | 'bad' | 'warn' | 'idle' } {
  if (session.running) return { text: 'running', tone: 'ok' }
  if (session.ended === 'failed') return { text: 'failed', tone: 'bad' }
  if (session.ended === 'cut-short' || !session.ended) return { text: 'cut short', tone: 'warn' }
  return { text: 'closed', tone: 'idle' }
}

/** Who it was: the user's own session, or a compare's, a replay's, a recording's. */
export function whose(session: ListedSession): string {
  return session.owner ? purposeLabel(session.owner) : 'your session'
}

/** Bytes as a person reads a folder's size: "820 KB", "63.4 MB", "2.1 GB". */
export function size(bytes: number): string {
  if (bytes < 1024 ** 2) return `${Math.max(1, Math.round(bytes / 1024))} KB`
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`
  return `${(bytes / 1024 ** 3).toFixed(bytes < 10 * 1024 ** 3 ? 2 : 1)} GB`
}
