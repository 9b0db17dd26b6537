import { useState } from 'react'
import {
  DEFAULT_PROFILE,
  quoteArg,
  splitCommandLine,
  type OAuthSettings,
  type SavedTarget,
  type TargetDraft,
} from '../../../shared/contract'
import { Modal } from '../components/Modal'
import { Name } from '../components/Name'
import { closeEditor, connect, noteEditedWhileConnected, reconnect, reloadTargets } from '../store/actions'
import { useStore } from '../store/store'
import { useProfiles } from '../views/connection/serverRequests/ProfilePicker'
import { OAuthFields, oauthDraft } from './OAuthFields'
import './targetEditor.css'

type Kind = 'mcp-stdio' | 'mcp-http' | 'a2a' | 'acp'

/**
 * Add or edit a server or agent: a stdio command with its environment (an MCP server, or an ACP agent with
 * its workspace folder and the MCP servers handed to it), or a URL with headers. Save, or save and
 * connect at once. A target may be edited while connected: the live connection keeps what it was opened
 * with, and the edit applies when it reconnects (Save and reconnect does that now).
 */
export function TargetEditor({ target }: { target: SavedTarget | undefined }) {
  const spec = target?.spec
  // The target's live session, if any: the edit applies to it only when it reconnects.
  const liveId = useStore((s) => {
    const view = target ? s.connections[s.latestByTarget[target.id]] : undefined
    return view && (view.state === 'connected' || view.state === 'degraded' || view.state === 'connecting') ? view.id : undefined
  })
  const [name, setName] = useState(target?.name ?? '')
  const [kind, setKind] = useState<Kind>(spec?.kind ?? 'mcp-stdio')
  const runs = spec?.kind === 'mcp-stdio' || spec?.kind === 'acp' ? spec : undefined
  const [commandLine, setCommandLine] = useState(runs ? [runs.command, ...runs.args].map(quoteArg).join(' ') : '')
  const [env, setEnv] = useState(runs ? pairs(runs.env, '=') : '')
  const [cwd, setCwd] = useState(runs?.cwd ?? '')
  const [workspace, setWorkspace] = useState(spec?.kind === 'acp' ? (spec.workspace ?? '') : '')
  const [mcpServers, setMcpServers] = useState<string[]>(spec?.kind === 'acp' ? spec.mcpServers : [])
  const [permission, setPermission] = useState<'ask' | 'allow' | 'reject'>(target?.responder?.permission ?? 'ask')
  const mcpTargets = useStore((s) => s.targets).filter(
    (t) => (t.spec.kind === 'mcp-stdio' || t.spec.kind === 'mcp-http') && t.id !== target?.id,
  )
  const [url, setUrl] = useState(spec?.kind === 'mcp-http' || spec?.kind === 'a2a' ? spec.url : '')
  const [headers, setHeaders] = useState(spec?.kind === 'mcp-http' || spec?.kind === 'a2a' ? pairs(spec.headers, ': ') : '')
  const [binding, setBinding] = useState(spec?.kind === 'a2a' ? spec.binding : 'auto')
  const [transport, setTransport] = useState(spec?.kind === 'mcp-http' ? spec.transport : 'auto')
  const [oauth, setOauth] = useState<OAuthSettings>(spec?.kind === 'mcp-http' || spec?.kind === 'a2a' ? (spec.oauth ?? {}) : {})
  const defaults = useStore.getState().info?.defaults
  const [interval, setIntervalText] = useState(
    String((target?.options.keepaliveIntervalMs ?? defaults?.keepaliveIntervalMs ?? 15000) / 1000),
  )
  const [timeout, setTimeoutText] = useState(String((target?.options.requestTimeoutMs ?? defaults?.requestTimeoutMs ?? 30000) / 1000))
  const [taskDeadline, setTaskDeadline] = useState(String((target?.options.taskDeadlineMs ?? defaults?.taskDeadlineMs ?? 600_000) / 60_000))
  // What Parallax offers and answers as this server's client: its profile, its roots, its scripted answers.
  const profiles = useProfiles()
  const [profile, setProfile] = useState(target?.profile ?? DEFAULT_PROFILE)
  const [roots, setRoots] = useState((target?.roots ?? []).map((r) => (r.name ? `${r.uri} ${r.name}` : r.uri)).join('\n'))
  const [responderFile, setResponderFile] = useState(target?.responder?.file ?? '')
  const [error, setError] = useState<string>()
  const close = () => closeEditor()

  const save = async (then: 'close' | 'connect') => {
    setError(undefined)
    let draft: TargetDraft
    try {
      const seconds = Number(interval)
      if (!Number.isFinite(seconds) || seconds < 0.1) throw new Error('keepalive interval must be at least 0.1 seconds')
      const timeoutSeconds = Number(timeout)
      if (!Number.isFinite(timeoutSeconds) || timeoutSeconds < 0.1) throw new Error('request timeout must be at least 0.1 seconds')
      const deadlineMinutes = Number(taskDeadline)
      if (!Number.isFinite(deadlineMinutes) || deadlineMinutes * 60_000 < 1000 || deadlineMinutes > 1440)
        throw new Error('task deadline must be from 1 second (0.017 minutes) to 1440 minutes')
      const options = {
        ...target?.options,
        keepaliveIntervalMs: Math.round(seconds * 1000),
        requestTimeoutMs: Math.round(timeoutSeconds * 1000),
        taskDeadlineMs: Math.round(deadlineMinutes * 60_000),
      }
      if (kind === 'mcp-stdio') {
        const [command, ...args] = splitCommandLine(commandLine)
        if (!command) throw new Error('enter the command that starts the server, e.g. npx -y @modelcontextprotocol/server-everything')
        draft = {
          id: target?.id,
          name: name || command,
          options,
          spec: { kind, command, args, env: parsePairs(env, '=', 'environment'), cwd: cwd || undefined },
        }
      } else if (kind === 'acp') {
        const [command, ...args] = splitCommandLine(commandLine)
        if (!command) throw new Error('enter the command that starts the agent in ACP mode, e.g. npx my-agent --acp')
        draft = {
          id: target?.id,
          name: name || command,
          options,
          profile: profile === DEFAULT_PROFILE ? undefined : profile,
          ...(permission !== 'ask' && { responder: { ...target?.responder, permission } }),
          spec: {
            kind,
            command,
            args,
            env: parsePairs(env, '=', 'environment'),
            cwd: cwd || undefined,
            workspace: workspace.trim() || undefined,
            mcpServers,
          },
        }
      } else if (kind === 'a2a') {
        draft = {
          id: target?.id,
          name: name || url,
          options,
          spec: { kind, url, headers: parsePairs(headers, ':', 'headers'), binding, oauth: oauthDraft(oauth) },
        }
      } else {
        draft = {
          id: target?.id,
          name: name || url,
          options,
          spec: { kind, url, headers: parsePairs(headers, ':', 'headers'), transport, oauth: oauthDraft(oauth) },
        }
      }
    } catch (e) {
      setError((e as Error).message)
      return
    }
    if (kind === 'mcp-stdio' || kind === 'mcp-http') {
      try {
        draft = { ...draft, ...clientRole(profile, roots, responderFile, target?.responder) }
      } catch (e) {
        setError((e as Error).message)
        return
      }
    }
    const api = useStore.getState().api
    try {
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
        <input id="t-name" className="input" value={name} onChange={(e) => setName(e.target.value)} placeholder="my-server" autoFocus />
        <label>Transport</label>
        <div className="segmented">
          <button className={kind === 'mcp-stdio' ? 'on' : ''} onClick={() => setKind('mcp-stdio')}>
            MCP over stdio
          </button>
          <button className={kind === 'mcp-http' ? 'on' : ''} onClick={() => setKind('mcp-http')}>
            MCP over HTTP
          </button>
          <button className={kind === 'a2a' ? 'on' : ''} onClick={() => setKind('a2a')}>
            A2A agent
          </button>
          <button className={kind === 'acp' ? 'on' : ''} onClick={() => setKind('acp')}>
            ACP agent
          </button>
        </div>
        {kind === 'acp' ? (
          <>
            <label htmlFor="t-cmd">Command</label>
            <input
              id="t-cmd"
              className="input mono"
              value={commandLine}
              onChange={(e) => setCommandLine(e.target.value)}
              placeholder="npx my-coding-agent --acp"
            />
            <div className="hint">
              The agent speaks ACP on its stdin and stdout. Run directly, never through a shell; saving approves running exactly this
              command, with the environment and folder below.
            </div>
            <label htmlFor="t-env">Environment</label>
            <textarea id="t-env" value={env} onChange={(e) => setEnv(e.target.value)} placeholder={'API_KEY=…'} />
            <label htmlFor="t-cwd">Working folder</label>
            <input id="t-cwd" className="input mono" value={cwd} onChange={(e) => setCwd(e.target.value)} placeholder="(Parallax's own)" />
            <label htmlFor="t-workspace">Workspace</label>
            <input
              id="t-workspace"
              className="input mono"
              value={workspace}
              onChange={(e) => setWorkspace(e.target.value)}
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
                    onChange={(e) => setMcpServers(e.target.checked ? [...mcpServers, t.id] : mcpServers.filter((id) => id !== t.id))}
                  />{' '}
                  <Name value={t.name} />
                </label>
              ))}
            </div>
            <div className="hint">
              Handed to the agent in session/new, for it to use (a stdio server&apos;s command needs your approval too).
            </div>
            <label htmlFor="t-permission">Permission requests</label>
            <select
              id="t-permission"
              className="input"
              value={permission}
              onChange={(e) => setPermission(e.target.value as typeof permission)}
            >
              <option value="ask">Ask me</option>
              <option value="allow">Allow every one</option>
              <option value="reject">Reject every one</option>
            </select>
          </>
        ) : kind === 'mcp-stdio' ? (
          <>
            <label htmlFor="t-cmd">Command</label>
            <input
              id="t-cmd"
              className="input mono"
              value={commandLine}
              onChange={(e) => setCommandLine(e.target.value)}
              placeholder="npx -y @modelcontextprotocol/server-everything"
            />
            <div className="hint">
              Run directly, never through a shell. Quote arguments that contain spaces. Saving approves running exactly this command, with
              the environment and folder below.
            </div>
            <label htmlFor="t-env">Environment</label>
            <textarea id="t-env" value={env} onChange={(e) => setEnv(e.target.value)} placeholder={'API_KEY=…\nLOG_LEVEL=debug'} />
            <label htmlFor="t-cwd">Working folder</label>
            <input id="t-cwd" className="input mono" value={cwd} onChange={(e) => setCwd(e.target.value)} placeholder="(Parallax's own)" />
          </>
        ) : kind === 'a2a' ? (
          <>
            <label htmlFor="t-url">Agent URL</label>
            <input
              id="t-url"
              className="input mono"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="http://127.0.0.1:4000"
            />
            <div className="hint">The base URL (the card is read from /.well-known/agent-card.json) or the card's own URL.</div>
            <label htmlFor="t-headers">Headers</label>
            <textarea id="t-headers" value={headers} onChange={(e) => setHeaders(e.target.value)} placeholder="Authorization: Bearer …" />
            <label htmlFor="t-binding">Interface</label>
            <select id="t-binding" className="input" value={binding} onChange={(e) => setBinding(e.target.value as typeof binding)}>
              <option value="auto">As the card prefers</option>
              <option value="JSONRPC">JSON-RPC</option>
              <option value="HTTP+JSON">HTTP+JSON (REST)</option>
              <option value="GRPC">gRPC</option>
            </select>
            <OAuthFields value={oauth} onChange={setOauth} />
          </>
        ) : (
          <>
            <label htmlFor="t-url">URL</label>
            <input
              id="t-url"
              className="input mono"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="http://127.0.0.1:3001/mcp"
            />
            <label htmlFor="t-headers">Headers</label>
            <textarea id="t-headers" value={headers} onChange={(e) => setHeaders(e.target.value)} placeholder="Authorization: Bearer …" />
            <label htmlFor="t-transport">HTTP transport</label>
            <select id="t-transport" className="input" value={transport} onChange={(e) => setTransport(e.target.value as typeof transport)}>
              <option value="auto">Streamable HTTP, falling back to SSE</option>
              <option value="streamable-http">Streamable HTTP only</option>
              <option value="sse">Legacy SSE only</option>
            </select>
            <OAuthFields value={oauth} onChange={setOauth} />
          </>
        )}
        {kind === 'acp' && (
          <>
            <label htmlFor="t-profile">Client profile</label>
            <select id="t-profile" className="input" value={profile} onChange={(e) => setProfile(e.target.value)}>
              {(profiles.some((p) => p.name === profile) ? profiles : [...profiles, { name: profile, description: undefined }]).map((p) => (
                <option key={p.name} value={p.name} title={p.description}>
                  {p.name}
                </option>
              ))}
            </select>
            <div className="hint">
              What Parallax offers the agent (files, a terminal, the tool categories hint).{' '}
              {profiles.find((p) => p.name === profile)?.description ?? ''}
            </div>
          </>
        )}
        {(kind === 'mcp-stdio' || kind === 'mcp-http') && (
          <>
            <label htmlFor="t-profile">Client profile</label>
            <select id="t-profile" className="input" value={profile} onChange={(e) => setProfile(e.target.value)}>
              {(profiles.some((p) => p.name === profile) ? profiles : [...profiles, { name: profile, description: undefined }]).map((p) => (
                <option key={p.name} value={p.name} title={p.description}>
                  {p.name}
                </option>
              ))}
            </select>
            <div className="hint">What Parallax offers the server. {profiles.find((p) => p.name === profile)?.description ?? ''}</div>
            <label htmlFor="t-roots">Roots</label>
            <textarea
              id="t-roots"
              value={roots}
              onChange={(e) => setRoots(e.target.value)}
              placeholder={'file:///home/me/project  my project'}
            />
            <div className="hint">
              One file:// URI a line (a name may follow it), answered on roots/list. A live connection’s server is told when they change.
            </div>
            <label htmlFor="t-responder">Scripted answers</label>
            <input
              id="t-responder"
              className="input mono"
              value={responderFile}
              onChange={(e) => setResponderFile(e.target.value)}
              placeholder="(none: you answer sampling and elicitation requests yourself)"
            />
            <div className="hint">
              A JSON file of canned replies, or a module (request) =&gt; result, which asks for your approval before it first runs.
            </div>
          </>
        )}
        <label htmlFor="t-interval">Keepalive every</label>
        <span>
          <input
            id="t-interval"
            className="input"
            style={{ width: 90 }}
            value={interval}
            onChange={(e) => setIntervalText(e.target.value)}
          />{' '}
          seconds
        </span>
        <label htmlFor="t-timeout">Request timeout</label>
        <span>
          <input id="t-timeout" className="input" style={{ width: 90 }} value={timeout} onChange={(e) => setTimeoutText(e.target.value)} />{' '}
          seconds
          <span className="muted"> · reset by progress notifications</span>
        </span>
        {(kind === 'mcp-stdio' || kind === 'mcp-http') && (
          <>
            <label htmlFor="t-task-deadline">Task deadline</label>
            <span>
              <input
                id="t-task-deadline"
                className="input"
                style={{ width: 90 }}
                value={taskDeadline}
                onChange={(e) => setTaskDeadline(e.target.value)}
              />{' '}
              minutes
              <span className="muted"> · how long a call made as a task is followed before Parallax stops</span>
            </span>
          </>
        )}
      </div>
      {error && <div className="error-text">{error}</div>}
    </Modal>
  )
}

