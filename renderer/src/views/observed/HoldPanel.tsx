import { useEffect, useState } from 'react'
import { MAX_HOLD_MS, visibleName, type HoldEvent, type TapBreakpoints } from '../../../../shared/contract'
import { JsonView } from '../../components/JsonView'
import type { ConnectionView } from '../../store/connectionView'
import { decideHold, setBreakpoints } from '../../store/tapActions'

/** What the form starts with: every message of the host's, held 30 seconds. */
const FIRST_FILTER: TapBreakpoints = { on: false, methods: [], tools: [], directions: ['out'], timeoutMs: 30_000 }

/**
 * Hold in flight (opt-in, off until the user turns it on): messages of the observed session that match a
 * filter (methods, tools, which way) are held by the tap, each until the user releases it, edits and releases
 * it, or drops it — or its time runs out and it goes on as it was. While the tap holds, a banner says so: the
 * host is waiting.
 */
export function HoldPanel({ view }: { view: ConnectionView }) {
  const live = view.state !== 'closed' && view.state !== 'failed'
  const told = view.hold.breakpoints
  const on = told?.on === true
  const held = Object.values(view.hold.held).sort((a, b) => (a.holdId ?? 0) - (b.holdId ?? 0))
  const [open, setOpen] = useState(false)
  if (!live && held.length === 0) return null
  return (
    <section className="hold-panel" aria-label="Hold in flight" data-testid="hold-panel">
      <div className="hold-head">
        <button className="btn ghost small" onClick={() => setOpen(!open)} aria-expanded={open || held.length > 0}>
          {open || held.length > 0 ? '▾' : '▸'} Hold in flight
        </button>
        <span className="muted">{on ? describe(told) : 'off: every message goes on as it comes'}</span>
      </div>
      {(open || on) && live && <BreakpointsForm view={view} told={told} />}
      {held.length > 0 && (
        <ul className="held-list" aria-label="Held messages">
          {held.map((event) => (
            <HeldMessage key={event.holdId} view={view} event={event} />
          ))}
        </ul>
      )}
    </section>
  )
}

/** Said loudly while the tap holds: the host is waiting on what the user decides. */
export function HoldBanner({ view }: { view: ConnectionView }) {
  const told = view.hold.breakpoints
  const held = Object.keys(view.hold.held).length
  if (!told?.on || view.state === 'closed' || view.state === 'failed') return null
  return (
    <div className="hold-banner" role="alert" data-testid="hold-banner">
      <strong>The tap is holding messages: the host waits.</strong> {describe(told)}
      {held > 0 && ` · ${held} held now`}
    </div>
  )
}

function BreakpointsForm({ view, told }: { view: ConnectionView; told: TapBreakpoints | undefined }) {
  const start = told ?? FIRST_FILTER
  const [methods, setMethods] = useState(start.methods.join(', '))
  const [tools, setTools] = useState(start.tools.join(', '))
  const [directions, setDirections] = useState<('out' | 'in')[]>(start.directions)
  const [seconds, setSeconds] = useState(String(start.timeoutMs / 1000))
  const [asking, setAsking] = useState(false)
  // What the user asked for, until the tap says it holds (or no longer holds) as asked.
  const [wanted, setWanted] = useState<boolean>()
  const waiting = wanted !== undefined && wanted !== (told?.on === true)
  const timeoutMs = Math.round(Number(seconds) * 1000)
  const problem =
    directions.length === 0
      ? 'hold the host’s messages, the server’s, or both'
      : !Number.isFinite(timeoutMs) || timeoutMs < 100 || timeoutMs > MAX_HOLD_MS
        ? `the timeout is between 0.1 and ${MAX_HOLD_MS / 1000} seconds`
        : undefined
  const send = async (on: boolean) => {
    setAsking(true)
    setWanted(on)
    if (!(await setBreakpoints(view.id, { on, methods: words(methods), tools: words(tools), directions, timeoutMs }))) setWanted(undefined)
    setAsking(false)
  }
  const toggle = (way: 'out' | 'in') => setDirections((d) => (d.includes(way) ? d.filter((w) => w !== way) : [...d, way]))
  return (
    <div className="hold-form">
      <label className="hold-switch">
        <input
          type="checkbox"
          checked={waiting ? wanted : told?.on === true}
          disabled={asking || !!problem}
          onChange={(e) => void send(e.target.checked)}
        />{' '}
        Hold matching messages
      </label>
      <label>
        Methods <input className="input" value={methods} onChange={(e) => setMethods(e.target.value)} placeholder="any, e.g. tools/call" />
      </label>
      <label>
        Tools <input className="input" value={tools} onChange={(e) => setTools(e.target.value)} placeholder="any, e.g. get_products" />
      </label>
      <span className="hold-ways">
        <label>
          <input type="checkbox" checked={directions.includes('out')} onChange={() => toggle('out')} /> the host&apos;s
        </label>
        <label>
          <input type="checkbox" checked={directions.includes('in')} onChange={() => toggle('in')} /> the server&apos;s
        </label>
      </span>
      <label>
        Release after <input className="input hold-seconds" value={seconds} onChange={(e) => setSeconds(e.target.value)} /> s
      </label>
      {told?.on && (
        <button className="btn small" disabled={asking || !!problem} onClick={() => void send(true)}>
          Apply
        </button>
      )}
      {problem && <span className="error-text">{problem}</span>}
      {waiting && <span className="muted">Asked: the tap says so once it {wanted ? 'holds' : 'no longer holds'}.</span>}
    </div>
  )
}

