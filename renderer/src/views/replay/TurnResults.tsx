import { useState } from 'react'
import type { ReplayOutcome, TurnParity } from '../../../../shared/contract'
import { DiffList } from '../../components/DiffList'
import { JsonView } from '../../components/JsonView'
import { AgentText, Name } from '../../components/Name'
import { OutcomeChip } from '../../components/OutcomeChip'
import { closeConnections, openSideBySide, showFrame } from '../../store/actions'
import { useStore, type ReplayState } from '../../store/store'

/** Where a replay stands: the two sides, turns done, how many were the same, differed, failed or were skipped. */
export function ParitySummary({ replay }: { replay: ReplayState }) {
  const s = replay.summary
  const done = replay.turns.length
  const count = (status: TurnParity['status']) => replay.turns.filter((t) => t.status === status).length
  return (
    <div className="replay-summary" data-testid="parity-summary">
      <span>
        <strong>
          <Name value={replay.sides?.a.label ?? ''} />
        </strong>{' '}
        vs{' '}
        <strong>
          <Name value={replay.sides?.b.label ?? ''} />
        </strong>
      </span>
      <span className="muted">
        {done} of {replay.total} turn(s){replay.finished ? (replay.stopped ? ' · stopped' : ' · done') : ''}
      </span>
      <Chip n={s?.same ?? count('same')} label="same" tone="completed" />
      <Chip n={s?.differs ?? count('differs')} label="differ" tone="input-required" />
      <Chip n={s?.errors ?? count('error')} label="error" tone="failed" />
      <Chip n={s?.skipped ?? count('skipped')} label="skipped" tone="" />
      <span className="spacer" />
      <ReplayConnections replay={replay} />
      {replay.sides?.a.connectionId && replay.sides.b.connectionId && (
        <button
          className="btn small"
          onClick={() => openSideBySide({ left: replay.sides!.a.connectionId, right: replay.sides!.b.connectionId })}
        >
          Conversations side by side
        </button>
      )}
    </div>
  )
}

/**
 * The replay's own connections: closed when it ends, unless the user asked to keep them; kept ones that
 * are still open can be closed from here (their frames stay readable either way).
 */
function ReplayConnections({ replay }: { replay: ReplayState }) {
  const ids = [replay.sides?.a.connectionId, replay.sides?.b.connectionId].filter((id): id is string => !!id)
  const open = useStore((s) => ids.filter((id) => s.connections[id] && !['closed', 'failed'].includes(s.connections[id].state)).join(' '))
  if (!replay.finished || !replay.keep) return null
  const live = open ? open.split(' ') : []
  return live.length ? (
    <button
      className="btn small"
      onClick={() => closeConnections(live)}
      data-testid="close-kept"
      title="Close the replay's connections and their processes"
    >
      Close {live.length} kept connection{live.length === 1 ? '' : 's'}
    </button>
  ) : (
    <span className="muted">connections closed</span>
  )
}

function Chip({ n, label, tone }: { n: number; label: string; tone: string }) {
  return <span className={`state-chip ${n > 0 ? tone : ''}`}>{`${n} ${label}`}</span>
}

function describe(turn: TurnParity['turn']): string {
  return turn.kind === 'call'
    ? `${turn.tool} ${JSON.stringify(turn.arguments)}`
    : turn.kind === 'data'
      ? JSON.stringify(turn.data)
      : turn.text
}

/** The recording's turns, each with its parity once replayed; the first that differs opens by itself. */
export function TurnTable({ turns, replay }: { turns: { index: number; turn: TurnParity['turn'] }[]; replay: ReplayState | undefined }) {
  const [open, setOpen] = useState<number>()
  const results = new Map(replay?.turns.map((t) => [t.index, t]))
  return (
    <div className="replay-turns" data-testid="replay-turns">
      {turns.map(({ index, turn }) => {
        const result = results.get(index)
        const expanded =
          open === index ||
          (open === undefined && result?.status === 'differs' && [...results.values()].find((r) => r.status === 'differs')?.index === index)
        return (
          <div
            key={index}
            className={`replay-row ${result?.status ?? 'pending'}`}
            data-turn={index}
            data-status={result?.status ?? 'pending'}
          >
            <button className="replay-row-head" onClick={() => setOpen(expanded ? -1 : index)}>
              <span className="muted">{index}</span>
              <AgentText value={describe(turn)} className="mono replay-turn" />
              <span className={`status ${result?.status ?? 'pending'}`}>{result?.status ?? 'pending'}</span>
            </button>
            {expanded && result && <TurnDetail result={result} replay={replay!} />}
          </div>
        )
      })}
    </div>
  )
}

function TurnDetail({ result, replay }: { result: TurnParity; replay: ReplayState }) {
  return (
    <div className="replay-detail">
      {result.reason && <div className="muted">{result.reason}</div>}
      {result.diff.length > 0 && (
        <DiffList diff={result.diff.map(({ path, op, a, b }) => ({ path, op, from: a, to: b }))} testId="turn-diff" />
      )}
      <div className="cols">
        <SideResult
          label={replay.sides?.a.label}
          turn={`Turn ${result.index} · A`}
          connectionId={result.connections.a}
          frames={result.frames?.a}
          error={result.errors?.a}
          value={result.a}
        />
        <SideResult
          label={replay.sides?.b.label}
          turn={`Turn ${result.index} · ${result.connections.a ? 'B' : replay.sides?.b.label}`}
          connectionId={result.connections.b}
          frames={result.frames?.b}
          error={result.errors?.b}
          value={result.b}
        />
      </div>
    </div>
  )
}

/** What one side (A or B) answered to a turn, or its error, with a way to that turn's frames (in a drawer over the replay). */
function SideResult({
  label,
  turn,
  connectionId,
  frames,
  error,
  value,
}: {
  label: string | undefined
  turn: string
  connectionId: string | undefined
  frames: { from: number; to: number } | undefined
  error: string | undefined
  value: ReplayOutcome | undefined
}) {
  return (
    <div className="card">
      <h3>
        {label !== undefined && <Name value={label} />}
        {value && <OutcomeChip value={value} />}
        <span className="spacer" />
        {connectionId && (
          <button
            className="btn small"
            onClick={() => showFrame(connectionId, undefined, { range: frames, title: turn })}
            title={frames ? 'This turn’s frames on this side' : 'This side’s frames'}
          >
            Frames
          </button>
        )}
      </h3>
      {error ? <div className="error-text">{error}</div> : <JsonView value={value} openDepth={3} />}
    </div>
  )
}
