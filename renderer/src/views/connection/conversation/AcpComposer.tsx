import { useState } from 'react'
import type { AcpHandshakeEvent } from '../../../../../shared/contract'
import type { ConnectionView } from '../../../store/connectionView'
import { command } from '../../../store/store'

interface AvailableCommand {
  name: string
  description?: string
}

/**
 * The next prompt to an ACP agent: text, or one of the slash commands the agent announced (a click puts
 * `/name {}` in the box). While the turn runs, Cancel sends `session/cancel`; New session starts the
 * agent's context over (`session/new` on the next prompt).
 */
export function AcpComposer({ view, live }: { view: ConnectionView; live: boolean }) {
  const [text, setText] = useState('')
  const [busy, setBusy] = useState(false)
  const commands = (view.catalog.available_commands ?? []) as AvailableCommand[]
  const session = (view.handshake as AcpHandshakeEvent | undefined)?.session
  const submit = async () => {
    if (!text.trim() || busy) return
    setBusy(true)
    const sent = await command((api) => api.invoke('conversation.send', { connectionId: view.id, turn: { text } }))
    setBusy(false)
    if (sent) setText('')
  }
  const cancel = () => void command((api) => api.invoke('connections.cancel', { connectionId: view.id, requestId: 'prompt' }))
  return (
    <div className="composer">
      <div className="composer-row">
        <span className="thread" data-testid="thread">
          {session ? (
            <>
              session <span className="mono">{session.sessionId.slice(0, 12)}</span>
              {session.how === 'load' && <span className="muted"> (loaded)</span>}
            </>
          ) : (
            'a new session'
          )}
        </span>
        <span className="acp-commands" aria-label="Slash commands">
          {commands.map((c) => (
            <button
              key={c.name}
              className="btn small ghost mono"
              title={c.description}
              onClick={() => setText(`/${c.name} {}`)}
              disabled={!live}
            >
              /{c.name}
            </button>
          ))}
        </span>
        <span className="spacer" />
        <button
          className="btn small"
          disabled={!live || busy || !session}
          onClick={() => void command((api) => api.invoke('conversation.newContext', { connectionId: view.id }))}
          title="The next prompt starts a new session (session/new)"
        >
          New session
        </button>
      </div>
      <div className="composer-row">
        <textarea
          className="input composer-input mono"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={
            'Prompt the agent, e.g. "Find video for a sneaker launch and book it", or a command: /get_products {"buying_mode": "brief", "brief": "video"}'
          }
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault()
              void submit()
            }
          }}
          aria-label="Prompt"
          disabled={!live}
        />
        {busy ? (
          <button className="btn danger" onClick={cancel} title="session/cancel">
            Cancel
          </button>
        ) : (
          <button className="btn primary" onClick={() => void submit()} disabled={!live}>
            Send
          </button>
        )}
      </div>
    </div>
  )
}
