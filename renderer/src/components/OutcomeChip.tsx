import type { ReplayOutcome } from '../../../shared/contract'

/**
 * How a turn ended, in the one vocabulary both protocols share (to an AdCP agent, AdCP's task status, which
 * parity compares); the protocol's own word is detail beside it.
 */
export function OutcomeChip({ value }: { value: ReplayOutcome }) {
  const word = value.adcpStatus ?? value.outcome
  return (
    <span
      className={`state-chip ${word}`}
      title={`${value.adcpStatus ? "AdCP's task status; " : ''}the protocol said "${value.state}"`}
      data-testid="turn-outcome"
    >
      {value.adcpStatus && <span className="muted">AdCP </span>}
      {word}
      {value.state !== word && <span className="muted"> · {value.state}</span>}
    </span>
  )
}
