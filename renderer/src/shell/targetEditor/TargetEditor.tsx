import { useState } from 'react'
import type { SavedTarget } from '../../../../shared/contract'
import { Modal } from '../../components/Modal'
import { closeEditor, connect, noteEditedWhileConnected, reconnect, reloadTargets } from '../../store/actions'
import { useStore } from '../../store/store'
import { AcpFields } from './AcpFields'
import { CardFields } from './CardFields'
import { ClientRoleFields } from './ClientRoleFields'
import { CommandFields } from './CommandFields'
import { ConnectionOptions } from './ConnectionOptions'
import { HttpFields } from './HttpFields'
import { draftOf, formOf, type Kind, type TargetForm } from './targetForm'
import './targetEditor.css'

const KINDS: [Kind, string][] = [
  ['mcp-stdio', 'MCP over stdio'],
  ['mcp-http', 'MCP over HTTP'],
  ['a2a', 'A2A agent'],
  ['acp', 'ACP agent'],
]

/**
 * Add or edit a server or agent: a stdio command with its environment (an MCP server, or an ACP agent with
 * its workspace folder and the MCP servers handed to it), or a URL with headers. Save, or save and
 * connect at once. A target may be edited while connected: the live connection keeps what it was opened
 * with, and the edit applies when it reconnects (Save and reconnect does that now).
 */
export function TargetEditor({ target }: { target: SavedTarget | undefined }) {
  // The target's live session, if any: the edit applies to it only when it reconnects.
  const liveId = useStore((s) => {
    const view = target ? s.connections[s.latestByTarget[target.id]] : undefined
    return view && (view.state === 'connected' || view.state === 'degraded' || view.state === 'connecting') ? view.id : undefined
  })
  const [form, setForm] = useState(() => formOf(target, useStore.getState().info?.defaults))
  const set = (patch: Partial<TargetForm>) => setForm((current) => ({ ...current, ...patch }))
  const [error, setError] = useState<string>()
  const close = () => closeEditor()
  const { kind } = form

  const save = async (then: 'close' | 'connect') => {
    setError(undefined)
    try {
      const draft = draftOf(form, target)
      const api = useStore.getState().api
      // The user wrote (or reviewed) this command here, so saving it approves it; any later change to it asks again.
      const saved = await api!.invoke('targets.save', { ...draft, approve: draft.spec.kind === 'mcp-stdio' || draft.spec.kind === 'acp' })
      await reloadTargets()
      closeEditor({ select: saved.id })
      if (then === 'connect') await (liveId ? reconnect(liveId) : connect(saved))
      else if (liveId) noteEditedWhileConnected(saved.id, liveId)
    } catch (e) {
      setError((e as Error).message)
    }
  }

  const remove = async () => {
    if (!target) return
    await useStore.getState().api!.invoke('targets.remove', { id: target.id })
    await reloadTargets()
    closeEditor({ select: useStore.getState().targets[0]?.id })
  }

  return (
    <Modal
      title={target ? `Edit ${target.name}` : 'Add a server or agent'}
      onClose={close}
      footer={
        <>
          {target && target.origin !== 'demo' && (
            <button className="btn danger" onClick={() => void remove()} style={{ marginRight: 'auto' }}>
              Remove
            </button>
          )}
          <button className="btn" onClick={close}>
            Cancel
          </button>
          <button
            className="btn"
            onClick={() => void save('close')}
            title={liveId ? 'Save; the connection keeps what it was opened with until it reconnects' : 'Save'}
          >
            Save
          </button>
          <button className="btn primary" onClick={() => void save('connect')}>
            {liveId ? 'Save and reconnect' : 'Save and connect'}
          </button>
        </>
      }
    >
      {liveId && (
        <div className="editor-note" data-testid="editing-live">
          Connected now: the connection keeps what it was opened with, and your changes apply when it reconnects.
          <span className="muted"> “Save and reconnect” does that now.</span>
        </div>
      )}
      <div className="form">
        <label htmlFor="t-name">Name</label>
        <input
          id="t-name"
          className="input"
          value={form.name}
          onChange={(e) => set({ name: e.target.value })}
          placeholder="my-server"
          autoFocus
        />
        <label>Transport</label>
        <div className="segmented">
          {KINDS.map(([value, label]) => (
            <button key={value} className={kind === value ? 'on' : ''} onClick={() => set({ kind: value })}>
              {label}
            </button>
          ))}
        </div>
        {kind === 'mcp-http' && <CardFields form={form} set={set} />}
        {kind === 'mcp-stdio' || kind === 'acp' ? (
          <CommandFields form={form} set={set} kind={kind} />
        ) : (
          <HttpFields form={form} set={set} />
        )}
        {kind === 'acp' && <AcpFields form={form} set={set} targetId={target?.id} />}
        <ClientRoleFields form={form} set={set} />
        <ConnectionOptions form={form} set={set} />
      </div>
      {error && <div className="error-text">{error}</div>}
    </Modal>
  )
}
