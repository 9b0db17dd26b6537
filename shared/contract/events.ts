import type { AcpHandshake } from './acp'
import type { ApprovalRequest } from './approvals'
import type { A2aSecuritySummary, AuthStep } from './auth'
import type { AdcpTaskStatus } from './adcpStatus'
import type { TurnOutcome } from './conversation'
import type { ConversationMessage } from './conversation'
import type { McpEra, McpEraRules, McpNegotiation } from './mcpEra'

/**
 * The event model (docs/architecture.md, "The event model"): everything Parallax knows is an append-only stream of these.
 * Events travel engine → host → UI; they are produced by trusted engine code, so they are typed here
 * but not schema-checked on the way (commands, which come from the UI, are).
 */

export type Protocol = 'mcp' | 'a2a' | 'acp'
export type TransportKind = 'stdio' | 'streamable-http' | 'sse' | 'jsonrpc' | 'rest' | 'grpc'
/**
 * What a frame's message is: a connection's own protocol, or `mcp-app` — a message between an MCP App's
 * view and Parallax as its host (JSON-RPC over `postMessage`), recorded on the connection whose server
 * the view came from.
 */
export type FrameProtocol = Protocol | 'mcp-app'
export type FrameTransport = TransportKind | 'postMessage'
/** `trailers`: the end of a gRPC call that succeeded (its status and trailing metadata); a call that failed ends in an `error` frame. */
export type FrameKind = 'request' | 'response' | 'notification' | 'error' | 'stream-event' | 'trailers'
export type Health = 'healthy' | 'degraded' | 'down'
export type ConnectionState = 'connecting' | 'connected' | 'degraded' | 'reconnecting' | 'closed' | 'failed'

/**
 * What a connection is for (docs/architecture.md, "Whose connection is it"): the user's own session (opened
 * from a target's page, or by a CLI command), or one a feature opened for itself and closes when done.
 */
export type ConnectionPurpose = 'session' | 'compare' | 'replay' | 'recording' | 'tap'

/** Who opened a connection, what for, and when; every `connection` event carries it. */
export interface ConnectionOwner {
  purpose: ConnectionPurpose
  /** The compare or replay that opened it (`c2`, `r3`), for a connection a feature opened. */
  by?: string
  /** Which of the feature's sides it is, when it has two: `A`, `B (hinted)` (a compare names the profile). */
  side?: string
  /** When the connection was created (epoch ms). */
  startedAt: number
  /** `tap`: a session Parallax watches and does not drive (`parallax tap`): how it is tapped, and the host on the other side. */
  observed?: ObservedBy
}

/**
 * How an observed connection is tapped (DESIGN, "Driven or observed"): the command a host runs through
 * `parallax tap`, or the address the tap's HTTP proxy listens on and the upstream it relays to; the host as
 * it named itself in the handshake; the tap's own session (its folder in the data folder's `sessions/`).
 */
export interface ObservedBy {
  via: 'stdio' | 'http'
  /** stdio: the server's command line (arguments that look secret redacted). */
  command?: string
  /** http: where the tap listens, and where it relays to. */
  listen?: string
  upstream?: string
  /** The host, once its handshake said who it is. */
  host?: { name: string; version?: string }
  /** The session the tap writes, and the tap's process. */
  tapSession?: string
  pid?: number
}

interface EventBase {
  /** Monotonic per engine. */
  seq: number
  /** Epoch milliseconds, sub-millisecond where the platform allows. */
  ts: number
  connectionId: string
}

