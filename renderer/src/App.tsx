import { useEffect } from 'react'
import { ConnectionPage } from './components/ConnectionPage'
import { ApprovalDialog, Shortcuts, Toast } from './components/Dialogs'
import { CompareView } from './components/CompareView'
import { ReplayView } from './components/ReplayView'
import { SideBySide } from './components/SideBySide'
import { Sidebar } from './components/Sidebar'
import { TargetEditor } from './components/TargetEditor'
import { Welcome } from './components/Welcome'
import { useEngineEvents } from './host/useEngineEvents'
import { useKeyboard } from './useKeyboard'
import { useSelectedTarget, useStore } from './store/store'

export function App() {
  useEngineEvents()
  useKeyboard()
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
        ) : target ? (
          <ConnectionPage key={target.id} target={target} />
        ) : (
          <Welcome />
        )}
      </div>
      {editing && <TargetEditor target={editing === 'new' ? undefined : editing} />}
      <ApprovalDialog />
      <Shortcuts />
      <Toast />
    </>
  )
}
