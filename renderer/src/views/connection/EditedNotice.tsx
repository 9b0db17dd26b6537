import type { SavedTarget } from '../../../../shared/contract'
import { reconnect } from '../../store/actions'
import type { ConnectionView } from '../../store/connectionView'
import { useStore } from '../../store/store'

/** The target was edited while this connection was live: it still runs as it was opened, until it reconnects. */
export function EditedNotice({ target, view }: { target: SavedTarget; view: ConnectionView }) {
  const edited = useStore((s) => s.editedWhileConnected[target.id] === view.id)
  const live = view.state === 'connected' || view.state === 'degraded' || view.state === 'connecting'
  if (!edited || !live) return null
  return (
    <div className="reason edited-notice" data-testid="edited-notice">
      Edited while connected: this connection still runs as it was opened; your changes apply when it reconnects.
      <button className="btn small" onClick={() => void reconnect(view.id)}>
        Reconnect now
      </button>
    </div>
  )
}