export interface FrameEvent extends EventBase {
  type: 'frame'
  /** `out`: sent by Parallax (to the server, or to an App view); `in`: received by it. */
  direction: 'out' | 'in'
  protocol: FrameProtocol
  transport: FrameTransport
  kind: FrameKind
  method?: string
  id?: string | number
  /** The parsed JSON exactly as it crossed the wire (absent when `deferred`). */
  payload: unknown
  /** A UI's copy: the payload stays in the engine until the frame is opened or copied (`frames.payloads`; see framePayload.ts). */
  deferred?: true
  bytes: number
  /** On responses and errors: time since the request with the same id went the other way. */
  latencyMs?: number
  /** On responses and errors: the `seq` of the request they answer (the pair, for jumping between them). */
  requestSeq?: number
  /** What the message is about, where its method alone does not say: the tool called, the prompt got, the resource read, the A2A skill. */
  subject?: string
  /** Part of a keepalive probe (the request and its answer), not of the user's session. */
  probe?: true
  /** A request sent again from Frames (and its answer): the `seq` of the request it repeats. */
  resendOf?: number
  /**
   * Set when the frame was over the size limit: `payload` then holds the beginning of its JSON text,
   * `bytes` the full size, and `file` the whole payload (see the `frames.export` command). Also set on a
   * message Parallax refused to hand on (`refused` says why, e.g. "nested deeper than 256 levels").
   */
  truncated?: { shownBytes: number; file?: string; refused?: string }
  /**
   * For HTTP-level taps (A2A): the exchange the body belongs to. `headers` are the request's on a sent
   * frame and the response's on a received one — but a push notification's (a `notification` the agent
   * POSTed to Parallax) are the agent's request headers — secrets redacted; `eventId` is an SSE event's own id.
   */
  http?: {
    method: string
    url: string
    status?: number
    statusText?: string
    headers?: Record<string, string>
    eventId?: string
    /** MCP over streamable HTTP: `headers` are those Parallax mirrored from a tool's parameters (SEP-2243's `Mcp-Param-*`), beside the transport's own. */
    mirrored?: true
  }
  /** An App view's message (`protocol: 'mcp-app'`): which view, opened for which `ui://` resource. */
  view?: { id: string; uri: string }
  /** For the gRPC tap (A2A's third binding): the call the message belongs to. */
  grpc?: GrpcCall
}

/**
 * One gRPC call as a frame sees it: the service and method (`/lf.a2a.v1.A2AService/SendMessage`), where the
 * channel goes, and — on the frame that carries them — the metadata (the request's on the sent frame, the
 * response headers on the first received one, the trailers on the last), secrets redacted, and the status.
 */
export interface GrpcCall {
  service: string
  method: string
  /** The channel's target (host:port) and whether it runs over TLS. */
  target: string
  tls: boolean
  metadata?: Record<string, string>
  /** On the call's last frame: its status code, the code's name, and the status message. */
  status?: { code: number; name: string; details?: string }
}

export type HandshakeEvent = McpHandshakeEvent | A2aHandshakeEvent | AcpHandshakeEvent

export interface McpHandshakeEvent extends EventBase {
  type: 'handshake'
  protocol: 'mcp'
  transport: TransportKind
  requestedProtocolVersion?: string
  protocolVersion?: string
  clientInfo: { name: string; version: string }
  clientCapabilities: Record<string, unknown>
  serverCapabilities: Record<string, unknown>
  serverInfo?: { name: string; version: string; title?: string; [k: string]: unknown }
  instructions?: string
  durationMs: number
  /** Set when `auto` fell back to legacy SSE: why, and how the streamable HTTP attempt failed. */
  fallback?: { from: 'streamable-http'; why: string; first: FailureCause }
  /** The client profile the connection was made under (its capabilities are `clientCapabilities`). */
  profile?: string
  /** The protocol era reached (absent in recordings made before eras were shown: read it from `protocolVersion`). */
  era?: McpEra
  /** How the era was reached: what the profile asked, each offer made and what the server answered. */
  negotiation?: McpNegotiation
  /** The era's rules this connection keeps: discovery, list changes, keepalive. */
  rules?: McpEraRules
  /** Watched through `parallax tap`: the client side is the host's (its info, its capabilities), not Parallax's offer. */
  observed?: true
}

/** An ACP agent's `initialize` and the session after it (shared/contract/acp.ts). */
export interface AcpHandshakeEvent extends EventBase, AcpHandshake {
  type: 'handshake'
  protocol: 'acp'
  /** Watched through `parallax tap`: the client side is the host's. */
  observed?: true
}

