import { useEffect, useRef, useState } from 'react'
import { visibleName, type RecordingInfo } from '../../../../shared/contract'
import { download, fileNamePart } from '../../components/download'
import { bytes } from '../../components/format'
import { Name } from '../../components/Name'
import { PageHeader } from '../../components/PageHeader'
import { forgetReplayRecording, openRecording, setReplayOptions, showTargetPage } from '../../store/actions'
import { command, showToast, useStore, type ReplayState } from '../../store/store'
import { ParitySummary, TurnTable } from './TurnResults'
import { SharedTimeline, turnStarts } from '../connection/timeline/SharedTimeline'
import './replay.css'

/**
 * Record once, replay against one target (vs the recording) or two (A vs B), turn by turn. What the user
 * picked and the results of each recording's latest replay stay while they go elsewhere (and across a
 * reload: replays are events), until the recording is replayed again.
 */
export function ReplayView() {
  const targets = useStore((s) => s.targets)
  const { recording: loaded, a, b, ignore, keep, busy } = useStore((s) => s.replayPage)
  const replay = useStore((s) => (loaded ? latestReplayOf(s.replays, loaded.name) : undefined))
  const [recordings, setRecordings] = useState<RecordingInfo[]>()
  // Busy lives in the store: a run goes on while the user is elsewhere, and the buttons must still know.
  const setBusy = (value: boolean) => setReplayOptions({ busy: value })
  const fileInput = useRef<HTMLInputElement>(null)

  const refresh = async () => setRecordings((await command((api) => api.invoke('recordings.list', {}))) ?? [])
  // Listed once the engine is reachable: the view may open before the app has connected to it.
  const api = useStore((s) => s.api)
  useEffect(() => {
    if (api) void refresh()
  }, [api])
  const open = (name: string) => openRecording(name)
  const start = async () => {
    if (!loaded) return
    setBusy(true)
    const ignored = ignore.split(/[\s,]+/).filter(Boolean)
    const started = await command((api) =>
      api.invoke('replay.start', { recording: loaded.name, targetIds: b ? [a, b] : [a], ignore: ignored, keep }),
    )
    setBusy(false)
    return started?.replayId
  }
  const run = async (mode: 'step' | 'run') => {
    const id = replay && !replay.finished ? replay.id : await start()
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
        if (loaded?.name === name) await open(to)
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
    if (result) download(`${name}.jsonl`, result.text, 'application/jsonl')
  }
  /** The replay on screen as one self-contained HTML file (made, and redacted, by the engine): the same report as `parallax replay --report`. */
  const exportReport = async () => {
    if (!replay) return
    const report = await command((api) => api.invoke('replay.report', { replayId: replay.id }))
    if (report) download(`parity-${fileNamePart(replay.recording ?? replay.id)}.html`, report.html, 'text/html')
  }

  return (
    <section className="main" aria-label="Replay">
      <PageHeader
        title="Replay"
        sub="Replay a recorded session against one target (compared with the recording) or two (A vs B), turn by turn."
        onClose={showTargetPage}
      >
        <button
          className="btn"
          disabled={!replay?.turns.length}
          onClick={() => void exportReport()}
          title="Download this replay's parity as one HTML file: every turn with its badge, diffs and both outcomes"
        >
          Export report
        </button>
      </PageHeader>
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
                title={r.damaged ? `Damaged: ${r.damaged}` : r.header?.targets.map((t) => visibleName(t.name)).join(', ')}
              >
                <div>
                  <Name value={r.name} />
                </div>
                {r.damaged ? (
                  <div className="recording-damaged">Damaged: {r.damaged}</div>
                ) : (
                  <div className="muted" title={`File changed ${new Date(r.modifiedAt).toLocaleString()}`}>
                    {recordedOn(r)} · {bytes(r.bytes)}
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
                    confirm(`Delete ${r.name}?`) &&
                    void command((api) => api.invoke('recordings.delete', { name: r.name })).then((deleted) => {
                      if (deleted?.deleted) forgetReplayRecording(r.name)
                      return refresh()
                    })
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
                  <select className="input" value={a} onChange={(e) => setReplayOptions({ a: e.target.value })} aria-label="Target A">
                    {targets.map((t) => (
                      <option key={t.id} value={t.id}>
                        {visibleName(t.name)}
                      </option>
                    ))}
                  </select>
                </label>
                <label>
                  B{' '}
                  <select className="input" value={b} onChange={(e) => setReplayOptions({ b: e.target.value })} aria-label="Target B">
                    <option value="">(none: compare A with the recording)</option>
                    {targets.map((t) => (
                      <option key={t.id} value={t.id}>
                        {visibleName(t.name)}
                      </option>
                    ))}
                  </select>
                </label>
                <input
                  className="input mono"
                  value={ignore}
                  onChange={(e) => setReplayOptions({ ignore: e.target.value })}
                  placeholder="ignore JSON Pointers, e.g. /data/report/spend"
                  aria-label="Ignore"
                />
                <label className="muted" title="Keep the replay's connections open when it ends, to inspect them; close them from here">
                  <input type="checkbox" checked={keep} onChange={(e) => setReplayOptions({ keep: e.target.checked })} /> Keep connections
                </label>
                <button className="btn" onClick={() => void run('step')} disabled={busy}>
                  Step
                </button>
                <button className="btn primary" onClick={() => void run('run')} disabled={busy}>
                  {replay && !replay.finished ? 'Run the rest' : 'Run all'}
                </button>
                <button
                  className="btn"
                  disabled={!replay || replay.finished}
                  onClick={() => replay && void command((api) => api.invoke('replay.stop', { replayId: replay.id }))}
                >
                  Stop
                </button>
              </div>
              {loaded.startedAt && (
                <div className="muted" data-testid="recording-date">
                  Recorded {new Date(loaded.startedAt).toLocaleString()} · {loaded.turns.length} turn(s)
                </div>
              )}
              {loaded.problems.length > 0 && (
                <div className="verdict warn" data-testid="recording-problems">
                  {loaded.problems.length === 1 ? 'One problem' : `${loaded.problems.length} problems`} reading this recording (the rest is
                  used): {loaded.problems.map((p) => `line ${p.line}: ${p.message}`).join('; ')}
                </div>
              )}
              {replay && <ParitySummary replay={replay} />}
              <TurnTable turns={loaded.turns} replay={replay} />
              {replay && <ReplayAxis replay={replay} />}
            </>
          )}
        </div>
      </div>
    </section>
  )
}

