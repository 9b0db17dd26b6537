import { useEffect, useState } from 'react'
import type { ClientProfile, CompareResult } from '../../../../shared/contract'
import { JsonView } from '../../components/JsonView'
import { Name } from '../../components/Name'
import { PageHeader } from '../../components/PageHeader'
import { setCompareResult, setCompareSide, showFrame, showTargetPage } from '../../store/actions'
import { command, useStore, type CompareSide } from '../../store/store'
import { ProfilesDialog } from './ProfilesDialog'

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
  const loadProfiles = async () => setProfiles((await command((api) => api.invoke('profiles.list', {}))) ?? [])
  useEffect(() => void loadProfiles(), [])
  const run = async () => {
    setBusy(true)
    const side = (s: typeof a) => ({ targetId: s.targetId, ...(s.profile && { profile: s.profile }) })
    const compared = await command((api) => api.invoke('compare.run', { a: side(a), b: side(b) }))
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
            {t.name}
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
        <button className="btn" onClick={() => setEditing(true)}>
          Profiles…
        </button>
      </PageHeader>
      <div className="compare-pickers">
        {picker('A', a, setA)}
        {picker('B', b, setB)}
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

function Frames({ result, frames }: { result: CompareResult; frames: { a?: number; b?: number } }) {
  return (
    <span className="frame-links">
      {frames.a !== undefined && (
        <button
          className="btn ghost small"
          onClick={() => showFrame(result.a.connectionId, frames.a)}
          title="The frame in A that showed it"
        >
          A frame
        </button>
      )}
      {frames.b !== undefined && (
        <button
          className="btn ghost small"
          onClick={() => showFrame(result.b.connectionId, frames.b)}
          title="The frame in B that showed it"
        >
          B frame
        </button>
      )}
    </span>
  )
}

function CompareResultView({ result }: { result: CompareResult }) {
  const { handshake, catalog } = result
  const name = (s: CompareResult['a']) => `${s.targetName}${s.profile ? ` · ${s.profile}` : ''}`
  const none = handshake.length + catalog.added.length + catalog.removed.length + catalog.changed.length === 0
  return (
    <div className="compare-result" data-testid="compare-result">
      <div className="cols compare-heads">
        <div className="card">
          <h3>A</h3>
          {name(result.a)}
        </div>
        <div className="card">
          <h3>B</h3>
          {name(result.b)}
        </div>
      </div>
      {none && <div className="verdict ok">No difference: both sides negotiated and exposed the same.</div>}
      <div className="section-title">Handshake</div>
      {handshake.length === 0 ? (
        <div className="muted">The same.</div>
      ) : (
        <table className="grid" data-testid="compare-handshake">
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
        Catalog <span className="count">{catalog.added.length} added</span> <span className="count">{catalog.removed.length} removed</span>{' '}
        <span className="count">{catalog.changed.length} changed</span>
      </div>
      <div className="compare-catalog" data-testid="compare-catalog">
        {catalog.added.map((x) => (
          <div key={`+${x.kind}${x.name}`} className="compare-item added" data-name={x.name}>
            <span className="diff-op">+</span> <span className="muted">{x.kind}</span> <Name value={x.name} className="mono" />{' '}
            <span className="muted">only in B</span>
            <Frames result={result} frames={x.frames} />
          </div>
        ))}
        {catalog.removed.map((x) => (
          <div key={`-${x.kind}${x.name}`} className="compare-item removed" data-name={x.name}>
            <span className="diff-op">−</span> <span className="muted">{x.kind}</span> <Name value={x.name} className="mono" />{' '}
            <span className="muted">only in A</span>
            <Frames result={result} frames={x.frames} />
          </div>
        ))}
        {catalog.changed.map((x) => (
          <div key={`~${x.kind}${x.name}`} className="compare-item changed" data-name={x.name}>
            <div>
              <span className="diff-op">~</span> <span className="muted">{x.kind}</span> <Name value={x.name} className="mono" />{' '}
              <span className={`badge ${x.breaking ? 'bad' : 'ok'}`}>{x.breaking ? 'breaking' : 'compatible'}</span>
              <Frames result={result} frames={x.frames} />
            </div>
            <ul className="diff">
              {x.changes.map((c) => (
                <li key={c.path + c.kind}>
                  <span className={c.breaking ? 'status failed' : 'status called'}>{c.breaking ? 'breaking' : 'ok'}</span>{' '}
                  <span className="mono">{c.path}</span> {c.detail}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </div>
  )
}
