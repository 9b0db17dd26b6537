import type { ReplayOutcome, ReplaySummary, TurnParity } from '../contract'
import { safeStringify } from '../runtime/safeJson'

/** A turn as a report shows it: what was asked, its status, both outcomes and the diff (its connections and frames stay in the app). */
export type ReportTurn = Pick<TurnParity, 'index' | 'status' | 'turn' | 'a' | 'b' | 'errors' | 'reason' | 'diff'>

export interface ParityReportInput {
  /** What was replayed: a recording's name or file. */
  recording: string
  /** A and B: two targets, or the recording and one target. */
  sides: { a: string; b: string }
  turns: ReportTurn[]
  summary: ReplaySummary
  generatedAt?: Date
}

/** Several recordings' parity on one page (a CI run over a library): a section each, and the total. */
export interface ParityLibraryReportInput {
  recordings: Omit<ParityReportInput, 'generatedAt'>[]
  /** Every recording's turns together. */
  summary: ReplaySummary
  generatedAt?: Date
}

const STYLE = `
:root { color-scheme: light dark; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --muted: #656d76; --border: #d0d7de; --panel: #f6f8fa; }
@media (prefers-color-scheme: dark) { :root { --ok: #3fb950; --bad: #f85149; --warn: #d29922; --muted: #8b949e; --border: #30363d; --panel: #161b22; } }
body { font: 14px/1.5 system-ui, sans-serif; margin: 24px auto; max-width: 1100px; padding: 0 16px; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 28px 0 4px; overflow-wrap: anywhere; } .muted { color: var(--muted); }
.summary { display: flex; gap: 12px; flex-wrap: wrap; margin: 12px 0 20px; }
.badge { display: inline-block; padding: 1px 9px; border-radius: 999px; border: 1px solid var(--border); font-size: 12px; font-weight: 600; }
.same { color: var(--ok); } .differs, .removed, .breaking { color: var(--bad); } .error, .changed, .added { color: var(--warn); } .skipped { color: var(--muted); }
details { border: 1px solid var(--border); border-radius: 8px; margin: 8px 0; background: var(--panel); }
summary { cursor: pointer; padding: 8px 12px; display: flex; gap: 10px; align-items: baseline; }
.body { padding: 0 12px 12px; } .sides { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; font: 12px/1.45 ui-monospace, monospace; margin: 4px 0; padding: 8px; border: 1px solid var(--border); border-radius: 6px; background: Canvas; max-height: 360px; overflow: auto; }
table { border-collapse: collapse; width: 100%; font-size: 12px; } td, th { text-align: left; padding: 3px 6px; border-top: 1px solid var(--border); vertical-align: top; }
td.path { font-family: ui-monospace, monospace; white-space: nowrap; }
section { border-top: 2px solid var(--border); margin-top: 24px; }
`

/**
 * A report as one self-contained HTML page a reviewer can open anywhere: no script, no external
 * resource, and a CSP that forbids loading anything. `title` and `body` are HTML already escaped.
 */
export function reportPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style>${STYLE}</style></head>
<body>
${body}
</body></html>
`
}

/**
 * A replay's parity as one self-contained HTML file a reviewer can open anywhere: the summary, every
 * turn with its badge, the inline diff and both outcomes. No script, no external resource; every string
 * that came from an agent or a recording is escaped. Several recordings (`recordings`) make one page: the
 * total first, then a section per recording.
 */
export function parityReportHtml(input: ParityReportInput | ParityLibraryReportInput): string {
  const when = escape((input.generatedAt ?? new Date()).toISOString())
  if ('recordings' in input) return libraryReport(input, when)
  const { summary, sides } = input
  const turns = input.turns.map((turn) => turnHtml(turn, sides)).join('\n')
  return reportPage(
    `Parity: ${escape(input.recording)}`,
    `<h1>Parity of ${escape(input.recording)}</h1>