/** A2A generations in the wild: v1.0 (`supportedInterfaces`, `SendMessage`) and v0.3 (`url`, `message/send`). */
export type A2aGeneration = '1.0' | '0.3'

export interface A2aInterface {
  url: string
  protocolBinding: string
  protocolVersion: string
}

export interface A2aHandshakeEvent extends EventBase {
  type: 'handshake'
  protocol: 'a2a'
  transport: TransportKind
  /** The card exactly as fetched. */
  agentCard: unknown
  cardUrl: string
  /** The generation the card describes, and why Parallax thinks so. */
  generation: A2aGeneration
  generationReason: string
  /** The protocol version the chosen interface speaks. */
  protocolVersion: string
  interfaces: A2aInterface[]
  /** Absent when no interface could be used (the card is still shown, with why). */
  chosenInterface?: A2aInterface
  interfaceReason: string
  capabilities: {
    streaming: boolean
    pushNotifications: boolean
    extendedAgentCard: boolean
    extensions: { uri: string; required: boolean; description?: string }[]
  }
  skills: { id: string; name: string; description: string; tags: string[]; examples: string[] }[]
  /** Problems found in the card: each readable, none fatal. */
  warnings: string[]
  durationMs: number
  /** The card's security schemes and requirements, and which Parallax satisfies. */
  security?: A2aSecuritySummary
  /** Watched through `parallax tap`: the card as the host fetched it through the tap. */
  observed?: true
}

export type DiscoveryMethod =
  | 'tools/list'
  | 'prompts/list'
  | 'resources/list'
  | 'resources/templates/list'
  | 'skills/list'
  | 'agent-card'
  | 'extended-agent-card'
  /** ACP: the slash commands an agent announces for a session (`available_commands_update`). */
  | 'available_commands'
export type DiscoveryTrigger = 'initial' | 'list_changed' | 'refresh'

export interface DiscoveryEvent extends EventBase {
  type: 'discovery'
  method: DiscoveryMethod
  status: 'called' | 'skipped' | 'failed'
  reason: string
  trigger: DiscoveryTrigger
  /** Set when the step reveals the server breaking the protocol's rules (e.g. an unadvertised list_changed). */
  oddity?: boolean
  count?: number
  pages?: number
  durationMs?: number
  /** JSON-RPC error code when the step failed with one. */
  errorCode?: number
  /** The whole catalog for this method, all pages joined. */
  items?: unknown[]
  /**
   * `extended-agent-card`, fetched: the authenticated extended card (as the SDK reads it, in v1.0 JSON) and
   * how it differs from the public card read the same way (`from` the public card's value, `to` the extended's).
   */
  extendedCard?: { card: unknown; differences: { path: string; op: 'add' | 'remove' | 'replace'; from?: unknown; to?: unknown }[] }
}

export interface KeepaliveEvent extends EventBase {
  type: 'keepalive'
  probe: string
  ok: boolean
  rttMs: number
  health: Health
  intervalMs: number
  consecutiveFailures: number
  error?: string
  note?: string
  /** Why this probe method (the protocol era's rule: never `ping` where the era has none). */
  rule?: string
}

/**
 * Why a connection could not be made, or was lost, named as it happened: the command that was run and how
 * it ended, the HTTP answer (status, the server's own words, its challenge), the address that refused,
 * and whether Parallax fell back to another transport and why. A failed connection event's `reason`
 * says it in one line; its `cause` says it whole, for a host to show (`causeLines` in ./failure) or a script to read.
 */
