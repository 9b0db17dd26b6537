import { useEffect, useState } from 'react'
import type { ListedSession } from '../../../../../shared/contract'
import { Modal } from '../../../components/Modal'
import { closeHistorySettings, deleteSession, exportSession, loadRetention, saveRetention } from '../../../store/historyActions'
import { useStore } from '../../../store/store'
import { endOf, size, whenStarted } from './sessionWords'

/** A time as a `datetime-local` input holds it, to the second, in local time. */
export function localInput(ts: number): string {
  const d = new Date(ts)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}

/** What a `datetime-local` input says, as epoch ms (NaN when it says nothing usable). */
function fromInput(value: string): number {
  return value ? new Date(value).getTime() : NaN
}

/**
 * Export: the session, whole or between two times (prefilled with its start and end, to the second), saved as a
 * recording in the library; a toast then offers to open it in Replay.
 */
export function ExportSessionDialog({ session, onClose }: { session: ListedSession; onClose: () => void }) {
  const [name, setName] = useState('')
  const [part, setPart] = useState(false)
  const [from, setFrom] = useState(() => localInput(session.startedAt))
  const [to, setTo] = useState(() => localInput(endOf(session) + 999))
  const [busy, setBusy] = useState(false)
  const start = fromInput(from)
  const end = fromInput(to) + 999 // the whole last second
  const invalid = part && (!Number.isFinite(start) || !Number.isFinite(end) || start > end)
  const save = async () => {
    setBusy(true)
    const saved = await exportSession(session.id, {
      ...(name.trim() && { name: name.trim() }),
      ...(part && { from: start, to: end }),
    })
    setBusy(false)
    if (saved) onClose()
  }
  return (
    <Modal
      title="Export the session as a recording"
      onClose={onClose}
      width={580}
      footer={
        <>
          <button className="btn" onClick={onClose}>
            Cancel
          </button>
          <button className="btn primary" onClick={() => void save()} disabled={busy || invalid}>
            {busy ? 'Exporting…' : 'Export'}
          </button>
        </>
      }
    >
      <div className="export-form">
        <p className="muted">
          {session.targetName} · started {whenStarted(session.startedAt)} · {session.events.toLocaleString()} events. The recording goes
          into the library, to replay against any target.
        </p>
        <label className="history-field">
          <span>Name</span>
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="named after the target and its start"
            aria-label="Recording name"
          />
        </label>
        <fieldset className="range">
          <label>
            <input type="radio" name="range" checked={!part} onChange={() => setPart(false)} /> The whole session
          </label>
          <label>
            <input type="radio" name="range" checked={part} onChange={() => setPart(true)} /> Only what happened between
          </label>
          <div className={`range-times${part ? '' : ' off'}`}>
            <input
              type="datetime-local"
              step={1}
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              disabled={!part}
              aria-label="From"
            />
            <span className="muted">and</span>
            <input type="datetime-local" step={1} value={to} onChange={(e) => setTo(e.target.value)} disabled={!part} aria-label="To" />
          </div>
          {invalid && <div className="error-text">The start must come before the end.</div>}
        </fieldset>
      </div>
    </Modal>
  )
}

/** Delete: asks first, saying what goes (the recordings made from it stay). */
export function DeleteSessionDialog({ session, onClose }: { session: ListedSession; onClose: (deleted: boolean) => void }) {
  const [busy, setBusy] = useState(false)
  return (
    <Modal
      title="Delete this session?"
      role="alertdialog"
      onClose={() => onClose(false)}
      width={460}
      footer={
        <>
          <button className="btn" onClick={() => onClose(false)}>
            Keep it
          </button>
          <button
            className="btn danger"
            disabled={busy}
            onClick={async () => {
              setBusy(true)
              onClose(await deleteSession(session.id))
            }}
          >
            Delete
          </button>
        </>
      }
    >
      <p>
        {session.targetName}, started {whenStarted(session.startedAt)}: its {session.events.toLocaleString()} events ({size(session.bytes)})
        are removed from disk. Recordings exported from it stay in the library.
      </p>
    </Modal>
  )
}

/**
 * History settings: how much disk the kept sessions use, and how much they may (the oldest finished sessions go
 * first when over it; a running one never does). From the command palette and from History.
 */
export function HistorySettingsDialog() {
  const open = useStore((s) => s.historySettingsOpen)
  return open ? <HistorySettings /> : null
}

function HistorySettings() {
  const [kept, setKept] = useState<{ bytes: number; used: number }>()
  const [gb, setGb] = useState('')
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    void loadRetention().then((answer) => {
      setKept(answer)
      if (answer) setGb(String(Number((answer.bytes / 1024 ** 3).toFixed(2))))
    })
  }, [])
  const bytes = Math.round(Number(gb) * 1024 ** 3)
  const valid = Number.isFinite(bytes) && bytes >= 16 * 1024 ** 2 && bytes <= 1024 ** 4
  const share = kept ? Math.min(1, kept.used / kept.bytes) : 0
  const save = async () => {
    setBusy(true)
    const set = await saveRetention(bytes)
    setBusy(false)
    if (set) closeHistorySettings()
  }
  return (
    <Modal
      title="Session history"
      onClose={closeHistorySettings}
      width={480}
      footer={
        <>
          <button className="btn" onClick={closeHistorySettings}>
            Cancel
          </button>
          <button className="btn primary" onClick={() => void save()} disabled={!kept || !valid || busy}>
            Save
          </button>
        </>
      }
    >
      <div className="retention" data-testid="retention">
        {kept ? (
          <>
            <div className="retention-use">
              <span>
                <b>{size(kept.used)}</b> <span className="muted">of {size(kept.bytes)} used</span>
              </span>
              <div
                className="meter"
                role="meter"
                aria-label="Disk used by sessions"
                aria-valuenow={Math.round(share * 100)}
                aria-valuemin={0}
                aria-valuemax={100}
              >
                <div style={{ width: `${share * 100}%` }} className={share > 0.9 ? 'full' : undefined} />
              </div>
            </div>
            <label className="history-field">
              <span>Keep at most</span>
              <span className="with-unit">
                <input
                  type="number"
                  min={0.02}
                  step={0.5}
                  value={gb}
                  onChange={(e) => setGb(e.target.value)}
                  onKeyDown={(e) => e.key === 'Enter' && valid && void save()}
                  aria-label="History limit in GB"
                  aria-invalid={!valid}
                />
                GB
              </span>
            </label>
            {!valid && <div className="error-text">From 0.02 GB (16 MB) to 1024 GB.</div>}
            <p className="muted">
              Every session is kept as it happens. Past this size, the oldest finished sessions are removed first; a running one never is.
            </p>
          </>
        ) : (
          <div className="muted">Reading how much the history holds…</div>
        )}
      </div>
    </Modal>
  )
}