<div class="muted">A: ${escape(sides.a)} · B: ${escape(sides.b)} · ${summary.total} turn(s) · ${when} · Parallax</div>
<div class="summary">${counts(summary)}</div>
${turns}`,
  )
}

function libraryReport({ recordings, summary }: ParityLibraryReportInput, when: string): string {
  const overview = recordings.length
    ? `<table><tr><th>recording</th><th>A</th><th>B</th><th>turns</th><th>same</th><th>differs</th><th>error</th><th>skipped</th></tr>${recordings
        .map(
          (r) =>
            `<tr><td>${escape(r.recording)}</td><td>${escape(r.sides.a)}</td><td>${escape(r.sides.b)}</td><td>${r.summary.total}</td>` +
            `<td class="same">${r.summary.same}</td><td class="differs">${r.summary.differs}</td><td class="error">${r.summary.errors}</td><td class="skipped">${r.summary.skipped}</td></tr>`,
        )
        .join('')}</table>`
    : '<div class="muted">No recording was replayed.</div>'
  const sections = recordings.map(
    (r) => `<section data-recording="${escape(r.recording)}">
<h2>${escape(r.recording)}</h2>
<div class="muted">A: ${escape(r.sides.a)} · B: ${escape(r.sides.b)} · ${r.summary.total} turn(s)</div>
<div class="summary">${counts(r.summary)}</div>
${r.turns.map((turn) => turnHtml(turn, r.sides)).join('\n')}
</section>`,
  )
  return reportPage(
    `Parity: ${recordings.length} recording(s)`,
    `<h1>Parity of ${recordings.length} recording(s)</h1>
<div class="muted">${summary.total} turn(s) · ${when} · Parallax</div>
<div class="summary">${counts(summary)}</div>
${overview}
${sections.join('\n')}`,
  )
}

function counts(summary: ReplaySummary): string {
  return (['same', 'differs', 'error', 'skipped'] as const)
    .map((status) => `<span class="badge ${status}">${summary[status === 'error' ? 'errors' : status]} ${status}</span>`)
    .join(' ')
}

function turnHtml(turn: ReportTurn, sides: { a: string; b: string }): string {
  const open = turn.status === 'differs' || turn.status === 'error' ? ' open' : ''
  const diff = turn.diff.length
    ? `<table><tr><th>path</th><th>A</th><th>B</th></tr>${turn.diff
        .map((d) => `<tr><td class="path">${escape(d.path)}</td><td>${escape(json(d.a))}</td><td>${escape(json(d.b))}</td></tr>`)
        .join('')}</table>`
    : ''
  const errors = Object.entries(turn.errors ?? {})
    .map(([side, message]) => `<div class="error">${side.toUpperCase()}: ${escape(message ?? '')}</div>`)
    .join('')
  return `<details${open} data-turn="${turn.index}" data-status="${turn.status}">
<summary><span class="badge ${turn.status}">${turn.status}</span> <b>turn ${turn.index}</b> <span>${escape(describeTurn(turn))}</span>${adcpStatuses(turn)}${turn.reason ? ` <span class="muted">${escape(turn.reason)}</span>` : ''}</summary>
<div class="body">${errors}${diff}
<div class="sides"><div><div class="muted">A · ${escape(sides.a)}</div>${outcome(turn.a)}</div><div><div class="muted">B · ${escape(sides.b)}</div>${outcome(turn.b)}</div></div>
</div></details>`
}

/** An AdCP agent's turn: how each side ended in AdCP's task-status vocabulary, which parity compared. */
function adcpStatuses(turn: ReportTurn): string {
  if (turn.a?.adcpStatus === undefined && turn.b?.adcpStatus === undefined) return ''
  const word = (o: ReplayOutcome | undefined) => escape(o?.adcpStatus ?? '(none)')
  return ` <span class="adcp" data-adcp-a="${word(turn.a)}" data-adcp-b="${word(turn.b)}">AdCP task status: A ${word(turn.a)} · B ${word(turn.b)}</span>`
}

function describeTurn(turn: ReportTurn): string {
  const t = turn.turn
  return t.kind === 'call' ? `${t.tool}(${json(t.arguments)})` : t.kind === 'data' ? json(t.data) : t.text
}

function outcome(o: ReplayOutcome | undefined): string {
  return o ? `<pre>${escape(pretty(o))}</pre>` : '<pre class="muted">(none)</pre>'
}

/** A value as indented JSON (one line, cut where it must be, when it is nested too deeply to indent). */
export function pretty(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? ''
  } catch {
    return safeStringify(value, 64)
  }
}

/** A value as one line of JSON (nothing for undefined). */
export function json(value: unknown): string {
  return value === undefined ? '' : safeStringify(value)
}

/** Text as HTML text: nothing in it can open a tag, an attribute or an entity. */
export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}
