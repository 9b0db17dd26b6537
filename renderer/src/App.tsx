import { useEffect } from 'react'
import { useEngineEvents } from './host/useEngineEvents'
import { ApprovalDialog } from './shell/ApprovalDialog'
import { ShortcutsDialog } from './shell/ShortcutsDialog'
import { CommandPalette } from './shell/CommandPalette'
import { Sidebar } from './shell/Sidebar'
import { TargetEditor } from './shell/targetEditor/TargetEditor'
import { Toast } from './shell/Toast'
import { useKeyboardShortcuts } from './shell/useKeyboardShortcuts'
import { Welcome } from './shell/Welcome'
import { useSelectedTarget, useStore } from './store/store'
import { CompareView } from './views/compare/CompareView'
import { ConnectionPage } from './views/connection/ConnectionPage'
import { ReplayView } from './views/replay/ReplayView'
import { SideBySide } from './views/sideBySide/SideBySide'
import { FramesDrawer } from './views/connection/frames/FramesDrawer'
import { HistorySettingsDialog } from './views/connection/history/SessionDialogs'
import { PastSessionPage } from './views/past/PastSessionPage'
import { ObservedPage } from './views/observed/ObservedPage'

export function App() {
  useEngineEvents()
  useKeyboardShortcuts()
  const theme = useStore((s) => s.theme)
  const link = useStore((s) => s.link)
  const editing = useStore((s) => s.editing)
  const target = useSelectedTarget()
  const mainView = useStore((s) => s.mainView)
  useEffect(() => {
    document.documentElement.dataset.theme = theme
  }, [theme])
  return (
    <>
      {link === 'lost' && <div className="banner">Lost the link to the Parallax engine; reconnecting… (was the web host stopped?)</div>}
      <div className="app" style={link === 'lost' ? { height: 'calc(100% - 29px)' } : undefined}>
        <Sidebar />
        {mainView.kind === 'compare' ? (
          <CompareView />
        ) : mainView.kind === 'replay' ? (
          <ReplayView />
        ) : mainView.kind === 'side-by-side' ? (
          <SideBySide left={mainView.left} right={mainView.right} />
        ) : mainView.kind === 'past' ? (
          <PastSessionPage key={mainView.sessionId} sessionId={mainView.sessionId} />
        ) : mainView.kind === 'observed' ? (
          <ObservedPage key={mainView.connectionId} connectionId={mainView.connectionId} />
        ) : target ? (
          <ConnectionPage key={target.id} target={target} />
        ) : (
          <Welcome />
        )}
      </div>
      {editing && <TargetEditor target={editing === 'new' ? undefined : editing} />}
      <FramesDrawer />
      <ApprovalDialog />
      <ShortcutsDialog />
      <CommandPalette />
      <HistorySettingsDialog />
      <Toast />
    </>
  )
}
