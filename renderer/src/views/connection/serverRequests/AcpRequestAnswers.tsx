import { useState } from 'react'
import type { ServerRequestEvent } from '../../../../../shared/contract'
import { JsonView } from '../../../components/JsonView'
import { AgentText } from '../../../components/Name'
import { answerServerRequest } from '../../../store/actions'

/** An ACP agent asks before a tool call: its options (allow once, reject, …) as buttons, the call's input beside them. */
export function PermissionAnswer({ connectionId, request }: { connectionId: string; request: ServerRequestEvent }) {
  const params = (request.params ?? {}) as {
    toolCall?: { title?: string; name?: string; rawInput?: unknown }
    options?: { optionId: string; name: string; kind: string }[]
  }
  const [busy, setBusy] = useState(false)
  const choose = async (optionId: string) => {
    setBusy(true)
    await answerServerRequest(connectionId, request.id, { result: { optionId } })
    setBusy(false)
  }
  return (
    <div className="server-request-body">
      <AgentText value={params.toolCall?.title ?? params.toolCall?.name ?? 'a tool call'} className="server-request-message" />
      {params.toolCall?.rawInput !== undefined && <JsonView value={params.toolCall.rawInput} openDepth={1} />}
      <div className="server-request-actions">
        {(params.options ?? []).map((option) => (
          <button
            key={option.optionId}
            className={`btn ${option.kind.startsWith('allow') ? 'primary' : 'danger'}`}
            disabled={busy}
            onClick={() => void choose(option.optionId)}
            title={option.kind}
          >
            {option.name}
          </button>
        ))}
      </div>
    </div>
  )
}

/** An ACP agent asks to run a command in a terminal: shown whole (command, arguments, folder, environment) before it may run. */
export function CommandAnswer({ connectionId, request }: { connectionId: string; request: ServerRequestEvent }) {
  const params = (request.params ?? {}) as { command?: string; args?: string[]; cwd?: string; env?: { name: string; value: string }[] }
  const [busy, setBusy] = useState(false)
  const send = async (run: boolean) => {
    setBusy(true)
    await answerServerRequest(connectionId, request.id, run ? { result: {} } : { reject: 'the user refused to run it' })
    setBusy(false)
  }
  return (
    <div className="server-request-body">
      <div className="mono server-request-message" data-testid="terminal-command">
        {[params.command, ...(params.args ?? [])].join(' ')}
      </div>
      <div className="muted">
        in {params.cwd ?? 'the workspace folder'}
        {params.env?.length ? ` · with ${params.env.map((v) => v.name).join(', ')} set` : ''}
      </div>
      <div className="server-request-actions">
        <button className="btn primary" disabled={busy} onClick={() => void send(true)}>
          Run
        </button>
        <button className="btn danger" disabled={busy} onClick={() => void send(false)}>
          Refuse
        </button>
      </div>
    </div>
  )
}
