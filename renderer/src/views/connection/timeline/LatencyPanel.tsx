import { visibleName, type LatencyRow } from '../../../../../shared/contract'
import { useStore } from '../../../store/store'
import { highlightSpans } from '../../../store/timelineActions'
import { spanDuration } from './axisTicks'
import { useLatency, type Window } from './timelineFetch'

/**
 * Latency at a glance, beside the axis: per method (and tool or skill) over the range shown (or brushed),
 * p50, p95 and max, and a small histogram whose buckets pick out their spans on the axis.
 */
export function LatencyPanel({ connectionId, window, revision }: { connectionId: string; window: Window | undefined; revision: number }) {
  const answer = useLatency(connectionId, window, revision)
  const highlight = useStore((s) => (s.timelineHighlight?.connectionId === connectionId ? s.timelineHighlight : undefined))
  const rows = answer.value?.rows ?? []
  return (
    <aside className="latency-panel" aria-label="Latency per method" data-testid="latency-panel">
      <div className="latency-head">
        <span>Latency</span>
        {highlight && (
          <button className="btn ghost small" onClick={() => highlightSpans(undefined)}>
            Clear selection
          </button>
        )}
      </div>
      {answer.error && !answer.value && <div className="muted">Latency could not be read: {answer.error}</div>}
      {!answer.error && rows.length === 0 && (
        <div className="muted">{answer.value ? 'No answered requests in this range.' : 'Reading…'}</div>
      )}
      {rows.map((row) => (
        <LatencyRowView key={`${row.method}|${row.subject ?? ''}`} row={row} connectionId={connectionId} highlight={highlight} />
      ))}
    </aside>
  )
}

function LatencyRowView({
  row,
  connectionId,
  highlight,
}: {
  row: LatencyRow
  connectionId: string
  highlight: ReturnType<typeof useStore.getState>['timelineHighlight']
}) {
  const most = Math.max(1, ...row.histogram.counts)
  const name = `${row.method}${row.subject ? ` ${row.subject}` : ''}`
  return (
    <div className="latency-row" data-method={row.method} data-subject={row.subject}>
      <div className="latency-name" title={visibleName(name)}>
        {visibleName(row.method)}
        {row.subject && <span className="subject"> · {visibleName(row.subject)}</span>}
        <span className="muted">
          {' '}
          ×{row.count.toLocaleString()}
          {row.errors > 0 && <span className="bad"> · {row.errors} failed</span>}
        </span>
      </div>
      <div className="latency-figures mono">
        <span title="median">p50 {spanDuration(row.p50)}</span>
        <span title="95th percentile">p95 {spanDuration(row.p95)}</span>
        <span title="slowest">max {spanDuration(row.max)}</span>
      </div>
      <div className="histogram" role="group" aria-label={`${name}: latency histogram`}>
        {row.histogram.counts.map((count, i) => {
          const min = row.histogram.edges[i]
          const max = row.histogram.edges[i + 1] ?? Infinity
          const picked = highlight?.method === row.method && highlight.subject === row.subject && highlight.min === min
          return (
            <button
              key={i}
              className={`bucket${picked ? ' picked' : ''}`}
              disabled={count === 0}
              aria-pressed={picked}
              aria-label={`${count} between ${spanDuration(min)} and ${Number.isFinite(max) ? spanDuration(max) : 'more'}`}
              title={`${count} took ${spanDuration(min)} – ${Number.isFinite(max) ? spanDuration(max) : '…'}: click to pick them out on the axis`}
              onClick={() => highlightSpans(picked ? undefined : { connectionId, method: row.method, subject: row.subject, min, max })}
            >
              <span style={{ height: `${count ? Math.max(8, (count / most) * 100) : 0}%` }} />
            </button>
          )
        })}
      </div>
    </div>
  )
}