export interface FailureCause {
  transport?: TransportKind
  /** stdio: the whole command line that was run (arguments that look secret are redacted). */
  command?: string
  /** stdio: how the server process ended, when it did. */
  exit?: { code: number | null; signal: string | null }
  /** stdio: the server's last lines on stderr. */
  stderr?: string[]
  /** HTTP: the request that failed. */
  request?: { method: string; url: string }
  /** HTTP: the server's answer. */
  status?: number
  statusText?: string
  /** HTTP: the answer's `WWW-Authenticate` challenge. */
  challenge?: string
  /** HTTP: the server's own message (from a JSON error body), else the start of its body. */
  message?: string
  /** HTTP: the body as it came (bounded). */
  body?: string
  /** The system's error code (ECONNREFUSED, ENOTFOUND, ENOENT, …). */
  code?: string
  /** Network: the host:port that refused, or could not be reached. */
  address?: string
  /** The error as the library that met it worded it. */
  error?: string
  /**
   * `auto` HTTP transport: whether Parallax tried legacy SSE after streamable HTTP failed, and why (or
   * why not); when it did, `first` is how the streamable HTTP attempt failed and this cause is the SSE one.
   */
  fallback?: { tried: boolean; why: string; first?: FailureCause }
  /** HTTP 401/403: the server wants authorization Parallax could not obtain without a person (`auth.signIn` does it), and why. */
  auth?: { required: true; why: string; scope?: string }
  /** A fault in Parallax's own work for this connection that no code handled (it failed the connection, not the host): what kind, and where. */
  fault?: { kind: 'unhandled rejection' | 'uncaught exception'; stack?: string[] }
}

export interface ConnectionEvent extends EventBase {
  type: 'connection'
  state: ConnectionState
  targetId: string
  targetName: string
  protocol: Protocol
  /** The transport in use, once known. */
  transport?: TransportKind
  reason?: string
  attempt?: number
  maxAttempts?: number
  delayMs?: number
  pid?: number
  owner: ConnectionOwner
  /**
   * On `connected` after the connection went down and keepalive brought it back: why it went down and
   * since when. Over stdio this is a new server process, so whatever state the server kept is gone.
   */
  reconnected?: { cause: string; downSince: number }
  /** On `failed`: what the user must approve before this can connect (an origin the agent card points to). */
  approval?: ApprovalRequest
  /** On `failed` (and `reconnecting`): the reason whole — command, exit, stderr, HTTP answer, address, fallback. */
  cause?: FailureCause
}

export interface ConversationEvent extends EventBase {
  type: 'conversation'
  message: ConversationMessage
}

/** One inspected call: raw vs hooked arguments, both validations, what was sent and what came back. */
export interface CallEvent extends EventBase, CallReport {
  type: 'call'
  /** Set when an App view made the call (its `tools/call`), not the user. */
  view?: { id: string; uri: string }
}

export interface CallReport {
  protocol: Protocol
  tool: string
  raw: Record<string, unknown>
  hooked: Record<string, unknown>
  /** What the hook changed, as JSON Pointer operations. */
  diff: { path: string; op: 'add' | 'remove' | 'replace'; from?: unknown; to?: unknown }[]
  hook?: { name: string; source: string }
  validation: { raw: ValidationResult; hooked: ValidationResult }
  /** An INVALID_REQUEST-class error: the hook threw or returned garbage. Nothing was sent. */
  hookError?: { code: -32600; message: string }
  sent: boolean
  response?: unknown
  /** The agent's or the transport's error, when the call was sent and failed. */
  error?: string
  contextEcho?: { present: boolean; echoed: boolean; matchesRaw: boolean; matchesHooked: boolean; returned?: unknown }
  lint: { where: 'arguments' | 'inputSchema'; path: string; field: string; message: string }[]
  outputValidation?: ValidationResult
  durationMs?: number
  /** The MCP task the call went through as (`task`: a task-augmented tools/call): its id, and the status it ended in, in MCP's words. */
  task?: { id: string; status: string }
  /** An AdCP agent's call: the release Parallax follows, why the agent is taken for one, and the task's request and response against that release's schemas. */
  adcp?: { release: string; recognised: string; task: string; known: boolean; findings: AdcpFinding[] }
  /** The conversation turn the call was (where the protocol makes calls turns). */
  turn?: number
}

/** An AdCP agent's task whose request or response breaks AdCP's published schemas: one event a call or turn, with every violation. */
export interface AdcpCheckEvent extends EventBase {
  type: 'adcp'
  release: string
  task: string
  /** The conversation turn it was, where the protocol makes it one. */
  turn?: number
  findings: AdcpFinding[]
}

