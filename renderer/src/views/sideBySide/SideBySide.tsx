import { useVirtualizer } from '@tanstack/react-virtual'
import { useMemo, useRef } from 'react'
import type { ConversationEvent } from '../../../../shared/contract'
import { MessageView } from '../../components/ConversationTimeline'
import { PageHeader } from '../../components/PageHeader'
import { openSideBySide, showTargetPage } from '../../store/actions'
import { connectionLabel, connectionNumber, isSession, type ConnectionView } from '../../store/connectionView'
import { useStore } from '../../store/store'

/** Two connections' conversations next to each other, one row per turn, so the same turn lines up. */
export function SideBySide({ left, right }: { left?: string; right?: string }) {
  const connections = useStore((s) => s.connections)
  // The user's sessions first, then what features opened; newest first within each.
  const views = Object.values(connections).sort((a, b) => Number(isSession(b)) - Number(isSession(a)) || b.openedAt - a.openedAt)
  const a = left ? connections[left] : undefined
  const b = right ? connections[right] : undefined
  const choose = (side: 'left' | 'right', id: string) => openSideBySide({ left, right, [side]: id || undefined })
  return (
    <section className="main" aria-label="Side by side">
      <PageHeader
        title="Side by side"
        sub="Two conversations aligned by turn, e.g. the same agent over MCP and over A2A."
        onClose={showTargetPage}
      />
      <div className="sbs-pickers">
        <Picker label="Left" value={left} views={views} onChange={(id) => choose('left', id)} />
        <Picker label="Right" value={right} views={views} onChange={(id) => choose('right', id)} />
      </div>
      {a && b ? (
        <AlignedTurns a={a} b={b} />
      ) : (
        <div className="panel">
          <div className="empty">
            <h2>Pick two connections</h2>
            <p>
              Open two targets (say the demo media-sales agent over MCP and over A2A), talk to each in its Conversation tab, then pick them
              here.
            </p>
          </div>
        </div>
      )}
    </section>
  )
}

function Picker({
  label,
  value,
  views,
  onChange,
}: {
  label: string
  value?: string
  views: ConnectionView[]
  onChange: (id: string) => void
}) {
  // Two connections that would read the same (opened in the same second) are told apart by number.
  const labels = new Map(views.map((v) => [v.id, connectionLabel(v)]))
  const seen = new Map<string, number>()
  for (const label of labels.values()) seen.set(label, (seen.get(label) ?? 0) + 1)
  return (
    <label className="sbs-picker">
      <span className="muted">{label}</span>
      <select className="input" value={value ?? ''} onChange={(e) => onChange(e.target.value)} aria-label={`${label} connection`}>
        <option value="">choose a connection…</option>
        {views.map((v) => (
          <option key={v.id} value={v.id}>
            {`${labels.get(v.id)}${seen.get(labels.get(v.id)!)! > 1 ? ` ${connectionNumber(v.id)}` : ''} · ${v.protocol.toUpperCase()} · ${v.state} · ${v.conversation.length} message(s)`}
          </option>
        ))}
      </select>
    </label>
  )
}

function byTurn(events: ConversationEvent[]): Map<number, ConversationEvent[]> {
  const turns = new Map<number, ConversationEvent[]>()
  for (const e of events) {
    const turn = e.message.metadata?.turn ?? 0
    let list = turns.get(turn)
    if (!list) turns.set(turn, (list = []))
    list.push(e)
  }
  return turns
}

function AlignedTurns({ a, b }: { a: ConnectionView; b: ConnectionView }) {
  const scroller = useRef<HTMLDivElement>(null)
  // The conversations only grow: their lengths say when to regroup.
  const rows = useMemo(() => {
    const left = byTurn(a.conversation)
    const right = byTurn(b.conversation)
    const turns = [...new Set([...left.keys(), ...right.keys()])].sort((x, y) => x - y)
    return turns.map((turn) => ({ turn, left: left.get(turn) ?? [], right: right.get(turn) ?? [] }))
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the conversations only grow (appended in place): their lengths say when
  }, [a.conversation.length, b.conversation.length, a.id, b.id])
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => 160, overscan: 4 })
  return (
    <div className="sbs" data-testid="side-by-side">
      <div className="sbs-head">
        <ColumnTitle view={a} />
        <ColumnTitle view={b} />
      </div>
      <div ref={scroller} className="timeline">
        {rows.length === 0 ? (
          <div className="empty">Neither conversation has a turn yet.</div>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = rows[item.index]
              return (
                <div
                  key={row.turn}
                  ref={virtualizer.measureElement}
                  data-index={item.index}
                  className="sbs-row"
                  style={{ transform: `translateY(${item.start}px)` }}
                  data-turn={row.turn}
                >
                  <div className="turn-label">Turn {row.turn}</div>
                  <div className="sbs-cells">
                    <Cell events={row.left} />
                    <Cell events={row.right} />
                  </div>
                </div>
              )
            })}
          </div>
        )}
      </div>
    </div>
  )
}

function ColumnTitle({ view }: { view: ConnectionView }) {
  const protocol = view.protocol.toUpperCase()
  return (
    <span>
      {view.targetName}
      {!view.targetName.includes(protocol) && <span className="muted"> ({protocol})</span>}
    </span>
  )
}

function Cell({ events }: { events: ConversationEvent[] }) {
  if (events.length === 0) return <div className="sbs-cell muted">no turn</div>
  return (
    <div className="sbs-cell">
      {events.map((e) => (
        <MessageView key={e.seq} message={e.message} />
      ))}
    </div>
  )
}
