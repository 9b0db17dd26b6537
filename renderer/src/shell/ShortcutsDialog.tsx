import { Modal } from '../components/Modal'
import { closeShortcuts } from '../store/actions'
import { useStore } from '../store/store'
import { PALETTE_KEYS } from './CommandPalette'
import './shortcutsDialog.css'

const SHORTCUTS: [string, string][] = [
  [PALETTE_KEYS, 'command palette: every view and action'],
  ['1 – 8', 'switch tab'],
  ['Alt ↑ / Alt ↓', 'previous / next server'],
  ['c', 'connect or disconnect'],
  ['p', 'probe now'],
  ['r', 'run discovery again'],
  ['Shift R', 'record, or stop recording'],
  ['e', 'edit the server'],
  ['n', 'add a server'],
  ['s', 'side by side'],
  ['y', 'replay a recording'],
  ['d', 'compare profiles or targets'],
  ['/', 'filter frames'],
  ['↑ ↓ or j k', 'move through frames'],
  ['Esc', 'leave a text field (then the keys above work)'],
  ['t', 'toggle light / dark'],
  ['?', 'this list'],
]

/** The keyboard shortcuts (see useKeyboardShortcuts), opened with ? */
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
            <kbd style={{ justifySelf: 'start', alignSelf: 'start' }}>{keys}</kbd>
            <span>{what}</span>
          </div>
        ))}
      </div>
    </Modal>
  )
}
