import type { SavedTarget } from '../../../../../shared/contract'
import { Name } from '../../../components/Name'
import { cancelSignIn, openSignInPage, pendingMoreAccess, signIn } from '../../../store/authActions'
import { openTab } from '../../../store/actions'
import { useStore } from '../../../store/store'

/**
 * The server asked for more access than the token gives (a 403 insufficient_scope, a step-up) and a
 * request waits for the person: the scopes it asked for, Sign in again (the same client registration; the
 * request then goes again and its result shows where it was made) or Cancel (it fails saying so).
 */
export function MoreAccessPrompt({ target }: { target: SavedTarget }) {
  const steps = useStore((s) => s.authSteps[target.id])
  const pending = steps && pendingMoreAccess(steps)
  const asked = pending?.ask.moreAccess
  if (!pending || !asked) return null
  const { signingIn } = pending
  const held = asked.scopes.filter((s) => !asked.missing.includes(s))
  return (
    <section className="server-request more-access" role="alertdialog" aria-label="More access asked" data-testid="more-access">
      <header className="server-request-head">
        <strong>This server asks for more access</strong>
        <span className="mono muted">HTTP 403 insufficient_scope</span>
        <span className="spacer" />
        <button className="btn ghost small" onClick={() => openTab('auth')}>
          Show the steps
        </button>
      </header>
      <div className="server-request-body">
        <div>
          Scopes{' '}
          {asked.scopes.map((scope) => (
            <span
              key={scope}
              className={`cap${asked.missing.includes(scope) ? ' on' : ''}`}
              title={asked.missing.includes(scope) ? 'Not in the token yet' : 'Held already'}
            >
              <Name value={scope} />
            </span>
          ))}
          {asked.scopes.length === 0 && <span className="muted">(the server named none)</span>} <span className="muted">for</span>{' '}
          <Name value={asked.for} className="mono" />
          {held.length > 0 && (
            <span className="muted">
              {' '}
              · the token has {held.join(' ')}; it lacks {asked.missing.join(' ')}
            </span>
          )}
        </div>
        <div className="hint">
          {signingIn
            ? 'Waiting for the browser: approve there, and Parallax sends the request again.'
            : 'Sign in again to give it: Parallax keeps its client registration, asks for these scopes with those it holds, and sends the request again once you have.'}
        </div>
        <div className="server-request-actions">
          <button className="btn" onClick={() => cancelSignIn(pending.ask.flowId)}>
            Cancel
          </button>
          {signingIn?.authorize ? (
            <button className="btn primary" onClick={() => openSignInPage(signingIn.authorize!.url)}>
              Open the sign-in page again
            </button>
          ) : (
            <button className="btn primary" onClick={() => void signIn(target.id)}>
              Sign in again
            </button>
          )}
        </div>
      </div>
    </section>
  )
}
