import { useEffect } from 'react'
import {
  closePalette,
  connect,
  disconnect,
  openCompare,
  openPalette,
  openReplay,
  openShortcuts,
  openSideBySide,
  openTab,
  probe,
  refresh,
  selectTarget,
  startEditing,
  toggleTheme,
} from '../store/actions'
import { TABS, useStore } from '../store/store'
import { targetTabs } from '../store/targetTabs'
import { toggleRecording } from './CommandPalette'

const TEXT_FIELD = 'input, textarea, select, [contenteditable="true"]'

/**
 * App-wide shortcuts (the shortcuts dialog lists them). Ctrl/Cmd+K opens the command palette from
 * anywhere; Escape leaves a text field, so the single-key shortcuts work again; those are ignored while
 * typing in a field or while a dialog (or the frames drawer) is open.
 */
export function useKeyboardShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement
      const s = useStore.getState()
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        if (s.approval) return // an approval is answered first
        e.preventDefault()
        if (s.paletteOpen) closePalette()
        else openPalette()
        return
      }
      const inField = el instanceof Element && el.closest(TEXT_FIELD)
      if (inField) {
        // Escape leaves the field; a dialog's own Escape (closing it) still runs.
        if (e.key === 'Escape' && !el.closest('[role="dialog"], [role="alertdialog"]')) {
          el.blur()
          e.preventDefault()
        }
        return
      }
      if (e.ctrlKey || e.metaKey) return
      if (s.editing || s.approval || s.shortcutsOpen || s.paletteOpen || s.framesDrawer) return
      const target = s.targets.find((t) => t.id === s.selectedTargetId)
      // A past session or an observed one shows: the target's live session is not what the keys would act on.
      const elsewhere = s.mainView.kind === 'past' || s.mainView.kind === 'observed'
      const view = target && !elsewhere ? s.connections[s.latestByTarget[target.id]] : undefined
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
      if (tab >= 1 && tab <= TABS.length) {
        if (target && targetTabs(target).includes(TABS[tab - 1])) openTab(TABS[tab - 1].id)
      } else if (e.key === '?') openShortcuts()
      else if (e.key === 't') toggleTheme()
      else if (e.key === 'n') startEditing('new')
      else if (e.key === 's') openSideBySide()
      else if (e.key === 'y') openReplay()
      else if (e.key === 'd') openCompare()
      else if (e.key === 'e' && target && target.origin !== 'demo') startEditing(target)
      else if (e.key === 'c' && target && !elsewhere) {
        if (live || view?.state === 'reconnecting' || view?.state === 'connecting') disconnect(view!.id)
        else void connect(target)
      } else if (e.key === 'p' && live) probe(view.id)
      else if (e.key === 'r' && live) refresh(view.id)
      else if (e.key === 'R' && live) toggleRecording(view)
      else return
      e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
}
