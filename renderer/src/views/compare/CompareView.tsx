import { useEffect, useState } from 'react'
import {
  catalogCounts,
  catalogRows,
  visibleName,
  type CatalogRow,
  type ClientProfile,
  type CompareResult,
} from '../../../../shared/contract'
import { download, fileNamePart } from '../../components/download'
import { FrameLink } from '../../components/FrameLink'
import { JsonView } from '../../components/JsonView'
import { Name } from '../../components/Name'
import { PageHeader } from '../../components/PageHeader'
import { setCompareResult, setCompareSide, showTargetPage } from '../../store/actions'
import { command, useStore, type CompareSide } from '../../store/store'
import { ProfilesDialog } from './ProfilesDialog'
import { SharedTimeline } from '../connection/timeline/SharedTimeline'
import '../../components/diffList.css'
import './compare.css'

type Profiles = (ClientProfile & { preset: boolean })[]

/**
 * One target under two client profiles, or two targets: what each exposed, side by side. Compare opens
 * connections of its own and closes them when done: the user's session with a target is never touched.
 * The sides picked and the last result stay while the user goes elsewhere.
 */
export function CompareView() {
  const targets = useStore((s) => s.targets)
  const [profiles, setProfiles] = useState<Profiles>([])
  const { a, b, result } = useStore((s) => s.comparePage)
  const setA = (side: CompareSide) => setCompareSide('a', side)
  const setB = (side: CompareSide) => setCompareSide('b', side)
  const [busy, setBusy] = useState(false)
  const [editing, setEditing] = useState(false)
  // An ACP side can also be prompted: the tools it uses show what it did, not only what it exposed.
  const [prompt, setPrompt] = useState('')
  const acp = [a, b].some((s) => targets.find((t) => t.id === s.targetId)?.spec.kind === 'acp')
  const loadProfiles = async () => setProfiles((await command((api) => api.invoke('profiles.list', {}))) ?? [])
  // Listed once the engine is reachable: the view may open before the app has connected to it.
  const api = useStore((s) => s.api)
  useEffect(() => {
    if (api) void loadProfiles()
  }, [api])
  const run = async () => {
    setBusy(true)
    const side = (s: typeof a) => ({ targetId: s.targetId, ...(s.profile && { profile: s.profile }) })
    const compared = await command((api) =>
      api.invoke('compare.run', { a: side(a), b: side(b), ...(acp && prompt.trim() && { prompt: prompt.trim() }) }),
    )
    if (compared) setCompareResult(compared)
    setBusy(false)
  }
  const picker = (label: string, value: typeof a, set: (v: typeof a) => void) => (
    <div className="compare-side">
      <strong>{label}</strong>
      <select
        className="input"
        value={value.targetId}
        onChange={(e) => set({ ...value, targetId: e.target.value })}
        aria-label={`Target ${label}`}
      >
        {targets.map((t) => (
          <option key={t.id} value={t.id}>
            {visibleName(t.name)}
          </option>
        ))}
      </select>
      <select
        className="input"
        value={value.profile}
        onChange={(e) => set({ ...value, profile: e.target.value })}
        aria-label={`Profile ${label}`}
      >
        <option value="">(no profile)</option>
        {profiles.map((p) => (
          <option key={p.name} value={p.name} title={p.description}>
            {p.name}
          </option>
        ))}
      </select>
    </div>
  )
  return (
    <section className="main" aria-label="Compare">
      <PageHeader
        title="Compare"
        sub="Did the agent honour what the client asked? Connect under two profiles, or to two targets, and see what changed."
        onClose={showTargetPage}
      >
        <button
          className="btn"
          onClick={() => result && void exportReport(result)}
          disabled={!result}
          title="Download this comparison as one HTML file (no script, nothing loaded from elsewhere)"
        >
          Export report
        </button>
        <button className="btn" onClick={() => setEditing(true)}>
          Profiles…
        </button>
      </PageHeader>
      <div className="compare-pickers">
        {picker('A', a, setA)}
        {picker('B', b, setB)}
        {acp && (
          <input
            className="input"
            value={prompt}
            onChange={(e) => setPrompt(e.target.value)}
            placeholder="ACP: a prompt to send each side (optional)"
            aria-label="Prompt for ACP sides"
            title="Sent to each ACP side once it settled: the tools it used are listed too"
          />
        )}
        <button className="btn primary" onClick={() => void run()} disabled={busy}>
          {busy ? 'Comparing…' : 'Compare'}
        </button>
      </div>
      <div className="panel">
        {result ? (
          <CompareResultView result={result} />
        ) : (
          <div className="empty">
            Pick two sides and compare. The demo agent adds tools when a client asks for their category: try minimal vs hinted.
          </div>
        )}
      </div>
      {editing && <ProfilesDialog profiles={profiles} onClose={() => (setEditing(false), void loadProfiles())} />}
    </section>
  )
}

/** The comparison on screen as one self-contained HTML file (made, and redacted, by the engine). */
async function exportReport(result: CompareResult) {
  const report = await command((api) => api.invoke('compare.report', { result }))
  if (report)
    download(`compare-${fileNamePart(result.a.targetName)}-vs-${fileNamePart(result.b.targetName)}.html`, report.html, 'text/html')
}

