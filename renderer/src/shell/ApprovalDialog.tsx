import { describeSpec } from '../../../shared/contract'
import { Modal } from '../components/Modal'
import { AgentText, Name } from '../components/Name'
import { useStore } from '../store/store'
import './approvalDialog.css'

/**
 * Asked whenever the engine refuses to run something the user has not approved: a command it would spawn
 * (from Connect, Compare, Replay or Side by side alike), a hooks module, or an origin an agent card points
 * to. It shows exactly what would run and what changed since an earlier approval, hidden characters made
 * visible: a name or an argument from an imported file cannot read as something else.
 */
export function ApprovalDialog() {
  const pending = useStore((s) => s.approval)
  if (!pending) return null
  const { request, answer } = pending
  const env = Object.entries(request.command?.env ?? {}).map(([k, v]) => `${k}=${v}`)
  return (
    <Modal
      title={request.title}
      role="alertdialog"
      onClose={() => answer(false)}
      footer={
        <>
          <button className="btn" onClick={() => answer(false)} autoFocus>
            Cancel
          </button>
          <button className="btn primary" onClick={() => answer(true)} data-testid="approve">
            {request.kind === 'command' ? 'Run it' : request.kind === 'hooks' ? 'Load it' : 'Allow'}
          </button>
        </>
      }
    >
      <div data-testid="approval" data-kind={request.kind}>
        {request.changes?.length ? (
          <div className="card warnings" style={{ marginBottom: 12 }}>
            <h3>
              Changed since you approved it
              {request.previouslyApprovedAt ? ` on ${new Date(request.previouslyApprovedAt).toLocaleString()}` : ''}
            </h3>
            <ul data-testid="approval-changes">
              {request.changes.map((change) => (
                <li key={change}>
                  <AgentText value={change} />
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {request.command && (
          <>
            <p>
              <strong>
                <Name value={request.targetName ?? ''} />
              </strong>{' '}
              starts this program on your machine, with your permissions:
            </p>
            <div className="cmdline" data-testid="spawn-command">
              <AgentText value={describeSpec({ kind: 'mcp-stdio', ...request.command })} />
            </div>
            {env.length > 0 && (
              <>
                <p className="muted">with these environment variables:</p>
                <div className="cmdline">
                  <AgentText value={env.join('\n')} />
                </div>
              </>
            )}
            {request.command.cwd && (
              <p className="muted">
                in <AgentText value={request.command.cwd} />
              </p>
            )}
            {request.command.workspace && (
              <p className="muted">
                may read and write files in <AgentText value={request.command.workspace} />
              </p>
            )}
          </>
        )}
        {request.hooks && (
          <>
            <p>A hooks module runs inside Parallax, with your permissions, on every call it hooks:</p>
            <div className="cmdline">
              <AgentText value={request.hooks.path} />
            </div>
            <p className="muted mono">sha256 {request.hooks.sha256}</p>
          </>
        )}
        {request.origin && (
          <>
            <p>
              The agent card of{' '}
              <strong>
                <Name value={request.targetName ?? ''} />
              </strong>{' '}
              points to another origin than the one you configured. Allowing it sends this target&apos;s requests there, with the headers
              you configured.
            </p>
            <dl className="kv">
              <dt>Configured</dt>
              <dd className="mono">
                <AgentText value={request.origin.configured} />
              </dd>
              <dt>Card points to</dt>
              <dd className="mono">
                <AgentText value={request.origin.requested} />
              </dd>
              <dt>Interface</dt>
              <dd className="mono">{request.origin.via}</dd>
            </dl>
          </>
        )}
        <p className="muted">Approval covers exactly this; any change asks again.</p>
      </div>
    </Modal>
  )
}
