import type { AuthEvent, AuthHttpExchange } from '../../../../../shared/contract'
import { CopyButton } from '../../../components/CopyButton'
import { clock, ms, timeOfDay } from '../../../components/format'
import { JsonView } from '../../../components/JsonView'

/** Every sign-in of a target, newest first, each step as it happened. */
export function AuthFlows({ steps }: { steps: AuthEvent[] }) {
  if (steps.length === 0)
    return (
      <div className="empty">
        <h2>No sign-in yet</h2>
        <p>
          When a server answers 401 with an OAuth challenge, or you press Sign in, each step shows here: the resource and authorization
          server metadata, the client registration, the authorization URL, the token exchange, and what Parallax decided at each step and
          why.
        </p>
      </div>
    )
  const flows = new Map<string, AuthEvent[]>()
  for (const step of steps) {
    const flow = flows.get(step.flowId)
    if (flow) flow.push(step)
    else flows.set(step.flowId, [step])
  }
  return (
    <div className="auth-flows">
      {[...flows.entries()].reverse().map(([flowId, flow]) => (
        <Flow key={flowId} steps={flow} />
      ))}
    </div>
  )
}

function Flow({ steps }: { steps: AuthEvent[] }) {
  const last = steps.at(-1)!
  const outcome =
    last.step === 'granted'
      ? { label: 'granted', tone: 'ok' }
      : last.step === 'failed'
        ? { label: 'failed', tone: 'bad' }
        : last.step === 'signed-out'
          ? { label: 'signed out', tone: 'idle' }
          : last.step === 'more-access'
            ? { label: 'waiting for you', tone: 'warn' }
            : last.decision?.ends
              ? last.decision.refused
                ? { label: 'refused', tone: 'bad' }
                : { label: 'done', tone: 'idle' }
              : { label: 'under way', tone: 'busy' }
  return (
    <section className="auth-flow" data-testid="auth-flow" data-outcome={outcome.label}>
      <header className="auth-flow-head">
        <span className="mono muted">{clock(steps[0].ts)}</span>
        <span className={`badge ${outcome.tone}`}>{outcome.label}</span>
        <span className="muted">
          {steps.length} step{steps.length === 1 ? '' : 's'}
        </span>
        <span className="spacer" />
        <CopyButton value={() => steps.map(({ seq: _seq, connectionId: _c, ...step }) => step)} label="Copy steps" />
      </header>
      <ol className="auth-steps">
        {steps.map((step) => (
          <Step key={step.seq} step={step} />
        ))}
      </ol>
    </section>
  )
}

const STEP_TONE: Partial<Record<AuthEvent['step'], string>> = { failed: 'bad', granted: 'ok', challenge: 'warn', 'more-access': 'warn' }

function Step({ step }: { step: AuthEvent }) {
  const refused = step.decision?.refused
  const failedHttp = step.http && (step.http.error || (step.http.response?.status ?? 0) >= 400)
  return (
    <li className={`auth-step${refused || step.step === 'failed' ? ' bad' : ''}`} data-step={step.step} data-phase={step.phase}>
      <details>
        <summary>
          <span className="mono muted">{clock(step.ts)}</span>
          <span className="auth-phase">{step.phase.replace(/-/g, ' ')}</span>
          <span className={`status ${STEP_TONE[step.step] ?? ''}`}>{step.step}</span>
          {step.http && (
            <span className={`mono${failedHttp ? ' bad-text' : ''}`}>
              {step.http.response?.status ?? 'no answer'} <span className="muted">{ms(step.http.durationMs)}</span>
            </span>
          )}
          <span className="auth-summary">{step.summary}</span>
        </summary>
        <div className="auth-step-body">
          <StepDetail step={step} />
        </div>
      </details>
    </li>
  )
}

