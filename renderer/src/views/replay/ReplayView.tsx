import { useEffect, useRef, useState } from 'react'
import type { RecordingInfo, TurnParity } from '../../../../shared/contract'
import { bytes } from '../../components/format'
import { PageHeader } from '../../components/PageHeader'
import { showTargetPage } from '../../store/actions'
import { command, showToast, useStore } from '../../store/store'
import { ParitySummary, TurnTable } from './TurnResults'

/** A recording as loaded for replay: its turns, and the lines that could not be read. */
interface LoadedRecording {
  name: string
  problems: { line: number; message: string }[]
  turns: { index: number; turn: TurnParity['turn'] }[]
}

/** Record once, replay against one target (vs the recording) or two (A vs B), turn by turn. */
export function ReplayView() {
  const targets = useStore((s) => s.targets)
  const replays = useStore((s) => s.replays)
  const [recordings, setRecordings] = useState<RecordingInfo[]>()
  const [loaded, setLoaded] = useState<LoadedRecording>()
  const [a, setA] = useState('demo:tools')
  const [b, setB] = useState('demo:a2a')
  const [ignore, setIgnore] = useState('')
  const [replayId, setReplayId] = useState<string>()
  const [busy, setBusy] = useState(false)
  const fileInput = useRef<HTMLInputElement>(null)
  const replay = replayId ? replays[replayId] : undefined

  const refresh = async () => setRecordings((await command((api) => api.invoke('recordings.list', {}))) ?? [])
  useEffect(() => void refresh(), [])
  const open = async (name: string) => {
    const result = await command((api) => api.invoke('recordings.load', { name }))
    if (result) setLoaded({ name, problems: result.problems, turns: result.turns })
    setReplayId(undefined)
  }
  const start = async () => {
    if (!loaded) return
    setBusy(true)
    const ignored = ignore.split(/[\s,]+/).filter(Boolean)
    const started = await command((api) =>
      api.invoke('replay.start', { recording: loaded.name, targetIds: b ? [a, b] : [a], ignore: ignored }),
    )
    setBusy(false)
    if (started) setReplayId(started.replayId)
    return started?.replayId
  }
  const run = async (mode: 'step' | 'run') => {
    const id = replayId && !replay?.finished ? replayId : await start()
    if (!id) return
    setBusy(true)
    await command<unknown>((api) =>
      mode === 'step' ? api.invoke('replay.step', { replayId: id }) : api.invoke('replay.run', { replayId: id }),
    )
    setBusy(false)
  }
  const importFile = async (file: File) => {
    const result = await command(async (api) =>
      api.invoke('recordings.import', { name: file.name.replace(/\.jsonl$/, ''), text: await file.text() }),
    )
    if (!result) return
    if (result.problems.length)
      showToast(`Imported ${result.name}; ${result.problems.map((p) => `line ${p.line}: ${p.message}`).join('; ')}`, 'error')
    await refresh()
    await open(result.name)
  }
  /** Renames a recording; a name that is taken is refused by the engine, and a free one is offered instead. */
  const rename = async (name: string) => {
    let to = prompt('New name', name)
    while (to && to !== name) {
      const api = useStore.getState().api
      if (!api) return
      try {
        await api.invoke('recordings.rename', { name, to })
        break
      } catch (error) {
        const message = (error as Error).message
        if (!/exists already/.test(message)) {
          showToast(message, 'error')
          break
        }
        const names = new Set(((await command((a) => a.invoke('recordings.list', {}))) ?? recordings ?? []).map((r) => r.name))
        to = prompt(`A recording named "${to}" exists already, and it is kept as it is. Pick another name:`, freeName(to, names))
      }
    }
    await refresh()
  }
  const exportRecording = async (name: string) => {
    const result = await command((api) => api.invoke('recordings.export', { name }))
    if (!result) return
    const link = document.createElement('a')
    link.href = URL.createObjectURL(new Blob([result.text], { type: 'application/jsonl' }))
    link.download = `${name}.jsonl`
    link.click()
    URL.revokeObjectURL(link.href)
  }

  return (
    <section className="main" aria-label="Replay">
      <PageHeader
        title="Replay"
        sub="Replay a recorded session against one target (compared with the recording) or two (A vs B), turn by turn."
        onClose={showTargetPage}
      />
      <div className="replay-layout">
        <aside className="replay-library">
          <div className="toolbar">
            <strong>Recordings</strong>
            <span className="spacer" />
            <button className="btn small" onClick={() => fileInput.current?.click()}>
              Import…
            </button>
            <input
              ref={fileInput}
              type="file"
              accept=".jsonl,.json,application/jsonl"
              hidden
              onChange={(e) => (e.target.files?.[0] && void importFile(e.target.files[0]), (e.target.value = ''))}
            />
          </div>
          {recordings?.length === 0 && (
            <div className="empty" style={{ margin: 16 }}>
              No recordings yet. Record a connection with ● Record on its page.
            </div>
          )}
          {recordings?.map((r) => (
            <div
              key={r.name}
              className={`recording${loaded?.name === r.name ? ' selected' : ''}${r.damaged ? ' damaged' : ''}`}
              data-damaged={r.damaged ? 'true' : undefined}
            >
              <button
                className="recording-open"
                onClick={() => void open(r.name)}
                data-recording={r.name}
                disabled={!!r.damaged}
                title={r.damaged ? `Damaged: ${r.damaged}` : r.header?.targets.map((t) => t.name).join(', ')}
              >
                <div>{r.name}</div>
                {r.damaged ? (
                  <div className="recording-damaged">Damaged: {r.damaged}</div>
                ) : (
                  <div className="muted">
                    {bytes(r.bytes)} · {new Date(r.modifiedAt).toLocaleString()}
                  </div>
                )}
              </button>
              <span className="recording-actions">
                <button className="btn ghost small" title="Export" onClick={() => void exportRecording(r.name)}>
                  ⤓
                </button>
                <button className="btn ghost small" title="Rename" onClick={() => void rename(r.name)}>
                  ✎
                </button>
                <button
                  className="btn ghost small"
                  title="Delete"
                  onClick={() =>
                    confirm(`Delete ${r.name}?`) && void command((api) => api.invoke('recordings.delete', { name: r.name })).then(refresh)
                  }
                >
                  ✕
                </button>
              </span>
            </div>
          ))}
        </aside>
        <div className="replay-main">
          {!loaded ? (
            <div className="empty">
              <h2>Pick a recording</h2>
              <p>
                The demo media-buying session is in the library: replay it against the demo agent over MCP and over A2A to see what a
                difference looks like.
              </p>
            </div>
          ) : (
            <>
              <div className="replay-controls">
                <label>
                  A{' '}
                  <select className="input" value={a} onChange={(e) => setA(e.target.value)} aria-label="Target A">
                    {targets.map((t) => (
                      <option key={t.id} value={t.id}>
                        {t.name}
                      </option>
                    ))}
                  </select>
                </label>
                <label>
                  B{' '}
                  <select className="input" value={b} onChange={(e) => setB(e.target.value)} aria-label="Target B">
                    <option value="">(none: compare A with the recording)</option>
                    {targets.map((t) => (
                      <option key={t.id} value={t.id}>
                        {t.name}
                      </option>
                    ))}
                  </select>
                </label>
                <input
                  className="input mono"
                  value={ignore}
                  onChange={(e) => setIgnore(e.target.value)}
                  placeholder="ignore JSON Pointers, e.g. /data/report/spend"
                  aria-label="Ignore"
                />
                <button className="btn" onClick={() => void run('step')} disabled={busy}>
                  Step
                </button>
                <button className="btn primary" onClick={() => void run('run')} disabled={busy}>
                  {replay && !replay.finished ? 'Run the rest' : 'Run all'}
                </button>
                <button
                  className="btn"
                  disabled={!replay || replay.finished}
                  onClick={() => replayId && void command((api) => api.invoke('replay.stop', { replayId }))}
                >
                  Stop
                </button>
              </div>
              {loaded.problems.length > 0 && (
                <div className="verdict warn">
                  {loaded.problems.length} line(s) could not be read and were skipped:{' '}
                  {loaded.problems.map((p) => `line ${p.line} (${p.message})`).join('; ')}
                </div>
              )}
              {replay && <ParitySummary replay={replay} />}
              <TurnTable turns={loaded.turns} replay={replay} />
            </>
          )}
        </div>
      </div>
    </section>
  )
}

/** `name (2)`, `name (3)`… the first one not in `taken`. */
function freeName(name: string, taken: Set<string>): string {
  const base = name.replace(/ \(\d+\)$/, '')
  let n = 2
  while (taken.has(`${base} (${n})`)) n++
  return `${base} (${n})`
}
