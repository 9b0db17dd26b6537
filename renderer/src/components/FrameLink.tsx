import { showFrame } from '../store/actions'
import { frameNumber } from '../store/connectionView'
import { useStore } from '../store/store'

/**
 * A link to one frame of a connection, opening it in the frames drawer. It names the frame by its number
 * in the connection, the one the Frames list and the drawer show.
 */
export function FrameLink({
  connectionId,
  seq,
  label = 'frame',
  title,
  className = 'btn ghost small link',
}: {
  connectionId: string
  seq: number
  label?: string
  title?: string
  className?: string
}) {
  const number = useStore((s) => frameNumber(s.connections[connectionId], seq))
  return (
    <button className={className} onClick={() => showFrame(connectionId, seq)} title={title} data-testid="frame-link">
      {number === undefined ? label || 'frame' : `${label ? `${label} ` : ''}#${number}`}
    </button>
  )
}