/** The editor's client-role fields as a draft's: the profile (the default left out), roots one a line (`URI [name]`), the responder file. */
function clientRole(profile: string, rootsText: string, file: string, responder: SavedTarget['responder']): Partial<TargetDraft> {
  const roots = rootsText
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line, i) => {
      const [uri, ...name] = line.split(/\s+/)
      if (!uri.startsWith('file://')) throw new Error(`roots, line ${i + 1}: a root is a file:// URI, e.g. file:///home/me/project`)
      return name.length ? { uri, name: name.join(' ') } : { uri }
    })
  const rest = { ...responder, file: file.trim() || undefined }
  return {
    profile: profile === DEFAULT_PROFILE ? undefined : profile,
    roots: roots.length ? roots : undefined,
    responder: rest.file || rest.elicit ? rest : undefined,
  }
}

function pairs(map: Record<string, string>, separator: string): string {
  return Object.entries(map)
    .map(([k, v]) => `${k}${separator}${v}`)
    .join('\n')
}

function parsePairs(text: string, separator: string, what: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim()
    if (!line) continue
    const at = line.indexOf(separator)
    if (at <= 0) throw new Error(`${what}, line ${i + 1}: expected NAME${separator.trim()}value`)
    out[line.slice(0, at).trim()] = line.slice(at + separator.length).trim()
  }
  return out
}
