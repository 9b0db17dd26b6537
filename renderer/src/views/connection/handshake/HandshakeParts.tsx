import type { ReactNode } from 'react'
import { CopyButton } from '../../../components/CopyButton'
import { JsonView } from '../../../components/JsonView'
import type { ConnectionView } from '../../../store/connectionView'

/** The page before a handshake: waiting for it, or why there is none. */
export function NoHandshake({ view, failed, waiting }: { view: ConnectionView; failed: string; waiting: string }) {
  return (
    <div className="panel">
      <div className="empty">
        <h2>{view.state === 'failed' ? 'No handshake' : 'Waiting for the handshake…'}</h2>
        <p>{view.state === 'failed' ? `${failed}: ${view.reason ?? 'see the Log tab'}.` : waiting}</p>
      </div>
    </div>
  )
}

/** One side of a handshake: what it said as rows (and `below` them), a copy of its message, and its capabilities as JSON. */
export function HandshakeSide({
  title,
  message,
  capabilities,
  below,
  children,
}: {
  title: string
  message: () => unknown
  capabilities: unknown
  below?: ReactNode
  children: ReactNode
}) {
  return (
    <div className="card">
      <h3>
        {title}
        <span className="spacer" />
        <CopyButton value={message} />
      </h3>
      <dl className="kv">{children}</dl>
      {below}
      <JsonView value={capabilities} />
    </div>
  )
}

/**
 * The rows every client side starts with: the version it asked for, who it is, and the profile it used — or,
 * observed through a tap, the host as it named itself (its offer is its own: no profile of Parallax's).
 */
export function ClientRows({
  version,
  client,
  profile,
  observed,
}: {
  version?: string | number
  client: { name: string; version: string }
  profile?: string
  observed?: true
}) {
  return (
    <>
      <dt>Protocol version</dt>
      <dd>
        <span className="version">{version ?? '—'}</span>
      </dd>
      <dt>{observed ? 'Host' : 'Client'}</dt>
      <dd data-testid="handshake-client">
        {client.name} {client.version}
      </dd>
      {observed ? (
        <>
          <dt>Offered by</dt>
          <dd data-testid="handshake-profile">the host, observed through parallax tap (not Parallax)</dd>
        </>
      ) : (
        <>
          <dt>Profile</dt>
          <dd data-testid="handshake-profile">{profile ?? '—'}</dd>
        </>
      )}
    </>
  )
}
