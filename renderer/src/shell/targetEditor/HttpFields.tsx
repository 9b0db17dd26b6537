import { OAuthFields } from './OAuthFields'
import type { FieldsProps, TargetForm } from './targetForm'

/** A target reached over HTTP (an MCP server, an A2A agent): its URL, its headers, the transport or interface, OAuth. */
export function HttpFields({ form, set }: FieldsProps) {
  const a2a = form.kind === 'a2a'
  return (
    <>
      <label htmlFor="t-url">{a2a ? 'Agent URL' : 'URL'}</label>
      <input
        id="t-url"
        className="input mono"
        value={form.url}
        onChange={(e) => set({ url: e.target.value })}
        placeholder={a2a ? 'http://127.0.0.1:4000' : 'http://127.0.0.1:3001/mcp'}
      />
      {a2a && <div className="hint">The base URL (the card is read from /.well-known/agent-card.json) or the card's own URL.</div>}
      <label htmlFor="t-headers">Headers</label>
      <textarea
        id="t-headers"
        value={form.headers}
        onChange={(e) => set({ headers: e.target.value })}
        placeholder="Authorization: Bearer …"
      />
      {a2a ? (
        <>
          <label htmlFor="t-binding">Interface</label>
          <select
            id="t-binding"
            className="input"
            value={form.binding}
            onChange={(e) => set({ binding: e.target.value as TargetForm['binding'] })}
          >
            <option value="auto">As the card prefers</option>
            <option value="JSONRPC">JSON-RPC</option>
            <option value="HTTP+JSON">HTTP+JSON (REST)</option>
            <option value="GRPC">gRPC</option>
          </select>
        </>
      ) : (
        <>
          <label htmlFor="t-transport">HTTP transport</label>
          <select
            id="t-transport"
            className="input"
            value={form.transport}
            onChange={(e) => set({ transport: e.target.value as TargetForm['transport'] })}
          >
            <option value="auto">Streamable HTTP, falling back to SSE</option>
            <option value="streamable-http">Streamable HTTP only</option>
            <option value="sse">Legacy SSE only</option>
          </select>
        </>
      )}
      <OAuthFields value={form.oauth} onChange={(oauth) => set({ oauth })} />
    </>
  )
}
