import { useEffect } from 'react'
import { AgentText } from '../components/Name'
import { dismissToast } from '../store/actions'
import { useStore } from '../store/store'
import './toast.css'

/**
 * The last message, its names' hidden characters shown. One that offers an action (Open in Replay) stays
 * until it is used or dismissed; any other goes by its ✕ or after a few seconds (an error stays longer).
 */
export function Toast() {
  const toast = useStore((s) => s.toast)
  useEffect(() => {
    if (!toast || toast.action) return
    const timer = setTimeout(dismissToast, toast.tone === 'error' ? 8000 : 4000)
    return () => clearTimeout(timer)
  }, [toast])
  if (!toast) return null
  return (
    <div className={`toast ${toast.tone}`} role="status">
      <AgentText value={toast.text} className="toast-text" />
      {toast.action && (
        <button className="btn small" onClick={() => (toast.action!.run(), dismissToast())}>
          {toast.action.label}
        </button>
      )}
      <button className="btn ghost small" onClick={dismissToast} aria-label="Dismiss">
        ✕
      </button>
    </div>
  )
}
