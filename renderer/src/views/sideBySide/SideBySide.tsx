import { useVirtualizer } from '@tanstack/react-virtual'
import { useMemo, useRef, useState } from 'react'
import {
  compareTurn,
  eventsByTurn,
  recogniseAdcp,
  type ConversationEvent,
  type ParityTurn,
  type ReplayOutcome,
  type TurnComparison,
  visibleName,
} from '../../../../shared/contract'
import { MessageView } from '../../components/ConversationTimeline'
import { DiffList } from '../../components/DiffList'
import { AgentText, Name } from '../../components/Name'
import { OutcomeChip } from '../../components/OutcomeChip'
import { PageHeader } from '../../components/PageHeader'
import { openSideBySide, showTargetPage } from '../../store/actions'
import { connectionLabel } from '../../components/connectionLabel'
import { connectionNumber, isSession, type ConnectionView } from '../../store/connectionView'
import { useStore } from '../../store/store'
import { SharedTimeline, turnStarts } from '../connection/timeline/SharedTimeline'
import './sideBySide.css'

/** Two connections' conversations next to each other, one row per turn, so the same turn lines up. */
export function SideBySide({ left, right }: { left?: string; right?: string }) {
  const connections = useStore((s) => s.connections)
  // The user's sessions first, then what features opened; newest first within each.
  const views = Object.values(connections).sort((a, b) => Number(isSession(b)) - Number(isSession(a)) || b.openedAt - a.openedAt)
  const a = left ? connections[left] : undefined
  const b = right ? connections[right] : undefined
  const choose = (side: 'left' | 'right', id: string) => openSideBySide({ left, right, [side]: id || undefined })
  const [mode, setMode] = useState<'turns' | 'timeline'>('turns')
  return (
    <section className="main" aria-label="Side by side">
      <PageHeader
        title="Side by side"
        sub="Two conversations aligned by turn, e.g. the same agent over MCP and over A2A, or both sessions on one time axis."
        onClose={showTargetPage}
      />
      <div className="sbs-pickers">
        <Picker label="Left" value={left} views={views} onChange={(id) => choose('left', id)} />
        <Picker label="Right" value={right} views={views} onChange={(id) => choose('right', id)} />
      </div>
      {a && b ? (
        <>
          <div className="tabs sbs-mode" role="tablist" aria-label="Show">
            {(['turns', 'timeline'] as const).map((m) => (
              <button
                key={m}
                role="tab"
                aria-selected={mode === m}
                className={`tab${mode === m ? ' active' : ''}`}
                onClick={() => setMode(m)}
              >
                {m === 'turns' ? 'Turns' : 'On one time axis'}
              </button>
            ))}
          </div>
          {mode === 'turns' ? (
            <AlignedTurns a={a} b={b} />
          ) : (
            <div className="panel fill">
              <SharedTimeline
                name={`${connectionLabel(a)}-vs-${connectionLabel(b)}`}
                sides={[a, b].map((v, i) => ({
                  connectionId: v.id,
                  title: `${i === 0 ? 'Left' : 'Right'} · ${visibleName(connectionLabel(v))}`,
                  turns: turnStarts(v),
                }))}
              />
            </div>
          )}
        </>
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
  const labels = new Map(views.map((v) => [v.id, visibleName(connectionLabel(v))]))
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

type Row = TurnComparison & { left: ConversationEvent[]; right: ConversationEvent[] }

const STATUS_LABEL: Record<TurnComparison['status'], string> = {
  same: 'same',
  differs: 'differs',
  'only-a': 'only left',
  'only-b': 'only right',
  pending: 'waiting',
}

/**
 * The two conversations turn by turn, each turn badged as replay badges it (same, differs, only one
 * side) with the inline diff of the outcomes, by the same rules (`compareTurn` in the contract).
 */
function AlignedTurns({ a, b }: { a: ConnectionView; b: ConnectionView }) {
  const scroller = useRef<HTMLDivElement>(null)
  const [onlyDiffering, setOnlyDiffering] = useState(false)
  // To an AdCP agent on either side, turns compare in AdCP's task statuses (as replay compares them).
  const adcp = isAdcpAgent(a) || isAdcpAgent(b)
  // A turn is compared again only when one of its sides has more events than when it was last compared;
  // another pair of connections (or learning that one is an AdCP agent) starts afresh.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the ids are what says the cache no longer applies
  const compared = useMemo(() => new Map<number, { left: number; right: number; comparison: TurnComparison }>(), [a.id, b.id, adcp])
  // The conversations only grow: their lengths say when to regroup.
  const { rows, outside } = useMemo(() => {
    const left = eventsByTurn(a.conversation)
    const right = eventsByTurn(b.conversation)
    const turns = [...new Set([...left.keys(), ...right.keys()])].sort((x, y) => x - y)
    const inTurns = (grouped: Map<number, ConversationEvent[]>) => [...grouped.values()].reduce((n, list) => n + list.length, 0)
    const outside = a.conversation.length - inTurns(left) + b.conversation.length - inTurns(right)
    const aligned = turns.map((turn): Row => {
      const l = left.get(turn) ?? []
      const r = right.get(turn) ?? []
      let known = compared.get(turn)
      if (!known || known.left !== l.length || known.right !== r.length)
        compared.set(turn, (known = { left: l.length, right: r.length, comparison: compareTurn(turn, l, r, undefined, adcp) }))
      return { ...known.comparison, left: l, right: r }
    })
    return { rows: aligned, outside }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the conversations only grow (appended in place): their lengths say when
  }, [a.conversation.length, b.conversation.length, compared])
  const shown = useMemo(() => (onlyDiffering ? rows.filter((row) => row.status !== 'same') : rows), [rows, onlyDiffering])
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 160,
    overscan: 4,
  })
  const count = (...statuses: TurnComparison['status'][]) => rows.filter((row) => statuses.includes(row.status)).length
  const waiting = count('pending')
  return (
    <div className="sbs" data-testid="side-by-side">
      <div className="sbs-summary" data-testid="sbs-summary">
        <Chip n={count('same')} label="same" tone="completed" />
        <Chip n={count('differs')} label="differ" tone="input-required" />
        <Chip n={count('only-a', 'only-b')} label="only one side" tone="input-required" />
        {waiting > 0 && <Chip n={waiting} label="waiting" tone="" />}
        {outside > 0 && (
          <span className="muted" title="Requests that are not calls (prompts/get, resources/read, …) belong to no turn">
            {outside} message(s) outside turns, not compared
          </span>
        )}
        <span className="spacer" />
        <label className="muted" title="Hide the turns that came out the same on both sides">
          <input type="checkbox" checked={onlyDiffering} onChange={(e) => setOnlyDiffering(e.target.checked)} /> Only differing turns
        </label>
      </div>
      <div className="sbs-head">
        <ColumnTitle view={a} />
        <ColumnTitle view={b} />
      </div>
      <div ref={scroller} className="timeline">
        {rows.length === 0 ? (
          <div className="empty">Neither conversation has a turn yet.</div>
        ) : shown.length === 0 ? (
          <div className="empty">Every turn came out the same on both sides.</div>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = shown[item.index]
              return (
                <div
                  key={row.turn}
                  ref={virtualizer.measureElement}
                  data-index={item.index}
                  className={`sbs-row ${row.status}`}
                  style={{ transform: `translateY(${item.start}px)` }}
                  data-turn={row.turn}
                  data-status={row.status}
                >
                  <div className="turn-label">
                    Turn {row.turn}
                    <span
                      className={`status ${row.status.startsWith('only') ? 'only' : row.status}`}
                      data-testid="turn-status"
                      title={row.status === 'pending' ? 'a side has asked and not heard back yet' : undefined}
                    >
                      {STATUS_LABEL[row.status]}
                    </span>
                  </div>
                  {row.asked && (
                    <div className="muted sbs-asked" data-testid="asked-differently">
                      Asked differently: <AgentText value={describeTurn(row.asked.a)} /> · <AgentText value={describeTurn(row.asked.b)} />
                    </div>
                  )}
                  {row.diff.length > 0 && (
                    <DiffList diff={row.diff.map(({ path, op, a, b }) => ({ path, op, from: a, to: b }))} testId="turn-diff" />
                  )}
                  <div className="sbs-cells">
                    <Cell events={row.left} outcome={row.a} />
                    <Cell events={row.right} outcome={row.b} />
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

function Chip({ n, label, tone }: { n: number; label: string; tone: string }) {
  return <span className={`state-chip ${n > 0 ? tone : ''}`}>{`${n} ${label}`}</span>
}

function describeTurn(turn: ParityTurn | undefined): string {
  if (!turn) return 'nothing asked'
  return turn.kind === 'call'
    ? `${turn.tool} ${JSON.stringify(turn.arguments)}`
    : turn.kind === 'data'
      ? JSON.stringify(turn.data)
      : turn.text
}

function isAdcpAgent(view: ConnectionView): boolean {
  return recogniseAdcp(view.handshake ? [view.handshake, ...view.discovery] : view.discovery) !== undefined
}

function ColumnTitle({ view }: { view: ConnectionView }) {
  const protocol = view.protocol.toUpperCase()
  return (
    <span>
      <Name value={view.targetName} />
      {!view.targetName.includes(protocol) && <span className="muted"> ({protocol})</span>}
    </span>
  )
}

function Cell({ events, outcome }: { events: ConversationEvent[]; outcome: ReplayOutcome | undefined }) {
  if (events.length === 0) return <div className="sbs-cell muted">no turn</div>
  return (
    <div className="sbs-cell">
      {outcome && (
        <div className="sbs-outcome">
          <OutcomeChip value={outcome} />
        </div>
      )}
      {events.map((e) => (
        <MessageView key={e.seq} message={e.message} connectionId={e.connectionId} />
      ))}
    </div>
  )
}
