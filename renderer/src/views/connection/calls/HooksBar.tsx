import { useEffect, useState } from 'react'
import type { HooksFiles } from '../../../../../shared/contract'
import type { ConnectionView } from '../../../store/connectionView'
import { command } from '../../../store/store'
import './hooksBar.css'

/**
 * The target's pre-validation hooks: which file is loaded and for which tools; a path to load (its example
 * is the real path of a file Parallax ships); Browse… to pick one without typing: the shipped examples, the
 * files loaded lately, and the system's file dialog where the host has one (the desktop app; a web page
 * cannot read a path from the browser's file picker, and the engine loads hooks from their path).
 */
export function HooksBar({ view }: { view: ConnectionView }) {
  const [path, setPath] = useState(view.hooks?.source ?? '')
  const [files, setFiles] = useState<HooksFiles>()
  const [browsing, setBrowsing] = useState(false)
  const hooks = view.hooks
  const refreshFiles = () => void listFiles().then((found) => found && setFiles(found))
  useEffect(() => void listFiles().then((found) => found && setFiles(found)), [])
  const load = (file = path) => {
    setPath(file)
    setBrowsing(false)
    void command((api) => api.invoke('hooks.load', { connectionId: view.id, path: file })).then((loaded) => loaded && refreshFiles())
  }
  const chooseWithDialog = async () => {
    const chosen = await command((api) => api.invoke('hooks.browse', {}))
    if (chosen?.path) load(chosen.path)
  }
  const example = files?.builtIn[0]?.path
  return (
    <div className="hooks-bar" data-testid="hooks-bar">
      <span className="muted">Hooks</span>
      {hooks?.source && hooks.tools.length > 0 ? (
        <span>
          <span className="mono">{hooks.source.split(/[/\\]/).pop()}</span>{' '}
          <span className="muted">
            ({hooks.kind}) for {hooks.tools.join(', ')}
          </span>
        </span>
      ) : (
        <span className="muted">none: arguments are sent as typed</span>
      )}
      <input
        className="input mono"
        value={path}
        onChange={(e) => setPath(e.target.value)}
        placeholder={`path to a hooks file (.json, .js, .ts)${example ? `, e.g. ${example}` : ''}`}
        title={example && `e.g. ${example}`}
        aria-label="Hooks file"
        onKeyDown={(e) => e.key === 'Enter' && path.trim() && load()}
      />
      <button
        className="btn small"
        aria-expanded={browsing}
        onClick={() => {
          if (!browsing) refreshFiles()
          setBrowsing(!browsing)
        }}
        title="Pick a hooks file: the examples Parallax ships, the files loaded lately"
      >
        Browse…
      </button>
      <button className="btn small" onClick={() => load()} disabled={!path.trim()}>
        {hooks?.source === path ? 'Reload' : 'Load'}
      </button>
      {hooks?.source && (
        <button className="btn small ghost" onClick={() => void command((api) => api.invoke('hooks.clear', { connectionId: view.id }))}>
          Clear
        </button>
      )}
      {browsing && <HooksFileList files={files} onPick={load} onDialog={() => void chooseWithDialog()} />}
      {hooks?.error && <div className="error-text hooks-error">{hooks.error}</div>}
    </div>
  )
}

const listFiles = () => command((api) => api.invoke('hooks.files', {}))

/** The files Browse… offers, each loaded with one click. */
function HooksFileList({ files, onPick, onDialog }: { files?: HooksFiles; onPick: (path: string) => void; onDialog: () => void }) {
  if (!files) return <div className="hooks-files muted">Looking for hooks files…</div>
  const entry = (path: string, name?: string) => (
    <li key={path}>
      <button className="hooks-file" onClick={() => onPick(path)} title={`Load ${path}`}>
        {name && <span className="hooks-file-name">{name}</span>}
        <span className="mono muted">{path}</span>
      </button>
    </li>
  )
  return (
    <div className="hooks-files" role="group" aria-label="Hooks files">
      {files.builtIn.length > 0 && (
        <>
          <div className="content-label">Examples shipped with Parallax</div>
          <ul>{files.builtIn.map((f) => entry(f.path, f.name))}</ul>
        </>
      )}
      <div className="content-label">Loaded lately</div>
      {files.recent.length > 0 ? <ul>{files.recent.map((path) => entry(path))}</ul> : <div className="muted">None yet.</div>}
      {files.browse ? (
        <button className="btn small" onClick={onDialog}>
          Choose a file…
        </button>
      ) : (
        <div className="muted">
          Another file: type or paste its path above (a web page cannot read a file’s path from the browser’s file picker, and Parallax
          loads hooks from their path so that Reload picks up your edits).
        </div>
      )}
    </div>
  )
}
