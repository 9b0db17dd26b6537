import { JsonView } from '../../../components/JsonView'
import { AgentText } from '../../../components/Name'
import type { ConnectionView } from '../../../store/connectionView'

interface AvailableCommand {
  name: string
  description?: string
  input?: unknown
}

/** What an ACP agent exposes: the slash commands it announced for its session (they change as it says so). */
export function AcpCommandsPanel({ view }: { view: ConnectionView }) {
  const commands = (view.catalog.available_commands ?? []) as AvailableCommand[]
  if (commands.length === 0)
    return (
      <div className="panel">
        <div className="empty">
          <h2>No commands announced</h2>
          <p>
            ACP agents list nothing on request: an agent announces its slash commands itself (available_commands_update), when it likes.
          </p>
        </div>
      </div>
    )
  return (
    <div className="panel" data-testid="acp-commands">
      {commands.map((c) => (
        <div key={c.name} className="card catalog-entry" data-command={c.name}>
          <h3 className="mono">/{c.name}</h3>
          {c.description && <AgentText value={c.description} className="muted" />}
          {c.input !== undefined && <JsonView value={c.input} openDepth={0} />}
        </div>
      ))}
    </div>
  )
}
