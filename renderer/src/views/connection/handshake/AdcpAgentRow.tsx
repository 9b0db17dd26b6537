import { ADCP_RELEASE, recogniseAdcp } from '../../../../../shared/contract'
import type { ConnectionView } from '../../../store/connectionView'

/** For an AdCP agent, a row saying so and why: its calls and turns are checked against the release Parallax follows. */
export function AdcpAgentRow({ view }: { view: ConnectionView }) {
  const recognised = recogniseAdcp(view.handshake ? [view.handshake, ...view.discovery] : view.discovery)
  if (!recognised) return null
  return (
    <>
      <dt>AdCP</dt>
      <dd data-testid="adcp-agent">
        an AdCP agent: {recognised}
        <span className="muted"> · calls and turns checked against AdCP {ADCP_RELEASE}</span>
      </dd>
    </>
  )
}
