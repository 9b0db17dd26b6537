import { parseArgs } from 'node:util'
import { visibleText, type ListedSession } from '../shared/contract'
import { cliHost } from './connect'
import { printJson } from './failure'
import { UsageError } from './usage'

export const SESSIONS_FORMAT = 'parallax.sessions/1'

/**
 * `parallax sessions [--target ID] [--json]`: every session kept in the data folder (each connection's whole life,
 * written as it happened), newest first. `parallax sessions export ID --out FILE [--from TIME] [--to TIME]`: one of
 * them (or the part between two times) as a recording. `parallax sessions delete ID`: one of them gone.
 */
export async function sessions(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      target: { type: 'string' },
      out: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  })
  const [action = 'list', id, ...rest] = positionals
  if (rest.length) throw new UsageError(`sessions ${action} takes one session id`)
  const host = cliHost({ yes: false })
  try {
    if (action === 'list') {
      if (id) throw new UsageError('sessions lists every session: give --target ID to list one target’s')
      const listed = await host.invoke('sessions.list', { ...(values.target && { targetId: values.target }) })
      if (values.json) printJson({ format: SESSIONS_FORMAT, sessions: listed })
      else process.stdout.write(visibleText(formatList(listed)))
      return 0
    }
    if (!id) throw new UsageError(`sessions ${action} takes a session id (parallax sessions lists them)`)
    if (action === 'export') {
      if (!values.out) throw new UsageError('sessions export needs --out FILE: where to write the recording')
      const saved = await host.invoke('sessions.export', {
        sessionId: id,
        path: values.out,
        ...(values.from && { from: time(values.from, '--from') }),
        ...(values.to && { to: time(values.to, '--to') }),
      })
      if (values.json) printJson({ format: SESSIONS_FORMAT, exported: { id, path: values.out, events: saved.events } })
      else process.stdout.write(`wrote ${saved.events.toLocaleString()} events of session ${id} to ${values.out}\n`)
      return 0
    }
    if (action === 'delete') {
      await host.invoke('sessions.delete', { sessionId: id })
      if (values.json) printJson({ format: SESSIONS_FORMAT, deleted: id })
      else process.stdout.write(`deleted session ${id}\n`)
      return 0
    }
    throw new UsageError(`sessions knows list, export and delete, not "${action}"`)
  } finally {
    await host.close()
  }
}

/** A time as the user gives it: an ISO date-time, or epoch milliseconds. */
function time(text: string, flag: string): number {
  const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text)
  if (!Number.isFinite(ms)) throw new UsageError(`${flag} is a time: an ISO date-time (2026-11-26T12:00:00Z) or epoch milliseconds`)
  return ms
}

function formatList(listed: ListedSession[]): string {
  if (listed.length === 0) return 'no sessions kept yet: every connection Parallax opens is kept here as it happens\n'
  const lines = listed.map((s) => {
    const when = new Date(s.startedAt).toISOString().replace('T', ' ').slice(0, 19)
    const took = `${((s.endedAt ?? s.lastEventAt) - s.startedAt) / 1000}`
    const how = s.running ? 'running' : s.ended === 'cut-short' ? 'cut short' : (s.ended ?? 'unknown')
    return `${s.id}  ${when}  ${Number(took).toFixed(1).padStart(8)} s  ${String(s.events).padStart(9)} events  ${how.padEnd(9)}  ${s.targetName} (${s.owner?.purpose ?? 'session'})`
  })
  return `${lines.join('\n')}\n`
}
