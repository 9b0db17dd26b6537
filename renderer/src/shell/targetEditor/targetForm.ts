import {
  DEFAULT_PROFILE,
  quoteArg,
  splitCommandLine,
  type A2aBindingPreference,
  type ConnectionOptions,
  type OAuthSettings,
  type SavedTarget,
  type TargetDraft,
  type TargetSpec,
} from '../../../../shared/contract'

export type Kind = TargetSpec['kind']
export type Permission = 'ask' | 'allow' | 'reject'
type McpTransport = Extract<TargetSpec, { kind: 'mcp-http' }>['transport']

/**
 * What the target editor's fields hold, as typed: every kind's fields at once, so switching the transport
 * and back loses nothing. `draftOf` turns it into what `targets.save` takes.
 */
export interface TargetForm {
  name: string
  kind: Kind
  /** A stdio server's or an ACP agent's: the command line, its environment (NAME=value a line), its working folder. */
  commandLine: string
  env: string
  cwd: string
  /** An ACP agent's: the folder it is confined to, the saved MCP servers handed to it, how its permission requests are answered. */
  workspace: string
  mcpServers: string[]
  permission: Permission
  /** An HTTP server's or an A2A agent's: the URL, its headers (Name: value a line), the binding or transport, OAuth. */
  url: string
  headers: string
  binding: A2aBindingPreference
  transport: McpTransport
  oauth: OAuthSettings
  /** The connection options, in the units the editor shows: seconds, seconds, minutes. */
  interval: string
  timeout: string
  taskDeadline: string
  /** The client role: the profile Parallax connects under; for MCP, the roots (`URI [name]` a line) and the scripted answers' file. */
  profile: string
  roots: string
  responderFile: string
}

/** What each part of the editor is given: the form, and how to change some of its fields. */
export interface FieldsProps {
  form: TargetForm
  set: (patch: Partial<TargetForm>) => void
}

/** The form for `target` (a new one when undefined), its options the engine's `defaults` where the target has none. */
export function formOf(target: SavedTarget | undefined, defaults: ConnectionOptions | undefined): TargetForm {
  const spec = target?.spec
  const runs = spec?.kind === 'mcp-stdio' || spec?.kind === 'acp' ? spec : undefined
  const http = spec?.kind === 'mcp-http' || spec?.kind === 'a2a' ? spec : undefined
  return {
    name: target?.name ?? '',
    kind: spec?.kind ?? 'mcp-stdio',
    commandLine: runs ? [runs.command, ...runs.args].map(quoteArg).join(' ') : '',
    env: runs ? pairs(runs.env, '=') : '',
    cwd: runs?.cwd ?? '',
    workspace: spec?.kind === 'acp' ? (spec.workspace ?? '') : '',
    mcpServers: spec?.kind === 'acp' ? spec.mcpServers : [],
    permission: target?.responder?.permission ?? 'ask',
    url: http ? http.url : '',
    headers: http ? pairs(http.headers, ': ') : '',
    binding: spec?.kind === 'a2a' ? spec.binding : 'auto',
    transport: spec?.kind === 'mcp-http' ? spec.transport : 'auto',
    oauth: http ? (http.oauth ?? {}) : {},
    interval: String((target?.options.keepaliveIntervalMs ?? defaults?.keepaliveIntervalMs ?? 15000) / 1000),
    timeout: String((target?.options.requestTimeoutMs ?? defaults?.requestTimeoutMs ?? 30000) / 1000),
    taskDeadline: String((target?.options.taskDeadlineMs ?? defaults?.taskDeadlineMs ?? 600_000) / 60_000),
    profile: target?.profile ?? DEFAULT_PROFILE,
    roots: (target?.roots ?? []).map((r) => (r.name ? `${r.uri} ${r.name}` : r.uri)).join('\n'),
    responderFile: target?.responder?.file ?? '',
  }
}

