import { useEffect, useState } from 'react'
import type { AuthEvent, AuthStatus, MoreAccess, SavedTarget } from '../../../../../shared/contract'
import { timeOfDay } from '../../../components/format'
import { authStatus, cancelSignIn, openSignInPage, pendingFlow, signIn, signOut } from '../../../store/authActions'
import type { ConnectionView } from '../../../store/connectionView'
import { useStore } from '../../../store/store'
import { AuthFlows } from './AuthFlows'
import './auth.css'

const NO_STEPS: AuthEvent[] = []

/**
 * A target's authorization: where it stands (signed in or not, the scopes granted, when it expires, who the
 * client is, where secrets are kept — never the token), Sign in and Sign out, and every step of every
 * sign-in as it happened.
 */
export function AuthPanel({ target, view }: { target: SavedTarget; view?: ConnectionView }) {
  const steps = useStore((s) => s.authSteps[target.id] ?? NO_STEPS)
  const [status, setStatus] = useState<AuthStatus>()
  // Asked afresh whenever a step arrives: a grant, a refresh or a sign-out changes what the engine holds.
  useEffect(() => {
    let current = true
    void authStatus(target.id).then((s) => current && setStatus(s))
    return () => {
      current = false
    }
  }, [target.id, steps.length])
  const waiting = pendingFlow(steps)
  const required = view?.cause?.auth ?? status?.required
  return (
    <div className="panel auth-panel" data-testid="auth-panel">
      <div className="cols">
        <StatusCard status={status} required={required} />
        <SignInCard target={target} status={status} waiting={waiting} />
      </div>
      <div className="section-title">
        Steps <span className="muted">every request of every sign-in, secrets redacted; each decision with why</span>
      </div>
      <AuthFlows steps={steps} />
    </div>
  )
}

function StatusCard({ status, required }: { status?: AuthStatus; required?: { why: string; scope?: string } }) {
  const grant = status?.grant
  const notGranted = grant ? grant.requestedScopes.filter((s) => !grant.scopes.includes(s)) : []
  return (
    <div className="card" data-testid="auth-status">
      <h3>
        Authorization
        <span className="spacer" />
        {status?.moreAccess ? (
          <span className="badge warn">needs more access</span>
        ) : status?.signedIn ? (
          <span className="badge ok">signed in</span>
        ) : required ? (
          <span className="badge warn">sign-in needed</span>
        ) : (
          <span className="badge idle">not signed in</span>
        )}
      </h3>
      {status?.moreAccess && (
        <p className="reason" data-testid="auth-more-access">
          The server asks for more access (<MoreScopes asked={status.moreAccess} />) for{' '}
          <span className="mono">{status.moreAccess.for}</span>, which the token does not give: sign in again to give it, and the request
          goes again.
        </p>
      )}
      {required && !status?.signedIn && (
        <p className="reason" data-testid="auth-required">
          {required.why}
          {required.scope && <span className="muted"> (scope {required.scope})</span>}
        </p>
      )}
      <dl className="kv">
        {grant && (
          <>
            <dt>Scopes granted</dt>
            <dd className="caps" data-testid="auth-scopes">
              {grant.scopes.length ? (
                grant.scopes.map((s) => (
                  <span key={s} className="cap on">
                    {s}
                  </span>
                ))
              ) : (
                <span className="muted">none named</span>
              )}
              {notGranted.map((s) => (
                <span key={s} className="cap off" title="Asked for, not granted">
                  {s}
                </span>
              ))}
            </dd>
            <dt>Expires</dt>
            <dd data-testid="auth-expiry">
              <Expiry expiresAt={grant.expiresAt} />
              {grant.refreshable && <span className="muted"> · a refresh token is kept</span>}
            </dd>
            <dt>Obtained</dt>
            <dd>
              {timeOfDay(grant.obtainedAt)} <span className="muted">by {grant.grantType.replace(/_/g, ' ')}</span>
            </dd>
            <dt>Authorization server</dt>
            <dd className="mono">{grant.authorizationServer}</dd>
            {grant.resource && (
              <>
                <dt>For the resource</dt>
                <dd className="mono">{grant.resource}</dd>
              </>
            )}
          </>
        )}
        {status?.client && (
          <>
            <dt>Client</dt>
            <dd>
              <span className="mono">{status.client.clientId}</span>{' '}
              <span className="muted">
                {REGISTRATION[status.client.registration]}
                {status.client.authMethod && ` · ${status.client.authMethod}`}
              </span>
            </dd>
          </>
        )}
        <dt>Secrets kept</dt>
        <dd className="muted">{status ? STORE[status.store] : '…'}</dd>
      </dl>
    </div>
  )
}

