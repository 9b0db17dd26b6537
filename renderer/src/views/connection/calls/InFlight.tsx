import { useEffect, useState } from 'react'
import { duration } from '../../../components/format'
import { Name } from '../../../components/Name'
import { cancelRequest } from '../../../store/actions'
import type { ConnectionView } from '../../../store/connectionView'
import type { InFlight } from '../../../store/requests'
import './inFlight.css'

/**
 * The user's requests still waiting for their answer: what each is, how long it has waited, the progress
 * the server reported (a bar, with its message) or that progress was asked for and none came yet, and
 * Cancel (`notifications/cancelled`).
 */
export function InFlightList({ view }: { view: ConnectionView }) {
  const flying = Object.values(view.requests.inFlight)
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (flying.length === 0) return
    const timer = setInterval(() => setNow(Date.now()), 250)
    return () => clearInterval(timer)
  }, [flying.length])
  if (flying.length === 0) return null
  return (
    <div className="in-flight" data-testid="in-flight">
      {flying.map((request) => (
        <InFlightRow key={String(request.requestId)} view={view} request={request} now={now} />
      ))}
    </div>
  )
}

function InFlightRow({ view, request, now }: { view: ConnectionView; request: InFlight; now: number }) {
  const progress = request.progress
  const share = progress?.total ? Math.min(1, Math.max(0, progress.progress / progress.total)) : undefined
  const live = view.state === 'connected' || view.state === 'degraded'
  return (
    <div className={`in-flight-row${request.cancelling ? ' cancelling' : ''}`} data-request-id={String(request.requestId)}>
      <div className="in-flight-head">
        <span className="spinner" aria-hidden />
        <span className="mono">{request.method}</span>
        {request.subject && <Name value={request.subject} className="mono" />}
        <span className="muted">
          request {String(request.requestId)} · waiting {(Math.max(0, now - request.startedAt) / 1000).toFixed(1)} s
        </span>
        <span className="spacer" />
        <button
          className="btn small danger"
          disabled={request.cancelling || !live}
          onClick={() => cancelRequest(view.id, request.requestId)}
          title="Stop waiting and tell the server (notifications/cancelled)"
        >
          {request.cancelling ? 'Cancelling…' : 'Cancel'}
        </button>
      </div>
      {progress ? (
        <div className="progress-line" data-testid="progress">
          <div
            className={`progress-bar${share === undefined ? ' indeterminate' : ''}`}
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={progress.total}
            aria-valuenow={progress.progress}
          >
            <div style={{ width: share === undefined ? undefined : `${(share * 100).toFixed(1)}%` }} />
          </div>
          <span className="progress-text">
            {progress.progress}
            {progress.total !== undefined ? ` of ${progress.total}` : ''}
            {share !== undefined ? ` (${Math.round(share * 100)}%)` : ''}
            {progress.message && (
              <>
                {' · '}
                <span className="progress-message">{progress.message}</span>
              </>
            )}
          </span>
        </div>
      ) : (
        <div className="muted progress-none" data-testid="progress-none">
          {request.progressToken !== undefined
            ? `Progress asked for (token ${String(request.progressToken)}); none reported yet.`
            : 'No progress asked for.'}
        </div>
      )}
      <div className="muted in-flight-foot" data-testid="in-flight-deadline">
        {request.cancelling ? 'Cancel sent (notifications/cancelled): the answer is no longer awaited.' : deadline(request, now)}
      </div>
    </div>
  )
}

/**
 * When the connection stops waiting, as it will: the request timeout counts from when the request went out
 * or, for one that asked for progress, from the server's last progress report (each starts it again, so
 * such a request has no overall limit). Nothing is said when the engine did not say what timeout applies.
 */
function deadline(request: InFlight, now: number): string | undefined {
  const { timeoutMs } = request
  if (timeoutMs === undefined) return undefined
  const since = request.progress?.at ?? request.startedAt
  const left = Math.max(0, timeoutMs - (now - since))
  const inLeft = left > 0 ? `in ${(left / 1000).toFixed(1)} s` : 'any moment now'
  return request.progressToken === undefined
    ? `Times out ${inLeft} without an answer (the request timeout, ${duration(timeoutMs)}).`
    : `Times out ${inLeft} unless the server answers or reports progress: each report gives it ${duration(timeoutMs)} more, with no overall limit.`
}
