import { useEffect } from 'react'
import { describeSpec, redactMap } from '../../../shared/contract'
import { useStore } from '../store/store'
import { connect } from './actions'
import { Modal } from './Modal'

/** Shown before Parallax spawns a command that came from an imported file. */
export function ConfirmSpawn() {
  const target = useStore((s) => s.confirming)
  if (!target || target.spec.kind !== 'mcp-stdio') return null
  const close = () => useStore.setState({ confirming: undefined })
  const env = Object.entries(redactMap(target.spec.env)).map(([k, v]) => `${k}=${v}`)
  return (
    <Modal
      title="Run this command?"
      role="alertdialog"
      onClose={close}
      footer={
        <>
          <button className="btn" onClick={close} autoFocus>
            Cancel
          </button>
          <button className="btn primary" onClick={() => connect(target, true)}>
            Run and connect
          </button>
        </>
      }
    >
          <p>
            <strong>{target.name}</strong> came from an imported config file. Connecting starts this program on your machine with your permissions:
          </p>
          <div className="cmdline" data-testid="spawn-command">
            {describeSpec(target.spec)}
          </div>
          {env.length > 0 && (
            <>
              <p className="muted">with these environment variables:</p>
              <div className="cmdline">{env.join('\n')}</div>
            </>
          )}
          {target.spec.cwd && <p className="muted">in {target.spec.cwd}</p>}
    </Modal>
  )
}

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

export function Shortcuts() {
  const open = useStore((s) => s.shortcutsOpen)
  if (!open) return null
  const close = () => useStore.setState({ shortcutsOpen: false })
  return (
    <Modal
      title="Keyboard shortcuts"
      width={420}
      onClose={close}
      footer={
        <button className="btn" onClick={close} autoFocus>
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

export function Toast() {
  const toast = useStore((s) => s.toast)
  useEffect(() => {
    if (!toast) return
    const timer = setTimeout(() => useStore.setState({ toast: undefined }), toast.tone === 'error' ? 8000 : 4000)
    return () => clearTimeout(timer)
  }, [toast])
  if (!toast) return null
  return (
    <div className={`toast ${toast.tone}`} role="status">
      <span style={{ flex: 1 }}>{toast.text}</span>
      <button className="btn ghost small" onClick={() => useStore.setState({ toast: undefined })} aria-label="Dismiss">
        ✕
      </button>
    </div>
  )
}