/** The scopes a step-up asks for that the token lacks (else all it named). */
function MoreScopes({ asked }: { asked: MoreAccess }) {
  const scopes = asked.missing.length ? asked.missing : asked.scopes
  return scopes.length ? (
    <>
      scope <span className="mono">{scopes.join(' ')}</span>
    </>
  ) : (
    <>no scope named</>
  )
}

const REGISTRATION = {
  'pre-registered': 'pre-registered',
  'metadata-document': 'a client metadata document',
  dynamic: 'registered dynamically',
} as const

const STORE = {
  keychain: 'in the system keychain, encrypted',
  file: 'in a file only you can read, in the data folder',
  memory: 'in memory only: nothing persists',
} as const

/** When the token expires, and how long from now. */
function Expiry({ expiresAt }: { expiresAt?: number }) {
  if (expiresAt === undefined) return <span className="muted">the server gave no expiry</span>
  const left = expiresAt - Date.now()
  const minutes = Math.round(Math.abs(left) / 60_000)
  const span = minutes >= 120 ? `${Math.round(minutes / 60)} h` : `${minutes} min`
  return (
    <span className={left <= 0 ? 'bad-text' : ''}>
      {timeOfDay(expiresAt)} ({left > 0 ? `in ${span}` : `expired ${span} ago`})
    </span>
  )
}

function SignInCard({ target, status, waiting }: { target: SavedTarget; status?: AuthStatus; waiting?: AuthEvent }) {
  const [scope, setScope] = useState('')
  const [headless, setHeadless] = useState(
    target.spec.kind === 'mcp-http' || target.spec.kind === 'a2a' ? (target.spec.oauth?.headless ?? false) : false,
  )
  const [busy, setBusy] = useState(false)
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true)
    try {
      await work()
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="card" data-testid="auth-actions">
      <h3>Sign in</h3>
      {waiting?.authorize ? (
        <div className="auth-waiting" data-testid="auth-waiting">
          <p>
            Waiting for the browser: approve there, and it comes back to <span className="mono">{waiting.authorize.redirectUri}</span>
            {waiting.authorize.waitsUntil && <span className="muted"> (until {timeOfDay(waiting.authorize.waitsUntil)})</span>}.
          </p>
          <div className="actions">
            <button className="btn" onClick={() => openSignInPage(waiting.authorize!.url)}>
              Open the sign-in page again
            </button>
            <button className="btn ghost" onClick={() => cancelSignIn(waiting.flowId)}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <>
          <p className="muted">
            Parallax finds the server&apos;s authorization server, registers or identifies itself, and opens the authorization page in your
            browser; the answer comes back to a one-time address on 127.0.0.1.
          </p>
          <div className="form">
            <label htmlFor="auth-scope">Scopes</label>
            <input
              id="auth-scope"
              className="input"
              value={scope}
              onChange={(e) => setScope(e.target.value)}
              placeholder="as the server asks (space-separated to ask for more)"
            />
            <span />
            <label className="check">
              <input type="checkbox" checked={headless} onChange={(e) => setHeadless(e.target.checked)} /> Without a browser: Parallax
              follows the redirect itself (servers that approve without a person)
            </label>
          </div>
          <div className="actions">
            <button
              className="btn primary"
              disabled={busy}
              onClick={() => void run(() => signIn(target.id, { scope: scope.trim() || undefined, headless }))}
            >
              {status?.signedIn ? 'Sign in again' : 'Sign in'}
            </button>
            <button
              className="btn"
              disabled={busy || !(status?.signedIn || status?.client)}
              onClick={() => void run(() => signOut(target.id))}
              title="Forget the tokens and the client registration kept for this target"
            >
              Sign out
            </button>
          </div>
        </>
      )}
    </div>
  )
}
