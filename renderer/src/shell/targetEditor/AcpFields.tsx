import { Name } from '../../components/Name'
import { useStore } from '../../store/store'
import type { FieldsProps, Permission } from './targetForm'

/** An ACP agent's own: the workspace it is confined to, the saved MCP servers handed to it, how its permission requests are answered. */
export function AcpFields({ form, set, targetId }: FieldsProps & { targetId: string | undefined }) {
  const mcpTargets = useStore((s) => s.targets).filter(
    (t) => (t.spec.kind === 'mcp-stdio' || t.spec.kind === 'mcp-http') && t.id !== targetId,
  )
  const { mcpServers } = form
  return (
    <>
      <label htmlFor="t-workspace">Workspace</label>
      <input
        id="t-workspace"
        className="input mono"
        value={form.workspace}
        onChange={(e) => set({ workspace: e.target.value })}
        placeholder="(none: the agent may not read or write files)"
      />
      <div className="hint">
        The folder the agent&apos;s file reads and writes and its terminals are confined to (links and “..” never lead out), and the
        session&apos;s working directory.
      </div>
      <label>MCP servers</label>
      <div className="checks" data-testid="acp-mcp-servers">
        {mcpTargets.length === 0 && <span className="muted">No saved MCP servers to hand the agent.</span>}
        {mcpTargets.map((t) => (
          <label key={t.id} className="check">
            <input
              type="checkbox"
              checked={mcpServers.includes(t.id)}
              onChange={(e) => set({ mcpServers: e.target.checked ? [...mcpServers, t.id] : mcpServers.filter((id) => id !== t.id) })}
            />{' '}
            <Name value={t.name} />
          </label>
        ))}
      </div>
      <div className="hint">Handed to the agent in session/new, for it to use (a stdio server&apos;s command needs your approval too).</div>
      <label htmlFor="t-permission">Permission requests</label>
      <select
        id="t-permission"
        className="input"
        value={form.permission}
        onChange={(e) => set({ permission: e.target.value as Permission })}
      >
        <option value="ask">Ask me</option>
        <option value="allow">Allow every one</option>
        <option value="reject">Reject every one</option>
      </select>
    </>
  )
}