/** A violation of an AdCP task's published schema: where in the request or response, and which rule of which schema. */
export interface AdcpFinding {
  phase: 'request' | 'response'
  /** The schema's `$id` (e.g. /schemas/3.0.6/media-buy/list-creative-formats-response.json). */
  schema: string
  /** JSON Pointer into the request or response. */
  instancePath: string
  /** JSON Pointer into the schema, from the schema that holds the rule. */
  schemaPath: string
  message: string
}

export interface ValidationResult {
  /** `null` when there is no schema to validate against. */
  valid: boolean | null
  errors: { path: string; message: string }[]
}

/** A connection's recording started, stopped, or failed (disk full, read-only folder): the session goes on. */
export interface RecordingEvent extends EventBase {
  type: 'recording'
  state: 'started' | 'stopped' | 'failed'
  name: string
  /** On `started`: the events written first as context (the connection's state then: see RecordingHeader.context). */
  context?: number
  /** Lines in the file, header included. */
  lines?: number
  /** On `stopped`: events written (context included), and the conversation turns among them. */
  events?: number
  turns?: number
  error?: string
}

/** A turn's outcome as parity compares it. */
/** How a replayed turn ended: `outcome` in the one vocabulary (what parity compares), `state` the protocol's own word. */
export interface ReplayOutcome {
  outcome: TurnOutcome
  /** To an AdCP agent: how the turn ended in AdCP's task-status vocabulary, what parity compares instead of `outcome`. */
  adcpStatus?: AdcpTaskStatus
  state: string
  data?: unknown
  text?: string
}

export interface TurnParity {
  index: number
  status: 'same' | 'differs' | 'error' | 'skipped'
  /** The turn as recorded: a call {tool, arguments}, an A2A data part, or text. */
  turn:
    | { kind: 'call'; tool: string; arguments: Record<string, unknown> }
    | { kind: 'data'; data: Record<string, unknown> }
    | { kind: 'text'; text: string }
  /** Side A's outcome (or, replaying against one target, the recorded one). */
  a?: ReplayOutcome
  b?: ReplayOutcome
  errors?: { a?: string; b?: string }
  reason?: string
  diff: { path: string; op: 'add' | 'remove' | 'replace'; a?: unknown; b?: unknown }[]
  /** The connections (and their frames) each side of this turn ran on. */
  connections: { a?: string; b?: string }
  /** The event numbers (`seq`, inclusive) each side's work on this turn spans: its frames are that connection's frames between them. */
  frames?: { a?: { from: number; to: number }; b?: { from: number; to: number } }
}

export interface ReplaySummary {
  total: number
  same: number
  differs: number
  errors: number
  skipped: number
}

/** Replay progress: start, each compared turn, the end. `connectionId` is `replay:<id>`. */
export interface ReplayEvent extends EventBase {
  type: 'replay'
  replayId: string
  phase: 'started' | 'turn' | 'finished'
  recording?: string
  /** A: the first target (or the recording itself when replaying against one target); B: the other. */
  sides?: { a: { label: string; connectionId?: string }; b: { label: string; connectionId?: string } }
  total?: number
  /** On `started`: the replay's connections stay open after it ends (the user asked to keep them); otherwise they close when it ends. */
  keep?: boolean
  turn?: TurnParity
  summary?: ReplaySummary
  stopped?: boolean
}

/** The hooks a target has now (after a load, a reload or a clear). */
export interface HooksEvent extends EventBase {
  type: 'hooks'
  targetId: string
  source?: string
  kind?: 'module' | 'declarative'
  tools: string[]
  error?: string
}

/** MCP's log levels (RFC 5424's), least severe first: `notifications/message` carries one, `logging/setLevel` asks for one. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/**
 * One line of a connection's log: a stdio server's stderr, a server's own log message (MCP
 * `notifications/message`, source `server`), or a note of the engine's or the transport's.
 */