/** The replay's live sides (a recording has no connection to draw) on one time axis, alignable by turn. */
function ReplayAxis({ replay }: { replay: ReplayState }) {
  const connections = useStore((s) => s.connections)
  const sides = (['a', 'b'] as const).flatMap((key) => {
    const side = replay.sides?.[key]
    const view = side?.connectionId ? connections[side.connectionId] : undefined
    return side?.connectionId && view
      ? [{ connectionId: side.connectionId, title: `${key.toUpperCase()} · ${side.label}`, turns: turnStarts(view) }]
      : []
  })
  if (sides.length === 0) return null
  return (
    <>
      <div className="section-title">On one time axis</div>
      <SharedTimeline name={`replay-${replay.recording ?? replay.id}`} sides={sides} />
    </>
  )
}

/** The newest replay of a recording (the one started last), whose results show until it is replayed again. */
function latestReplayOf(replays: Record<string, ReplayState>, recording: string): ReplayState | undefined {
  let latest: ReplayState | undefined
  for (const replay of Object.values(replays))
    if (replay.recording === recording && (!latest || replay.startedSeq > latest.startedSeq)) latest = replay
  return latest
}

/** When a recording was made, from its own header (a copied or imported file keeps its date); else when its file last changed. */
function recordedOn(r: RecordingInfo): string {
  const started = r.header?.startedAt ? Date.parse(r.header.startedAt) : NaN
  return Number.isNaN(started) ? `file ${new Date(r.modifiedAt).toLocaleString()}` : `recorded ${new Date(started).toLocaleString()}`
}

/** `name (2)`, `name (3)`… the first one not in `taken`. */
function freeName(name: string, taken: Set<string>): string {
  const base = name.replace(/ \(\d+\)$/, '')
  let n = 2
  while (taken.has(`${base} (${n})`)) n++
  return `${base} (${n})`
}