function Frames({ result, frames }: { result: CompareResult; frames: { a?: number; b?: number } }) {
  return (
    <span className="frame-links">
      {frames.a !== undefined && (
        <FrameLink connectionId={result.a.connectionId} seq={frames.a} label="A" title="The frame in A that showed it" />
      )}
      {frames.b !== undefined && (
        <FrameLink connectionId={result.b.connectionId} seq={frames.b} label="B" title="The frame in B that showed it" />
      )}
    </span>
  )
}

/** A side's target, and the profile it connected under, hidden characters marked. */
function SideName({ side }: { side: CompareResult['a'] }) {
  return (
    <>
      <Name value={side.targetName} />
      {side.profile && (
        <>
          {' · '}
          <Name value={side.profile} />
        </>
      )}
    </>
  )
}

function CompareResultView({ result }: { result: CompareResult }) {
  const { handshake, catalog } = result
  const name = (s: CompareResult['a']) => visibleName(`${s.targetName}${s.profile ? ` · ${s.profile}` : ''}`)
  const none = handshake.length + catalog.added.length + catalog.removed.length + catalog.changed.length === 0
  const rows = catalogRows(catalog)
  return (
    <div className="compare-result" data-testid="compare-result">
      <div className="cols compare-heads">
        <div className="card">
          <h3>A</h3>
          <SideName side={result.a} />
        </div>
        <div className="card">
          <h3>B</h3>
          <SideName side={result.b} />
        </div>
      </div>
      {none && <div className="verdict ok">No difference: both sides negotiated and exposed the same.</div>}
      <div className="section-title">On one time axis</div>
      <SharedTimeline
        name={`compare-${result.a.targetName}-vs-${result.b.targetName}`}
        sides={[
          { connectionId: result.a.connectionId, title: `A · ${name(result.a)}` },
          { connectionId: result.b.connectionId, title: `B · ${name(result.b)}` },
        ]}
      />
      <div className="section-title">Handshake</div>
      {handshake.length === 0 ? (
        <div className="muted">The same.</div>
      ) : (
        <table className="grid compare-handshake" data-testid="compare-handshake">
          <thead>
            <tr>
              <th>Field</th>
              <th>By</th>
              <th title={name(result.a)}>A</th>
              <th title={name(result.b)}>B</th>
              <th>Frames</th>
            </tr>
          </thead>
          <tbody>
            {handshake.map((h) => (
              <tr key={h.field}>
                <td className="mono">{h.field}</td>
                <td>
                  <span className={`badge ${h.origin === 'client' ? 'idle' : 'warn'}`}>
                    {h.origin === 'client' ? 'offered by the client' : 'answered by the agent'}
                  </span>
                </td>
                <td>
                  <JsonView value={h.a ?? null} openDepth={1} />
                </td>
                <td>
                  <JsonView value={h.b ?? null} openDepth={1} />
                </td>
                <td>
                  <Frames result={result} frames={h.frames} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="section-title">
        Catalog <span className="count">{catalogCounts(catalog)}</span>
      </div>
      {rows.length === 0 ? (
        <div className="muted">Neither side listed anything.</div>
      ) : (
        <table className="grid compare-catalog" data-testid="compare-catalog">
          <thead>
            <tr>
              <th>Kind</th>
              <th>Name</th>
              <th title={name(result.a)}>A</th>
              <th title={name(result.b)}>B</th>
              <th>Status</th>
              <th>Frames</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <CatalogEntry key={`${row.kind}:${row.name}`} row={row} result={result} />
            ))}
          </tbody>
        </table>
      )}
    </div>
  )
}

/** The classes a status had as a list item (`added`: only in B, `removed`: only in A), kept for the row. */
const ROW_CLASS: Record<CatalogRow['status'], string> = { same: 'same', 'only in A': 'removed', 'only in B': 'added', changed: 'changed' }
/** Gone from B (a client of A loses it) is red; new in B, or changed compatibly, amber; a breaking change, red. */
const STATUS_BADGE: Record<CatalogRow['status'], string> = { same: 'ok', 'only in A': 'bad', 'only in B': 'warn', changed: 'warn' }

/** One catalog entry: in A, in B, how it stands, and the frames that showed it; a changed one lists each change. */
function CatalogEntry({ row, result }: { row: CatalogRow; result: CompareResult }) {
  const present = (side: 'A' | 'B') =>
    row.status === `only in ${side === 'A' ? 'B' : 'A'}` ? <span className="muted">—</span> : <span aria-label={`in ${side}`}>✓</span>
  return (
    <tr className={`compare-item ${ROW_CLASS[row.status]}${row.breaking ? ' breaking' : ''}`} data-name={row.name} data-status={row.status}>
      <td className="muted">{row.kind}</td>
      <td>
        <Name value={row.name} className="mono" />
      </td>
      <td>{present('A')}</td>
      <td>{present('B')}</td>
      <td>
        <span className={`badge ${row.breaking ? 'bad' : STATUS_BADGE[row.status]}`}>{row.status}</span>
        {row.status === 'changed' && (
          <>
            {' '}
            <span className={`badge ${row.breaking ? 'bad' : 'ok'}`}>{row.breaking ? 'breaking' : 'compatible'}</span>
            <ul className="diff">
              {row.changes?.map((c) => (
                <li key={c.path + c.kind}>
                  <span className={c.breaking ? 'status failed' : 'status called'}>{c.breaking ? 'breaking' : 'ok'}</span>{' '}
                  <span className="mono">{c.path}</span> {c.detail}
                </li>
              ))}
            </ul>
          </>
        )}
      </td>
      <td>
        <Frames result={result} frames={row.frames} />
      </td>
    </tr>
  )
}