function HeldMessage({ view, event }: { view: ConnectionView; event: HoldEvent }) {
  const [editing, setEditing] = useState(false)
  const [text, setText] = useState(() => JSON.stringify(event.message, null, 2))
  const [busy, setBusy] = useState(false)
  const left = useCountdown(event.releaseAt)
  let edited: { value?: unknown; error?: string } = {}
  try {
    edited = { value: JSON.parse(text) as unknown }
  } catch (error) {
    edited = { error: (error as Error).message }
  }
  const decide = async (action: 'release' | 'drop', message?: unknown) => {
    setBusy(true)
    if (!(await decideHold(view.id, event.holdId!, action, message))) setBusy(false)
  }
  return (
    <li className="held" data-hold={event.holdId}>
      <div className="held-line">
        <span className={`dir ${event.direction}`}>{event.direction === 'out' ? '▲ host →' : '▼ server →'}</span>
        <span className="mono">{visibleName(event.method ?? 'a message')}</span>
        <span className="muted" data-testid="hold-countdown">
          goes on as it was in {left}
        </span>
        <span className="spacer" />
        <button className="btn small primary" disabled={busy} onClick={() => void decide('release')}>
          Release
        </button>
        <button className="btn small" disabled={busy} onClick={() => setEditing(!editing)}>
          Edit &amp; release
        </button>
        <button className="btn small danger" disabled={busy} onClick={() => void decide('drop')}>
          Drop
        </button>
      </div>
      {editing ? (
        <div className="held-editor">
          <textarea
            className="input mono"
            value={text}
            spellCheck={false}
            onChange={(e) => setText(e.target.value)}
            aria-label="The message to release (JSON)"
          />
          <div className="held-bar">
            <button
              className="btn small primary"
              disabled={busy || edited.error !== undefined}
              onClick={() => void decide('release', edited.value)}
            >
              Release edited
            </button>
            {edited.error !== undefined && <span className="error-text">Not JSON: {edited.error}</span>}
          </div>
        </div>
      ) : (
        <JsonView value={event.message} openDepth={4} />
      )}
    </li>
  )
}

/** Seconds until `at`, ticking. */
function useCountdown(at: number | undefined): string {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250)
    return () => clearInterval(timer)
  }, [])
  return at === undefined ? '—' : `${Math.max(0, Math.ceil((at - now) / 1000))} s`
}

function words(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((w) => w.trim())
    .filter(Boolean)
}

/** What the tap holds, in words: "tools/call of get_products · the host's · 30 s". */
function describe(b: TapBreakpoints | undefined): string {
  if (!b?.on) return ''
  const what = [...b.methods, ...b.tools.map((t) => `tools/call of ${t}`)].join(', ') || 'every message'
  const ways = b.directions.length === 2 ? 'both ways' : b.directions[0] === 'out' ? "the host's" : "the server's"
  return `holding ${what} · ${ways} · released after ${b.timeoutMs / 1000} s`
}
