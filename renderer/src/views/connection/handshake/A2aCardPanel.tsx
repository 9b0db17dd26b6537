import { A2A_BINDINGS, type A2aBinding, type A2aHandshakeEvent, type A2aInterface } from '../../../../../shared/contract'
import { CopyButton } from '../../../components/CopyButton'
import { DiffList } from '../../../components/DiffList'
import { ms } from '../../../components/format'
import { JsonView } from '../../../components/JsonView'
import { Name } from '../../../components/Name'
import { chooseBinding } from '../../../store/actions'
import { useStore } from '../../../store/store'
import type { ConnectionView } from '../../../store/connectionView'
import { AdcpAgentRow } from './AdcpAgentRow'
import { SecuritySchemes } from './SecuritySchemes'
import './handshake.css'

/** The agent card as fetched: generation, chosen interface and why, capabilities, warnings, the card itself. */
export function A2aCardPanel({ handshake: h, view }: { handshake: A2aHandshakeEvent; view: ConnectionView }) {
  const caps = h.capabilities
  return (
    <div className="panel" data-testid="agent-card">
      {h.warnings.length > 0 && (
        <div className="card warnings" style={{ marginBottom: 16 }}>
          <h3>
            {h.warnings.length} problem{h.warnings.length === 1 ? '' : 's'} in the card
          </h3>
          <ul>
            {h.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="cols">
        <div className="card">
          <h3>Agent</h3>
          <dl className="kv">
            <dt>Name</dt>
            <dd>
              <Name value={String((h.agentCard as { name?: unknown }).name ?? '—')} />
            </dd>
            <dt>Generation</dt>
            <dd>
              <span className={`version ${h.generation === '1.0' ? 'match' : 'differs'}`} data-testid="generation">
                A2A v{h.generation}
              </span>
              <div className="muted">{h.generationReason}</div>
            </dd>
            <dt>Interface</dt>
            <dd>
              {h.chosenInterface ? (
                <>
                  <span className="version">
                    {h.chosenInterface.protocolBinding} {h.chosenInterface.protocolVersion}
                  </span>{' '}
                  <span className="mono">{h.chosenInterface.url}</span>
                </>
              ) : (
                <span className="status failed">none usable</span>
              )}
              <div className="muted">{h.interfaceReason}</div>
            </dd>
            <dt>Card</dt>
            <dd>
              <span className="mono">{h.cardUrl}</span> <span className="muted">· fetched in {ms(h.durationMs)}</span>
            </dd>
            <dt>Capabilities</dt>
            <dd className="caps">
              {(['streaming', 'pushNotifications', 'extendedAgentCard'] as const).map((name) => (
                <span key={name} className={`cap${caps[name] ? ' on' : ''}`}>
                  {caps[name] ? '✓ ' : ''}
                  {name}
                </span>
              ))}
            </dd>
            <dt>Extensions</dt>
            <dd>
              {caps.extensions.length === 0
                ? 'none'
                : caps.extensions.map((e) => (
                    <div key={e.uri} className="mono">
                      {e.uri}
                      {e.required ? ' (required)' : ''}
                    </div>
                  ))}
            </dd>
            <AdcpAgentRow view={view} />
          </dl>
          <div className="section-title">Security</div>
          <SecuritySchemes security={h.security} />
          <div className="section-title">Interfaces in the card</div>
          <InterfaceChoice handshake={h} />
        </div>
        <div className="card">
          <h3>
            The card as fetched
            <span className="spacer" />
            <CopyButton value={() => h.agentCard} />
          </h3>
          <JsonView value={h.agentCard} openDepth={1} />
        </div>
      </div>
      <ExtendedCard connectionId={h.connectionId} />
    </div>
  )
}

/**
 * The authenticated extended card beside the public one: how it differs (read the same way as the public
 * card), and the card itself; or why Parallax did not ask for it (none offered, no credentials), or how asking failed.
 */
function ExtendedCard({ connectionId }: { connectionId: string }) {
  const step = useStore((s) => s.connections[connectionId]?.discovery.findLast((d) => d.method === 'extended-agent-card'))
  if (!step) return null
  const extended = step.extendedCard
  return (
    <div className="card" style={{ marginTop: 16 }} data-testid="extended-card" data-status={step.status}>
      <h3>
        Authenticated extended card
        <span className={`status ${step.status}`} style={{ marginLeft: 8 }}>
          {step.status === 'called' ? 'fetched' : step.status}
        </span>
        <span className="spacer" />
        {extended && <CopyButton value={() => extended.card} />}
      </h3>
      <div className="muted">{step.reason}</div>
      {extended && (
        <div className="cols" style={{ marginTop: 8 }}>
          <div>
            <div className="section-title">
              {extended.differences.length
                ? `${extended.differences.length} difference${extended.differences.length === 1 ? '' : 's'} from the public card`
                : 'The same as the public card'}
            </div>
            {extended.differences.length > 0 && <DiffList diff={extended.differences} testId="extended-card-diff" />}
          </div>
          <div>
            <div className="section-title">The extended card</div>
            <JsonView value={extended.card} openDepth={1} />
          </div>
        </div>
      )}
    </div>
  )
}

/** The bindings Parallax has a client for (a target's `spec.binding` names one), as the card spells them in any case. */
const bindingOf = (i: A2aInterface): A2aBinding | undefined => A2A_BINDINGS.find((b) => b === i.protocolBinding.toUpperCase())

const same = (a: A2aInterface, b: A2aInterface | undefined) =>
  !!b && a.url === b.url && a.protocolBinding === b.protocolBinding && a.protocolVersion === b.protocolVersion

/**
 * The card's interfaces, and which one this target uses: "Use this one" saves the target's binding and
 * reconnects over it. A binding is one choice, whatever versions the card lists it in (Parallax takes
 * v1.0 before v0.3), so the button sits on the one interface of each other binding that choosing it would use.
 * A built-in demo is read-only and says how to choose anyway.
 */
function InterfaceChoice({ handshake: h }: { handshake: A2aHandshakeEvent }) {
  const view = useStore((s) => s.connections[h.connectionId])
  const target = useStore((s) => s.targets.find((t) => t.id === view?.targetId))
  const preferred = target?.spec.kind === 'a2a' ? target.spec.binding : 'auto'
  const readOnly = target?.origin === 'demo'
  const canChoose = !!target && !readOnly && target.spec.kind === 'a2a'
  // Per binding, the interface choosing it would use: v1.0 first, then the card's order.
  const pick = new Map<A2aBinding, A2aInterface>()
  for (const i of [...h.interfaces].sort(
    (a, b) => Number(!a.protocolVersion.startsWith('1')) - Number(!b.protocolVersion.startsWith('1')),
  )) {
    const binding = bindingOf(i)
    if (binding && !pick.has(binding)) pick.set(binding, i)
  }
  const inUse = h.chosenInterface && bindingOf(h.chosenInterface)
  const versions = h.interfaces.filter((i) => bindingOf(i)).length > pick.size
  return (
    <>
      {readOnly ? (
        <div className="muted interface-note" data-testid="interface-read-only">
          A built-in demo cannot be changed, so Parallax chooses its interface. To choose one yourself, add this agent as your own A2A
          target with its card URL, <span className="mono">{h.cardUrl}</span> <CopyButton value={() => h.cardUrl} />
        </div>
      ) : (
        canChoose &&
        preferred !== 'auto' && (
          <div className="muted interface-note" data-testid="interface-preference">
            This target uses {preferred} by your choice.{' '}
            <button className="btn small" onClick={() => void chooseBinding(h.connectionId, 'auto')}>
              Let Parallax choose
            </button>
          </div>
        )
      )}
      <table className="grid interfaces" data-testid="interfaces">
        <tbody>
          {h.interfaces.map((i, n) => {
            const chosen = same(i, h.chosenInterface)
            const binding = bindingOf(i)
            return (
              <tr key={n} data-binding={i.protocolBinding} data-chosen={chosen || undefined}>
                <td>
                  {chosen ? (
                    <span className="status called">chosen</span>
                  ) : !binding ? (
                    <span className="muted">not supported</span>
                  ) : canChoose && binding !== inUse && same(i, pick.get(binding)) ? (
                    <button
                      className="btn small"
                      onClick={() => void chooseBinding(h.connectionId, binding)}
                      title={`Save ${binding} as this target’s interface and reconnect over it`}
                      aria-label={`Use ${binding} ${i.protocolVersion}`}
                    >
                      Use this one
                    </button>
                  ) : null}
                </td>
                <td className="mono">{i.protocolBinding}</td>
                <td className="mono">{i.protocolVersion}</td>
                <td className="mono url">{i.url}</td>
              </tr>
            )
          })}
        </tbody>
      </table>
      {canChoose && versions && (
        <div className="muted interface-note">A binding is one choice: Parallax takes its v1.0 interface before an older one.</div>
      )}
    </>
  )
}
