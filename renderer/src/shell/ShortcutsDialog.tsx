import { Modal } from '../components/Modal'
import { closeShortcuts } from '../store/actions'
import { useStore } from '../store/store'

const SHORTCUTS: [string, string][] = [
  ['1 – 8', 'switch tab'],
  ['Alt ↑ / Alt ↓', 'previous / next server'],
  ['c', 'connect or disconnect'],
  ['p', 'probe now'],
  ['r', 'run discovery again'],
  ['n', 'add a server'],
  ['/', 'filter frames'],
  ['↑ ↓ or j k', 'move through frames'],
  ['t', 'toggle light / dark'],
  ['?', 'this list'],
]

/** The single-key shortcuts (see useKeyboardShortcuts), opened with ? */
export function ShortcutsDialog() {
  const open = useStore((s) => s.shortcutsOpen)
  if (!open) return null
  return (
    <Modal
      title="Keyboard shortcuts"
      width={420}
      onClose={closeShortcuts}
      footer={
        <button className="btn" onClick={closeShortcuts} autoFocus>
          Close
        </button>
      }
    >
      <div className="shortcuts">
        {SHORTCUTS.map(([keys, what]) => (
          <div key={keys} style={{ display: 'contents' }}>
            <kbd style={{ justifySelf: 'start' }}>{keys}</kbd>
            <span>{what}</span>
          </div>
        ))}
      </div>
    </Modal>
  )
}
