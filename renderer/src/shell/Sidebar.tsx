import { useState } from 'react'
import { describeSpec, visibleName, visibleText, type SavedTarget } from '../../../shared/contract'
import { Name } from '../components/Name'
import {
  openCompare,
  openPalette,
  openReplay,
  openShortcuts,
  openSideBySide,
  openTarget,
  startEditing,
  toggleTheme,
} from '../store/actions'
import { statusTone } from '../store/connectionView'
import { useStore } from '../store/store'
import { chooseConfigFile, configFileInput, ImportDialog, previewConfigFile, type ImportPreview } from './ImportDialog'
import { PALETTE_KEYS } from './CommandPalette'
import { WatchedSessions } from './WatchedSessions'
import './sidebar.css'

/** The targets (demos, then the user's own) with their state, the other pages, the link to the engine and the theme. */
export function Sidebar() {
  const targets = useStore((s) => s.targets)
  const theme = useStore((s) => s.theme)
  const link = useStore((s) => s.link)
  const info = useStore((s) => s.info)
  // A config file read, its entries waiting for the user to pick which to add.
  const [preview, setPreview] = useState<ImportPreview>()
  const demos = targets.filter((t) => t.origin === 'demo')
  const own = targets.filter((t) => t.origin !== 'demo')

  const importFile = async (file: File) => setPreview(await previewConfigFile(file))

  return (
    <aside className="sidebar">
      <div className="brand">
        <div className="brand-mark" aria-hidden />
        <div>
          <div className="brand-name">Parallax</div>
          <div className="brand-sub">agent protocol inspector</div>
        </div>
      </div>
      <div className="sidebar-actions">
        <button className="btn small" onClick={() => startEditing('new')} title="Add a server (n)">
          + Add server
        </button>
        <button className="btn small" onClick={chooseConfigFile} title="Import entries of an mcpServers config file: you pick which">
          Import config…
        </button>
        <input
          ref={configFileInput}
          type="file"
          accept=".json,application/json"
          hidden
          onChange={(e) => {
            const file = e.target.files?.[0]
            e.target.value = ''
            if (file) void importFile(file)
          }}
        />
      </div>
      <div className="sidebar-actions" style={{ paddingTop: 0 }}>
        <button className="btn small" onClick={() => openSideBySide()} title="Two conversations aligned by turn (s)">
          ⇆ Side by side
        </button>
        <button className="btn small" onClick={openReplay} title="Replay a recording against one or two targets (y)">
          ▶ Replay
        </button>
        <button className="btn small" onClick={openCompare} title="Compare profiles or targets: did the agent honour the hint? (d)">
          ≠ Compare
        </button>
      </div>
      <nav className="target-groups" aria-label="Connections">
        <div className="group-title">Demo agents</div>
        {demos.map((t) => (
          <TargetRow key={t.id} target={t} />
        ))}
        <div className="group-title">Your servers and agents</div>
        {own.length === 0 && (
          <div className="target-sub" style={{ padding: '4px 16px' }}>
            None yet: add one, or import a config file.
          </div>
        )}
        {own.map((t) => (
          <TargetRow key={t.id} target={t} />
        ))}
        <WatchedSessions />
      </nav>
      <div className="sidebar-foot">
        <span title={link === 'open' ? 'Connected to the Parallax engine' : 'Engine link lost; retrying'}>
          <span className={`dot ${link === 'open' ? 'ok' : link === 'lost' ? 'bad' : 'busy'}`} />{' '}
          {info ? `${info.host} · v${info.version}` : 'engine…'}
        </span>
        <span>
          <button className="btn ghost small" onClick={toggleTheme} title="Toggle theme (t)">
            {theme === 'dark' ? '☀ Light' : '☾ Dark'}
          </button>
          <button className="btn ghost small" onClick={openPalette} title={`Command palette: every view and action (${PALETTE_KEYS})`}>
            {PALETTE_KEYS}
          </button>
          <button className="btn ghost small" onClick={openShortcuts} title="Keyboard shortcuts (?)">
            ?
          </button>
        </span>
      </div>
      {preview && <ImportDialog preview={preview} onClose={() => setPreview(undefined)} />}
    </aside>
  )
}

function TargetRow({ target }: { target: SavedTarget }) {
  const selected = useStore((s) => s.selectedTargetId === target.id)
  const view = useStore((s) => s.connections[s.latestByTarget[target.id]])
  const tone = statusTone(view)
  const sub =
    view && view.state !== 'closed'
      ? `${view.state}${view.transport ? ` · ${view.transport}` : ''}`
      : target.origin === 'demo'
        ? `built-in demo · ${target.spec.kind === 'a2a' ? 'A2A' : target.spec.kind === 'acp' ? 'ACP' : 'MCP stdio'}`
        : visibleText(describeSpec(target.spec))
  return (
    <button className={`target${selected ? ' selected' : ''}`} onClick={() => openTarget(target.id)} data-target={target.id}>
      <span
        className={`dot ${tone}${view?.state === 'reconnecting' ? ' pulse' : ''}`}
        title={view ? `${view.state}, ${view.health}` : 'not connected'}
      />
      <span style={{ minWidth: 0 }}>
        <div className="target-name" title={visibleName(target.name)}>
          <Name value={target.name} />
        </div>
        <div className="target-sub" title={sub}>
          {sub}
        </div>
      </span>
      {view?.recording && !view.recording.error ? (
        <span className="rec-mark" title={`Recording to "${visibleName(view.recording.name)}"`} data-testid="recording-mark">
          ● REC
        </span>
      ) : view && view.oddities > 0 ? (
        <span className="count warn" title="protocol oddities seen">
          {view.oddities}
        </span>
      ) : (
        <span />
      )}
    </button>
  )
}