export interface LogEvent extends EventBase {
  type: 'log'
  source: 'stderr' | 'engine' | 'transport' | 'server'
  /**
   * How much it matters, on one scale for every source. A server's message maps its own level onto it
   * (notice → info; critical, alert, emergency → error) and keeps that level as sent in `server.level`.
   * `debug` is the engine's plumbing: worth a look when digging, never alarming.
   */
  level: 'debug' | 'info' | 'warn' | 'error'
  text: string
  /** A server's own log message: its level exactly as sent (a server may send one outside LOG_LEVELS), its logger, the frame that carried it. */
  server?: { level: string; logger?: string; frameSeq?: number }
  /** Set on a note saying the server broke the protocol's rules; the text says which and how. */
  oddity?: boolean
  /** Whose behaviour a finding is about, on an observed connection: the host's (its requests) or the server's. */
  about?: 'host' | 'server'
}

/** What a tap holds in flight (opt-in): messages that match are held until released, edited, dropped or timed out. */
export interface TapBreakpoints {
  on: boolean
  /** Methods to hold (empty: any); a tool name holds `tools/call` of that tool only. */
  methods: string[]
  tools: string[]
  /** Which way: the host's messages (`out`), the server's (`in`), or both. */
  directions: ('out' | 'in')[]
  /** A held message goes on as it was after this long. */
  timeoutMs: number
}

/**
 * Hold in flight on an observed connection: `breakpoints` says what the tap holds now; `held` a message that
 * waits (its text, which way, until when); then `released` (as it was, or `edited`), `dropped`, each with who
 * decided (`by`: the user, or the timeout).
 */
export interface HoldEvent extends EventBase {
  type: 'hold'
  state: 'breakpoints' | 'held' | 'released' | 'dropped'
  breakpoints?: TapBreakpoints
  holdId?: number
  direction?: 'out' | 'in'
  method?: string
  message?: unknown
  releaseAt?: number
  by?: 'user' | 'timeout'
  edited?: true
}

/**
 * A request the server sent its client (sampling, elicitation, roots) and what became of it: `pending`
 * while it waits for a person (the UI shows it), then `answered` (by whom, with what), `failed` (Parallax
 * answered with an error: nobody could answer, the answer was invalid) or `cancelled` (the server stopped
 * waiting, the connection closed). Each names the frame that carried it.
 */
export interface ServerRequestEvent extends EventBase {
  type: 'serverRequest'
  /** The request's JSON-RPC id, as the server sent it: answers name it. */
  id: string | number
  method: string
  state: 'pending' | 'answered' | 'failed' | 'cancelled'
  /** What the server asked (its params), on every event of the request. */
  params: unknown
  /** The frame that carried the request. */
  frameSeq?: number
  /** On `pending`: how long Parallax waits for a person before answering that nobody did (the server may stop sooner: its own timeout). */
  waitLimitMs?: number
  /** Who answered: a person, a scripted responder (`source` names it), or Parallax itself (roots, or a refusal). */
  by?: 'user' | 'script' | 'parallax' | 'host'
  source?: string
  /** On `answered`: the result sent. */
  result?: unknown
  /** On `failed`: the error sent. */
  error?: { code: number; message: string }
  /** In words: why it failed or was cancelled, or what was answered. */
  reason?: string
}

/**
 * One step of authorizing a target (shared/contract/auth.ts): an HTTP exchange of discovery, registration
 * or token (secrets redacted), a decision and why, the challenge, the authorization URL, the redirect back,
 * the grant (scopes, expiry; never the token), a failure, a sign-out.
 */
export interface AuthEvent extends EventBase, AuthStep {
  type: 'auth'
}

export type EngineEvent =
  | AuthEvent
  | ServerRequestEvent
  | FrameEvent
  | HandshakeEvent
  | DiscoveryEvent
  | KeepaliveEvent
  | ConnectionEvent
  | ConversationEvent
  | CallEvent
  | HooksEvent
  | ReplayEvent
  | RecordingEvent
  | LogEvent
  | HoldEvent
  | AdcpCheckEvent
export type EngineEventType = EngineEvent['type']

/** What producers hand to the engine: the engine stamps `seq` (and `ts` when absent). */
export type EventInput<E extends EngineEvent = EngineEvent> = E extends EngineEvent ? Omit<E, 'seq' | 'ts'> & { ts?: number } : never
