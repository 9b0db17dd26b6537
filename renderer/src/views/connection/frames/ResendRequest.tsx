import { useEffect, useState } from 'react'
import { changesState, notResendable, requestParams, visibleName, type FrameEvent, type RequestCheck } from '../../../../../shared/contract'
import { Modal } from '../../../components/Modal'
import { checkResend, resendRequest } from '../../../store/resendActions'
import './resend.css'

type Checked = RequestCheck | { refused: string } | { notJson: string } | undefined

/**
 * A request frame's Resend and Edit: sent again as it was, or with params edited in a JSON editor that is
 * checked against the protocol's schema for the method as the user types (nothing is sent while it breaks
 * it). One that changes state (a tool call, a message, a cancel) asks first. `onSent` gets the new request's
 * frame; a frame that was itself sent again links to the one it repeats (`origin`: its position in the
 * list shown, or -1; `originNumber`: its number in the connection, what the link says).
 */
export function ResendRequest({
  frame,
  connectionId,
  onSent,
  origin,
  originNumber,
  onOrigin,
}: {
  frame: FrameEvent
  connectionId: string
  onSent: (seq: number) => void
  origin: number
  originNumber: number | undefined
  onOrigin: (index: number) => void
}) {
  const [editing, setEditing] = useState(false)
  const [text, setText] = useState('')
  const [checked, setChecked] = useState<Checked>()
  const [confirming, setConfirming] = useState<{ params?: Record<string, unknown> } | undefined>()
  const [busy, setBusy] = useState(false)
  const method = frame.method ?? ''
  const asksFirst = changesState(frame.protocol, method)
  const original = () => JSON.stringify(requestParams(frame), null, 2)

  // The editor closes when another frame is selected.
  useEffect(() => {
    setEditing(false)
    setChecked(undefined)
  }, [frame.seq])

  // Checked as the user types, a moment after they pause.
  useEffect(() => {
    if (!editing) return
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (error) {
      setChecked({ notJson: (error as Error).message })
      return
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      setChecked({ notJson: 'the params must be a JSON object' })
      return
    }
    let current = true
    const timer = setTimeout(() => {
      void checkResend(connectionId, frame.seq, parsed as Record<string, unknown>).then((result) => current && setChecked(result))
    }, 200)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [editing, text, connectionId, frame.seq])

  const originLink = origin !== -1 && originNumber !== undefined && (
    <button
      className="btn ghost small link"
      onClick={() => onOrigin(origin)}
      data-testid="frame-resend-of"
      title="Jump to the request this one sent again"
    >
      sent again from #{originNumber}
    </button>
  )
  if (notResendable(frame))
    return originLink ? (
      <div className="resend">
        <div className="resend-bar">{originLink}</div>
      </div>
    ) : null

  const send = async (params: Record<string, unknown> | undefined, confirmed: boolean) => {
    if (asksFirst && !confirmed) return setConfirming({ params })
    setConfirming(undefined)
    setBusy(true)
    const result = await resendRequest(connectionId, frame.seq, params, confirmed)
    setBusy(false)
    if (!result) return
    setEditing(false)
    if (result.requestSeq !== undefined) onSent(result.requestSeq)
  }
  const editedParams = () => JSON.parse(text) as Record<string, unknown>
  const sendable = checked !== undefined && 'problems' in checked && checked.problems.length === 0

  return (
    <div className="resend" data-testid="resend">
      <div className="resend-bar">
        <button
          className="btn small"
          disabled={busy}
          onClick={() => void send(undefined, false)}
          title="Send this request again, as it was, on this connection"
        >
          ↻ Resend
        </button>
        <button
          className="btn small ghost"
          disabled={busy}
          aria-pressed={editing}
          onClick={() => {
            if (!editing) setText(original())
            setEditing(!editing)
          }}
          title="Edit the params, checked against the protocol's schema for the method, then send"
        >
          Edit & resend
        </button>
        {originLink}
        <span className="spacer" />
        <span className="muted resend-note" title="The frame's number in recordings and exports: parallax request --from-frame FILE#SEQ">
          event #{frame.seq}
        </span>
        {asksFirst && <span className="muted resend-note resend-asks">asks first: {asksFirst}</span>}
      </div>
      {editing && (
        <div className="resend-editor">
          <label className="muted resend-label" htmlFor={`resend-${frame.seq}`}>
            params of <span className="mono">{visibleName(method)}</span>
          </label>
          <textarea
            id={`resend-${frame.seq}`}
            className="input mono resend-text"
            value={text}
            spellCheck={false}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.metaKey || e.ctrlKey) && sendable) void send(editedParams(), false)
            }}
            aria-label="Params to send (JSON)"
          />
          <CheckLine checked={checked} protocol={frame.protocol} />
          <div className="resend-bar">
            <button className="btn small primary" disabled={busy || !sendable} onClick={() => void send(editedParams(), false)}>
              {busy ? 'Sending…' : 'Send edited'}
            </button>
            <button className="btn small ghost" onClick={() => setText(original())} disabled={busy}>
              Reset
            </button>
            <button className="btn small ghost" onClick={() => setEditing(false)} disabled={busy}>
              Cancel
            </button>
            <span className="muted resend-note">Ctrl+Enter sends</span>
          </div>
        </div>
      )}
      {confirming && (
        <Modal
          title={`Send ${method} again?`}
          role="alertdialog"
          onClose={() => setConfirming(undefined)}
          footer={
            <>
              <button className="btn" onClick={() => setConfirming(undefined)}>
                Cancel
              </button>
              <button className="btn primary" autoFocus onClick={() => void send(confirming.params, true)}>
                Send
              </button>
            </>
          }
        >
          <p>
            This sends <span className="mono">{visibleName(method)}</span>
            {frame.subject && (
              <>
                {' '}
                (<span className="mono">{visibleName(frame.subject)}</span>)
              </>
            )}{' '}
            {confirming.params ? 'with your edited params' : 'exactly as it was sent'} on this connection, and {asksFirst}.
          </p>
          {method === 'tools/call' && <p className="muted">The target's hooks run on it as on any call.</p>}
        </Modal>
      )}
    </div>
  )
}

/** What checking the edited params found: not JSON, where the schema refuses them and why, or that they fit. */
function CheckLine({ checked, protocol }: { checked: Checked; protocol: FrameEvent['protocol'] }) {
  if (checked === undefined) return <div className="muted resend-check">Checking…</div>
  if ('notJson' in checked)
    return (
      <div className="resend-check bad" role="alert">
        Not sendable: {checked.notJson}
      </div>
    )
  if ('refused' in checked)
    return (
      <div className="resend-check bad" role="alert">
        {checked.refused}
      </div>
    )
  if (checked.problems.length)
    return (
      <ul className="resend-check bad" role="alert" aria-label="Schema problems">
        {checked.problems.map((p, i) => (
          <li key={i}>
            <span className="mono">{p.path || '(params)'}</span>: {p.message}
          </li>
        ))}
      </ul>
    )
  return (
    <div className="resend-check ok">
      {checked.schemaKnown
        ? `✓ fits the ${protocol.toUpperCase()} schema for ${checked.method}`
        : `No schema is known for ${checked.method}: it is sent as written`}
    </div>
  )
}
