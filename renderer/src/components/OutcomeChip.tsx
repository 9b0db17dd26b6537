import type { ReplayOutcome } from '../../../shared/contract'

/** How a turn ended, in the one vocabulary both protocols share; the protocol's own word is detail beside it. */
export function OutcomeChip({ value }: { value: ReplayOutcome }) {
  return (
    <span className={`state-chip ${value.outcome}`} title={`the protocol said "${value.state}"`} data-testid="turn-outcome">
      {value.outcome}
      {value.state !== value.outcome && <span className="muted"> · {value.state}</span>}
    </span>
  )
}
