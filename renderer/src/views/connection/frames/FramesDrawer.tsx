import { useEffect, useMemo, useState } from 'react'
import { AgentText } from '../../../components/Name'
import { closeConnections, closeFramesDrawer } from '../../../store/actions'
import { connectionLabel } from '../../../components/connectionLabel'
import { connectionNumber, isSession, type ConnectionView } from '../../../store/connectionView'
import { useStore } from '../../../store/store'
import { locateFrames } from '../../../store/frameLocate'
import type { Frames } from '../../../store/rowLists'
import { FramesPanel } from './FramesPanel'
import './framesDrawer.css'

/**
 * A connection's frames in a drawer over the page that linked to them (Compare, Replay), so that page
 * stays exactly as it was: all the connection's frames, or one turn's. Escape or ✕ closes it.
 */
export function FramesDrawer() {
  const drawer = useStore((s) => s.framesDrawer)
  const view = useStore((s) => (s.framesDrawer ? s.connections[s.framesDrawer.connectionId] : undefined))
  useEffect(() => {
    if (!drawer) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && closeFramesDrawer()
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [drawer])
  if (!drawer || !view) return null
  const live = view.state !== 'closed' && view.state !== 'failed'
  return (
    <div className="drawer-backdrop" onMouseDown={(e) => e.target === e.currentTarget && closeFramesDrawer()}>
      <aside className="drawer" role="dialog" aria-label="Frames" data-testid="frames-drawer">
        <header className="drawer-head">
          <div style={{ minWidth: 0 }}>
            <div className="page-title">
              Frames
              {drawer.title && (
                <>
                  {' · '}
                  <AgentText value={drawer.title} />
                </>
              )}
              <span className="muted"> · {view.past ? 'past session' : `connection ${connectionNumber(view.id)}`}</span>
            </div>
            <div className="page-sub">
              <AgentText value={`${connectionLabel(view)} · ${view.state}`} />
            </div>
          </div>
          <span className="spacer" />
          {live && !isSession(view) && (
            <button
              className="btn small"
              onClick={() => closeConnections([view.id])}
              title="Close this connection (and its server process)"
            >
              Close connection
            </button>
          )}
          <button className="btn small" onClick={closeFramesDrawer} aria-label="Close frames" title="Back (Esc)">
            ✕
          </button>
        </header>
        <RangeFrames view={view} range={drawer.range} />
      </aside>
    </div>
  )
}

/** The frames panel, on every frame of the connection or only those in `range` (one turn's). */
function RangeFrames({ view, range }: { view: ConnectionView; range?: { from: number; to: number } }) {
  const count = view.frames.length
  const held = useMemo(
    () => (range ? view.frames.between(range.from, range.to) : view.frames),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- frames only grow (appended in place): their count says when
    [view.frames, count, range?.from, range?.to],
  )
  // A turn among frames not held (a long session's): where it lies, the engine says.
  const [located, setLocated] = useState<{ key: string; frames?: Frames }>()
  const key = `${view.id} ${range?.from} ${range?.to}`
  useEffect(() => {
    if (held || !range) return
    let current = true
    void locateFrames(view.frames, [range.from, range.to + 1]).then(([first, end]) => {
      if (current && first !== undefined && end !== undefined)
        setLocated({ key, frames: view.frames.window(first, Math.max(0, end - first)) })
    })
    return () => {
      current = false
    }
  }, [held, range, view.frames, key])
  const frames = held ?? (located?.key === key ? located.frames : undefined)
  if (!frames) return <div className="empty muted">Finding the turn’s frames…</div>
  return <FramesPanel key={`${view.id} ${range?.from ?? ''}`} view={view} frames={frames} />
}