function StepDetail({ step }: { step: AuthEvent }) {
  return (
    <>
      {step.decision && (
        <dl className="kv">
          <dt>{step.decision.refused ? 'Refused' : 'Chose'}</dt>
          <dd className={step.decision.refused ? 'bad-text' : ''}>{step.decision.choice}</dd>
          <dt>Why</dt>
          <dd>{step.decision.why}</dd>
        </dl>
      )}
      {step.challenge && (
        <dl className="kv">
          <dt>Status</dt>
          <dd>{step.challenge.status}</dd>
          {step.challenge.header && (
            <>
              <dt>WWW-Authenticate</dt>
              <dd className="mono">{step.challenge.header}</dd>
            </>
          )}
          {step.challenge.resourceMetadata && (
            <>
              <dt>Resource metadata</dt>
              <dd className="mono">{step.challenge.resourceMetadata}</dd>
            </>
          )}
          {step.challenge.scope && (
            <>
              <dt>Scope asked</dt>
              <dd className="mono">{step.challenge.scope}</dd>
            </>
          )}
          {step.challenge.error && (
            <>
              <dt>Error</dt>
              <dd>
                {step.challenge.error}
                {step.challenge.errorDescription && <span className="muted"> — {step.challenge.errorDescription}</span>}
              </dd>
            </>
          )}
        </dl>
      )}
      {step.moreAccess && (
        <dl className="kv">
          <dt>Scopes asked</dt>
          <dd className="mono">{step.moreAccess.scopes.join(' ') || '—'}</dd>
          <dt>Not in the token</dt>
          <dd className="mono">{step.moreAccess.missing.join(' ') || '—'}</dd>
          <dt>Sent again once signed in</dt>
          <dd className="mono">{step.moreAccess.for}</dd>
          <dt>Waits until</dt>
          <dd>{timeOfDay(step.moreAccess.waitsUntil)}</dd>
        </dl>
      )}
      {step.authorize && (
        <dl className="kv">
          <dt>Authorization URL</dt>
          <dd className="mono auth-url">
            {step.authorize.url} <CopyButton value={() => step.authorize!.url} label="Copy" />
          </dd>
          <dt>Comes back to</dt>
          <dd className="mono">{step.authorize.redirectUri}</dd>
          <dt>How</dt>
          <dd>{step.authorize.mode === 'browser' ? 'in your browser' : 'followed by Parallax, without a browser'}</dd>
        </dl>
      )}
      {step.callback && (
        <dl className="kv">
          <dt>State</dt>
          <dd className={step.callback.stateMatched ? '' : 'bad-text'}>
            {step.callback.stateMatched ? 'matched what was sent' : 'did not match: the answer was refused'}
          </dd>
          {step.callback.iss !== undefined && (
            <>
              <dt>Issuer (iss)</dt>
              <dd className={`mono${step.callback.refused ? ' bad-text' : ''}`}>{step.callback.iss}</dd>
            </>
          )}
          {step.callback.refused && (
            <>
              <dt>Refused</dt>
              <dd className="bad-text">{step.callback.refused}</dd>
            </>
          )}
          {step.callback.error && (
            <>
              <dt>Error</dt>
              <dd className="bad-text">
                {step.callback.error}
                {step.callback.errorDescription && ` — ${step.callback.errorDescription}`}
              </dd>
            </>
          )}
        </dl>
      )}
      {step.grant && (
        <dl className="kv">
          <dt>Scopes</dt>
          <dd className="mono">{step.grant.scopes.join(' ') || '—'}</dd>
          <dt>Token type</dt>
          <dd>{step.grant.tokenType}</dd>
          {step.grant.boundKey && (
            <>
              <dt>Bound to key</dt>
              <dd
                className="mono"
                data-testid="auth-bound-key"
                title="DPoP: the key stays in the secret store; this is its public thumbprint"
              >
                {step.grant.boundKey.alg} {step.grant.boundKey.thumbprint}
              </dd>
            </>
          )}
          <dt>Refresh token</dt>
          <dd>{step.grant.refreshable ? 'kept, never shown' : 'none'}</dd>
        </dl>
      )}
      {step.error && <p className="bad-text">{step.error}</p>}
      {step.http && <Exchange http={step.http} />}
    </>
  )
}

/** An HTTP exchange of a sign-in: the request and the answer, headers and bodies, secrets already redacted by the engine. */
function Exchange({ http }: { http: AuthHttpExchange }) {
  const { request, response, error } = http
  return (
    <div className="cols auth-exchange">
      <div>
        <div className="auth-exchange-title">
          Request <span className="mono">{request.method}</span> <span className="mono auth-url">{request.url}</span>
        </div>
        <Headers headers={request.headers} />
        {request.body !== undefined && <JsonView value={request.body} />}
      </div>
      <div>
        <div className="auth-exchange-title">
          {response ? (
            <>
              Response <span className="mono">{response.status}</span> <span className="muted">{response.statusText}</span>
            </>
          ) : (
            <span className="bad-text">No answer: {error}</span>
          )}
        </div>
        {response && <Headers headers={response.headers} />}
        {response?.body !== undefined && <JsonView value={response.body} />}
      </div>
    </div>
  )
}

function Headers({ headers }: { headers: Record<string, string> }) {
  const entries = Object.entries(headers)
  if (entries.length === 0) return null
  return (
    <dl className="kv headers">
      {entries.map(([name, value]) => (
        <div key={name} style={{ display: 'contents' }}>
          <dt className="mono">{name}</dt>
          <dd className="mono">{value}</dd>
        </div>
      ))}
    </dl>
  )
}
