import type { ReplayOutcome, ReplaySummary, TurnParity } from '../contract'
import { safeStringify } from '../runtime/safeJson'

export interface ParityReportInput {
  /** What was replayed: a recording's name or file. */
  recording: string
  /** A and B: two targets, or the recording and one target. */
  sides: { a: string; b: string }
  turns: TurnParity[]
  summary: ReplaySummary
  generatedAt?: Date
}

const STYLE = `
:root { color-scheme: light dark; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --muted: #656d76; --border: #d0d7de; --panel: #f6f8fa; }
@media (prefers-color-scheme: dark) { :root { --ok: #3fb950; --bad: #f85149; --warn: #d29922; --muted: #8b949e; --border: #30363d; --panel: #161b22; } }
body { font: 14px/1.5 system-ui, sans-serif; margin: 24px auto; max-width: 1100px; padding: 0 16px; }
h1 { font-size: 20px; margin: 0 0 4px; } .muted { color: var(--muted); }
.summary { display: flex; gap: 12px; flex-wrap: wrap; margin: 12px 0 20px; }
.badge { display: inline-block; padding: 1px 9px; border-radius: 999px; border: 1px solid var(--border); font-size: 12px; font-weight: 600; }
.same { color: var(--ok); } .differs { color: var(--bad); } .error { color: var(--warn); } .skipped { color: var(--muted); }
details { border: 1px solid var(--border); border-radius: 8px; margin: 8px 0; background: var(--panel); }
summary { cursor: pointer; padding: 8px 12px; display: flex; gap: 10px; align-items: baseline; }
.body { padding: 0 12px 12px; } .sides { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; font: 12px/1.45 ui-monospace, monospace; margin: 4px 0; padding: 8px; border: 1px solid var(--border); border-radius: 6px; background: Canvas; max-height: 360px; overflow: auto; }
table { border-collapse: collapse; width: 100%; font-size: 12px; } td, th { text-align: left; padding: 3px 6px; border-top: 1px solid var(--border); vertical-align: top; }
td.path { font-family: ui-monospace, monospace; white-space: nowrap; }
`

/**
 * A replay's parity as one self-contained HTML file a reviewer can open anywhere: the summary, every
 * turn with its badge, the inline diff and both outcomes. No script, no external resource; every string
 * that came from an agent or a recording is escaped.
 */
export function parityReportHtml(input: ParityReportInput): string {
  const { summary, sides } = input
  const counts = (['same', 'differs', 'error', 'skipped'] as const)
    .map((status) => `<span class="badge ${status}">${summary[status === 'error' ? 'errors' : status]} ${status}</span>`)
    .join(' ')
  const turns = input.turns.map((turn) => turnHtml(turn, sides)).join('\n')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Parity: ${escape(input.recording)}</title><style>${STYLE}</style></head>
<body>
<h1>Parity of ${escape(input.recording)}</h1>
<div class="muted">A: ${escape(sides.a)} · B: ${escape(sides.b)} · ${summary.total} turn(s) · ${escape((input.generatedAt ?? new Date()).toISOString())} · Parallax</div>
<div class="summary">${counts}</div>
${turns}
</body></html>
`
}

function turnHtml(turn: TurnParity, sides: { a: string; b: string }): string {
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
<summary><span class="badge ${turn.status}">${turn.status}</span> <b>turn ${turn.index}</b> <span>${escape(describeTurn(turn))}</span>${turn.reason ? ` <span class="muted">${escape(turn.reason)}</span>` : ''}</summary>
<div class="body">${errors}${diff}
<div class="sides"><div><div class="muted">A · ${escape(sides.a)}</div>${outcome(turn.a)}</div><div><div class="muted">B · ${escape(sides.b)}</div>${outcome(turn.b)}</div></div>
</div></details>`
}

function describeTurn(turn: TurnParity): string {
  const t = turn.turn
  return t.kind === 'call' ? `${t.tool}(${json(t.arguments)})` : t.kind === 'data' ? json(t.data) : t.text
}

function outcome(o: ReplayOutcome | undefined): string {
  return o ? `<pre>${escape(pretty(o))}</pre>` : '<pre class="muted">(none)</pre>'
}

function pretty(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? ''
  } catch {
    return safeStringify(value, 64) // nested too deeply to indent: one line, cut where it must be
  }
}

function json(value: unknown): string {
  return value === undefined ? '' : safeStringify(value)
}

/** Text as HTML text: nothing in it can open a tag, an attribute or an entity. */
export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}
