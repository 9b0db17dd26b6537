import { useEffect } from 'react'
import { connect, disconnect, openShortcuts, openTab, probe, refresh, selectTarget, startEditing, toggleTheme } from '../store/actions'
import { TABS, useStore } from '../store/store'

/** App-wide single-key shortcuts; ignored while typing in a field or when a dialog is open. */
export function useKeyboardShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement
      if (el.closest('input, textarea, select, [contenteditable="true"]') || e.ctrlKey || e.metaKey) return
      const s = useStore.getState()
      if (s.editing || s.approval || s.shortcutsOpen) return
      const target = s.targets.find((t) => t.id === s.selectedTargetId)
      const view = target && s.connections[s.latestByTarget[target.id]]
      const live = view && (view.state === 'connected' || view.state === 'degraded')
      if (e.altKey && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
        const i = s.targets.findIndex((t) => t.id === s.selectedTargetId)
        const next = s.targets[Math.max(0, Math.min(s.targets.length - 1, i + (e.key === 'ArrowDown' ? 1 : -1)))]
        if (next) selectTarget(next.id)
        e.preventDefault()
        return
      }
      if (e.altKey) return
      const tab = Number(e.key)
      if (tab >= 1 && tab <= TABS.length) openTab(TABS[tab - 1].id)
      else if (e.key === '?') openShortcuts()
      else if (e.key === 't') toggleTheme()
      else if (e.key === 'n') startEditing('new')
      else if (e.key === 'c' && target) {
        if (live || view?.state === 'reconnecting' || view?.state === 'connecting') disconnect(view!.id)
        else void connect(target)
      } else if (e.key === 'p' && live) probe(view.id)
      else if (e.key === 'r' && live) refresh(view.id)
      else return
      e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
}
