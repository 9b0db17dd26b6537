import { useState, type ReactNode } from 'react'
import { AgentText } from './Name'
import './jsonView.css'

const PAGE = 100
const LONG_STRING = 2_000

/**
 * A collapsible JSON tree. Everything is rendered as text (React escapes it), so agent-supplied
 * strings never execute, and their hidden characters (a bidirectional override, a zero-width space) are
 * shown as `⟨U+XXXX⟩`, as in every agent-supplied name. Deep or large values render lazily: nodes below `openDepth` start closed,
 * arrays and objects show the first 100 entries, and long strings are cut until asked.
 */
export function JsonView({ value, openDepth = 2 }: { value: unknown; openDepth?: number }) {
  return (
    <div className="json">
      <Node value={value} depth={0} openDepth={openDepth} />
    </div>
  )
}

function Node({
  value,
  depth,
  openDepth,
  label,
  comma,
}: {
  value: unknown
  depth: number
  openDepth: number
  label?: ReactNode
  comma?: boolean
}) {
  const prefix = label !== undefined ? <>{label}: </> : null
  const tail = comma ? ',' : ''
  if (value === null || typeof value !== 'object') {
    return (
      <div>
        {prefix}
        <Scalar value={value} />
        {tail}
      </div>
    )
  }
  return <Branch value={value as object} depth={depth} openDepth={openDepth} prefix={prefix} tail={tail} />
}

function Branch({
  value,
  depth,
  openDepth,
  prefix,
  tail,
}: {
  value: object
  depth: number
  openDepth: number
  prefix: ReactNode
  tail: string
}) {
  const [open, setOpen] = useState(depth < openDepth)
  const [shown, setShown] = useState(PAGE)
  const isArray = Array.isArray(value)
  const entries = isArray ? (value as unknown[]).map((v, i) => [i, v] as const) : Object.entries(value)
  const [start, end] = isArray ? ['[', ']'] : ['{', '}']
  if (entries.length === 0) {
    return (
      <div>
        {prefix}
        {start}
        {end}
        {tail}
      </div>
    )
  }
  const toggle = (
    <button className="toggle" onClick={() => setOpen(!open)} aria-label={open ? 'collapse' : 'expand'}>
      {open ? '▾' : '▸'}
    </button>
  )
  if (!open) {
    return (
      <div>
        {toggle}
        {prefix}
        {start}
        <button className="more" onClick={() => setOpen(true)}>
          {`${entries.length} ${isArray ? (entries.length === 1 ? 'item' : 'items') : entries.length === 1 ? 'key' : 'keys'}`}
        </button>
        {end}
        {tail}
      </div>
    )
  }
  return (
    <div>
      {toggle}
      {prefix}
      {start}
      <div className="nest">
        {entries.slice(0, shown).map(([key, child], i) => (
          <Node
            key={key}
            value={child}
            depth={depth + 1}
            openDepth={openDepth}
            label={isArray ? undefined : <AgentText value={JSON.stringify(key)} className="k" />}
            comma={i < entries.length - 1}
          />
        ))}
        {entries.length > shown && (
          <button className="more" onClick={() => setShown(shown + PAGE * 10)}>
            … {entries.length - shown} more
          </button>
        )}
      </div>
      {end}
      {tail}
    </div>
  )
}

/** How the engine marks a string it cut for size (the whole value stays in its frame). */
const CUT_MARKER = /… \[Parallax cut [^\]]*\]$/

function Scalar({ value }: { value: unknown }) {
  const [full, setFull] = useState(false)
  if (typeof value === 'string') {
    if (value.length > LONG_STRING && !full) {
      // A string the engine cut says so at its end: show that note even while the string is folded.
      const cut = CUT_MARKER.exec(value.slice(-1_000))?.[0]
      return (
        <>
          <AgentText value={JSON.stringify(value.slice(0, LONG_STRING))} className="s" />
          <button className="more" onClick={() => setFull(true)}>
            {' '}
            … {value.length - LONG_STRING - (cut?.length ?? 0)} more characters
          </button>
          {cut && (
            <span className="muted" data-testid="cut-note">
              {' '}
              {cut.slice(2)}
            </span>
          )}
        </>
      )
    }
    return <AgentText value={JSON.stringify(value)} className="s" />
  }
  if (typeof value === 'number') return <span className="n">{String(value)}</span>
  return <span className="l">{String(value)}</span>
}
