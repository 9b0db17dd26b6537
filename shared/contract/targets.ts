import { z } from 'zod'
import { OAuthSettings } from './auth'
import { Responder, Root } from './clientRole'

/** How Parallax reaches an agent. Mirrors the `mcpServers` config shape MCP clients already use. */
export const StdioSpec = z.object({
  kind: z.literal('mcp-stdio'),
  command: z.string().min(1, 'command is required'),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
})

export const McpHttpSpec = z.object({
  kind: z.literal('mcp-http'),
  url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL' }),
  headers: z.record(z.string(), z.string()).default({}),
  /** `auto` tries streamable HTTP and falls back to legacy SSE when the first POST is answered 404 or 405 (docs/architecture.md). */
  transport: z.enum(['auto', 'streamable-http', 'sse']).default('auto'),
  /** OAuth settings, when the server wants authorization (it is tried on any 401 challenge, with these or without). */
  oauth: OAuthSettings.optional(),
})

/** The A2A bindings Parallax has a client for, as cards spell them. */
export const A2A_BINDINGS = ['JSONRPC', 'HTTP+JSON', 'GRPC'] as const
export type A2aBinding = (typeof A2A_BINDINGS)[number]
/** A target's preferred binding: one of them, or `auto` (the card's own order). */
export const A2A_BINDING_PREFERENCES = ['auto', ...A2A_BINDINGS] as const
export type A2aBindingPreference = (typeof A2A_BINDING_PREFERENCES)[number]

export const A2aSpec = z.object({
  kind: z.literal('a2a'),
  /** The agent's base URL (the card is at /.well-known/agent-card.json), or the card's own URL. */
  url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL' }),
  headers: z.record(z.string(), z.string()).default({}),
  /** Which of the card's interfaces to prefer; `auto` takes the card's own order. */
  binding: z.enum(A2A_BINDING_PREFERENCES).default('auto'),
  /** OAuth settings, for an agent whose card names an OAuth 2 or OpenID Connect scheme (or that answers with a challenge). */
  oauth: OAuthSettings.optional(),
})

/**
 * An ACP agent: a command Parallax runs and speaks ACP with over stdio (consent as for an MCP command).
 * `workspace` is the folder its `fs/*` and `terminal/*` requests are confined to (without one, Parallax
 * offers no `fs`); `mcpServers` names saved MCP targets handed to the agent in `session/new`.
 */
export const AcpSpec = z.object({
  kind: z.literal('acp'),
  command: z.string().min(1, 'command is required'),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
  workspace: z.string().max(4096).optional(),
  mcpServers: z.array(z.string().min(1).max(200)).max(100).default([]),
})

export const TargetSpec = z.discriminatedUnion('kind', [StdioSpec, McpHttpSpec, A2aSpec, AcpSpec])
export type TargetSpec = z.infer<typeof TargetSpec>

export const ConnectionOptions = z.object({
  keepaliveIntervalMs: z.number().int().min(100).max(3_600_000).default(15_000),
  requestTimeoutMs: z.number().int().min(100).max(3_600_000).default(30_000),
  /** How long Parallax follows a task it made (an MCP task-augmented call) before it stops and says so: the task may never end. */
  taskDeadlineMs: z.number().int().min(1_000).max(86_400_000).default(600_000),
  /** For starting the server and `initialize`: a cold `npx` start can take far longer than a request. */
  connectTimeoutMs: z.number().int().min(100).max(3_600_000).default(60_000),
  /** Consecutive failed probes that turn a degraded connection into a down one. */
  failuresToDown: z.number().int().min(1).max(20).default(2),
  reconnectAttempts: z.number().int().min(0).max(50).default(5),
  reconnectBaseDelayMs: z.number().int().min(10).max(60_000).default(500),
  reconnectMaxDelayMs: z.number().int().min(10).max(300_000).default(8_000),
  /** Frames larger than this are kept truncated (their full size shown, the whole payload saved to a file). */
  maxFrameBytes: z.number().int().min(1_024).max(1_000_000_000).default(1_000_000),
  /** The largest single message accepted from a stdio server before the transport gives up. */
  maxMessageBytes: z
    .number()
    .int()
    .min(65_536)
    .max(2_000_000_000)
    .default(64 * 1024 * 1024),
  /**
   * Closing a stdio server or agent: how long it has to exit once its stdin is closed, and again after
   * SIGTERM, before SIGKILL (the MCP spec asks for "a reasonable time"). The CLI's one-shot commands use less.
   */
  exitGraceMs: z.number().int().min(0).max(60_000).default(2_000),
})
export type ConnectionOptions = z.infer<typeof ConnectionOptions>
export const DEFAULT_CONNECTION_OPTIONS: ConnectionOptions = ConnectionOptions.parse({})

/**
 * A target's own options: any of the above, none filled in. An option the target leaves out comes from
 * the engine's defaults (the CLI's flags, say), never from this schema's (which would override them).
 */
export const TargetOptions = z.object(
  Object.fromEntries(Object.entries(ConnectionOptions.shape).map(([key, option]) => [key, option.unwrap().optional()])),
) as unknown as z.ZodObject<{ [K in keyof ConnectionOptions]: z.ZodOptional<z.ZodNumber> }>

export const SavedTarget = z.object({
  id: z.string().min(1).max(200),
  name: z.string().min(1, 'name is required').max(200),
  spec: TargetSpec,
  options: TargetOptions.default({}),
  /** `demo` targets ship with Parallax and cannot be edited or removed. */
  origin: z.enum(['demo', 'user', 'import']).default('user'),
  description: z.string().max(2000).optional(),
  /** The client profile to connect under (a preset or the user's own, by name); the `default` profile when absent. */
  profile: z.string().min(1).max(100).optional(),
  /** The roots Parallax offers this server (`roots/list`); a change is announced to live sessions (`notifications/roots/list_changed`). */
  roots: z.array(Root).max(1000).optional(),
  /** Who answers the server's sampling and elicitation requests when no person does, and before one is asked. */
  responder: Responder.optional(),
})
export type SavedTarget = z.infer<typeof SavedTarget>

/** The input of `targets.save`: an id is minted when absent. */
export const TargetDraft = SavedTarget.omit({ id: true, origin: true }).extend({ id: z.string().min(1).max(200).optional() })
export type TargetDraft = z.input<typeof TargetDraft>

/** A human-readable one-liner for a target, used in the sidebar, the CLI and confirmations. */
export function describeSpec(spec: TargetSpec): string {
  if (spec.kind === 'mcp-stdio') return [spec.command, ...spec.args].map(quoteArg).join(' ')
  if (spec.kind === 'acp') return `ACP ${[spec.command, ...spec.args].map(quoteArg).join(' ')}`
  if (spec.kind === 'a2a') return spec.binding === 'auto' ? `A2A ${spec.url}` : `A2A ${spec.url} (${spec.binding})`
  return spec.transport === 'auto' ? spec.url : `${spec.url} (${spec.transport})`
}

export function protocolOf(spec: TargetSpec): 'mcp' | 'a2a' | 'acp' {
  return spec.kind === 'a2a' ? 'a2a' : spec.kind === 'acp' ? 'acp' : 'mcp'
}

/** A spec whose command Parallax runs (an MCP stdio server, an ACP agent): what consent is about. */
export function runsCommand(spec: TargetSpec): spec is Extract<TargetSpec, { kind: 'mcp-stdio' | 'acp' }> {
  return spec.kind === 'mcp-stdio' || spec.kind === 'acp'
}

export function quoteArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`
}