/** The draft `targets.save` takes for this form, editing `target` (a new one when undefined). Throws what the user must fix. */
export function draftOf(form: TargetForm, target: SavedTarget | undefined): TargetDraft {
  const options = { ...target?.options, ...connectionOptions(form) }
  const { kind } = form
  if (kind === 'mcp-stdio') {
    const [command, ...args] = splitCommandLine(form.commandLine)
    if (!command) throw new Error('enter the command that starts the server, e.g. npx -y @modelcontextprotocol/server-everything')
    const draft: TargetDraft = {
      id: target?.id,
      name: form.name || command,
      options,
      spec: { kind, command, args, env: parsePairs(form.env, '=', 'environment'), cwd: form.cwd || undefined },
    }
    return { ...draft, ...clientRole(form, target?.responder) }
  }
  if (kind === 'acp') {
    const [command, ...args] = splitCommandLine(form.commandLine)
    if (!command) throw new Error('enter the command that starts the agent in ACP mode, e.g. npx my-agent --acp')
    return {
      id: target?.id,
      name: form.name || command,
      options,
      profile: form.profile === DEFAULT_PROFILE ? undefined : form.profile,
      ...(form.permission !== 'ask' && { responder: { ...target?.responder, permission: form.permission } }),
      spec: {
        kind,
        command,
        args,
        env: parsePairs(form.env, '=', 'environment'),
        cwd: form.cwd || undefined,
        workspace: form.workspace.trim() || undefined,
        mcpServers: form.mcpServers,
      },
    }
  }
  const headers = parsePairs(form.headers, ':', 'headers')
  const oauth = oauthDraft(form.oauth)
  if (kind === 'a2a')
    return { id: target?.id, name: form.name || form.url, options, spec: { kind, url: form.url, headers, binding: form.binding, oauth } }
  const draft: TargetDraft = {
    id: target?.id,
    name: form.name || form.url,
    options,
    spec: { kind, url: form.url, headers, transport: form.transport, oauth },
  }
  return { ...draft, ...clientRole(form, target?.responder) }
}

/** The connection options the editor sets, checked and in milliseconds. */
function connectionOptions(form: TargetForm): Pick<ConnectionOptions, 'keepaliveIntervalMs' | 'requestTimeoutMs' | 'taskDeadlineMs'> {
  const seconds = Number(form.interval)
  if (!Number.isFinite(seconds) || seconds < 0.1) throw new Error('keepalive interval must be at least 0.1 seconds')
  const timeoutSeconds = Number(form.timeout)
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds < 0.1) throw new Error('request timeout must be at least 0.1 seconds')
  const deadlineMinutes = Number(form.taskDeadline)
  if (!Number.isFinite(deadlineMinutes) || deadlineMinutes * 60_000 < 1000 || deadlineMinutes > 1440)
    throw new Error('task deadline must be from 1 second (0.017 minutes) to 1440 minutes')
  return {
    keepaliveIntervalMs: Math.round(seconds * 1000),
    requestTimeoutMs: Math.round(timeoutSeconds * 1000),
    taskDeadlineMs: Math.round(deadlineMinutes * 60_000),
  }
}

/** An MCP target's client role as a draft's: the profile (the default left out), roots one a line (`URI [name]`), the responder file. */
function clientRole(form: TargetForm, responder: SavedTarget['responder']): Partial<TargetDraft> {
  const roots = form.roots
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line, i) => {
      const [uri, ...name] = line.split(/\s+/)
      if (!uri.startsWith('file://')) throw new Error(`roots, line ${i + 1}: a root is a file:// URI, e.g. file:///home/me/project`)
      return name.length ? { uri, name: name.join(' ') } : { uri }
    })
  const rest = { ...responder, file: form.responderFile.trim() || undefined }
  return {
    profile: form.profile === DEFAULT_PROFILE ? undefined : form.profile,
    roots: roots.length ? roots : undefined,
    responder: rest.file || rest.elicit ? rest : undefined,
  }
}

/** OAuth settings as a target keeps them: nothing when every field is empty. */
function oauthDraft(value: OAuthSettings): OAuthSettings | undefined {
  const kept = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== false && v !== ''))
  return Object.keys(kept).length ? (kept as OAuthSettings) : undefined
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
