import { useEffect } from 'react'
import { dismissToast } from '../store/actions'
import { useStore } from '../store/store'

/** The last message (an error stays longer); dismissed by its ✕ or after a few seconds. */
export function Toast() {
  const toast = useStore((s) => s.toast)
  useEffect(() => {
    if (!toast) return
    const timer = setTimeout(dismissToast, toast.tone === 'error' ? 8000 : 4000)
    return () => clearTimeout(timer)
  }, [toast])
  if (!toast) return null
  return (
    <div className={`toast ${toast.tone}`} role="status">
      <span style={{ flex: 1 }}>{toast.text}</span>
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
