import { z } from 'zod'
import { ConnectionOptions, SavedTarget, TargetDraft } from './targets'
import type { ConversationContext } from './conversation'
import type { ClientProfile } from './profiles'
import { ServerRequestAnswer } from './clientRole'
import type { ApprovalRecord, ApprovalRequest } from './approvals'
import {
  LOG_LEVELS,
  type CallReport,
  type ConnectionState,
  type EngineEvent,
  type FailureCause,
  type LogLevel,
  type ReplaySummary,
  type TurnParity,
} from './events'
import type { A2aMessage, A2aPart, A2aPushConfig, A2aTask, McpToolResult } from './agentData'
import type { AcpPromptAnswer } from './acp'
import type { AuthBeginResult, AuthStatus } from './auth'
import { APP_FRAME_TEXT_MAX, type AppViewInfo } from './apps'
import type { ConnectionPurpose } from './events'
import type { RequestCheck } from './resend'
import type { BacklogPage } from './backlog'
import { SEQS_PER_REQUEST } from './onDemand'

/**
 * Every command a host can send to the engine, with its runtime input schema. The engine validates
 * each input against these (Engine.execute); hosts only check who is calling.
 */
const ConnectionRef = z.object({ connectionId: z.string().min(1).max(300) })
const Seqs = z.array(z.number().int().min(1)).min(1).max(SEQS_PER_REQUEST)
const TargetId = z.string().min(1).max(200)
const RecordingName = z.string().min(1).max(120)

export const TurnSchema = z.union([
  z.object({ tool: z.string().min(1).max(500), arguments: z.record(z.string(), z.unknown()).default({}) }).strict(),
  z.object({ text: z.string().min(1, 'a text turn cannot be empty').max(1_000_000) }).strict(),
  z.object({ data: z.record(z.string(), z.unknown()) }).strict(),
])

/**
 * A target that is not saved, given whole (a command line's, a config file's entry): opened for one use.
 * Consent applies as to a saved target; it can never pass for a demo, nor take a saved target's id.
 */
export const UnsavedTarget = SavedTarget.extend({
  // Named by what the user typed (a URL, a command line), which may be long.
  name: z.string().min(1, 'name is required').max(10_000),
  origin: z.enum(['user', 'import']).default('user'),
})
export type UnsavedTarget = z.infer<typeof UnsavedTarget>

/** A saved target by `targetId`, or an unsaved one given whole as `target`: exactly one of the two. */
const targetRefShape = { targetId: TargetId.optional(), target: UnsavedTarget.optional() }
const oneTarget = (ref: { targetId?: string; target?: unknown }) => (ref.targetId === undefined) !== (ref.target === undefined)
const ONE_TARGET = { message: 'give either targetId (a saved target) or target (an unsaved one)', path: ['targetId'] }
export const TargetRef = z.object(targetRefShape).refine(oneTarget, ONE_TARGET)
export type TargetRef = z.output<typeof TargetRef>

/** A client profile by name, or given whole (validated against the profile schema before anything is sent). */
const ProfileRef = z.union([z.string().min(1).max(100), z.record(z.string(), z.unknown())])

/** A target and the client profile to connect to it under. */
const TargetUnderProfile = z.object({ ...targetRefShape, profile: ProfileRef.optional() }).refine(oneTarget, ONE_TARGET)

/** Where a compared difference was seen: the frame (seq) in each side's connection. */
const FrameLinks = z.object({ a: z.number().int().optional(), b: z.number().int().optional() })
const CatalogEntry = z.object({ kind: z.string().max(100), name: z.string().max(10_000), frames: FrameLinks })
const CompareSide = z.object({
  targetId: z.string().max(10_000),
  targetName: z.string().max(10_000),
  profile: z.string().max(100).optional(),
  connectionId: z.string().max(300),
})
/** A CompareResult handed back to the engine (to make its report). */
const CompareResultSchema = z.object({
  a: CompareSide,
  b: CompareSide,
  handshake: z
    .array(
      z.object({ origin: z.enum(['client', 'agent']), field: z.string().max(10_000), a: z.unknown(), b: z.unknown(), frames: FrameLinks }),
    )
    .max(10_000),
  catalog: z.object({
    added: z.array(CatalogEntry).max(100_000),
    removed: z.array(CatalogEntry).max(100_000),
    same: z.array(CatalogEntry).max(100_000),
    changed: z
      .array(
        CatalogEntry.extend({
          breaking: z.boolean(),
          changes: z
            .array(
              z.object({ path: z.string().max(10_000), kind: z.string().max(100), breaking: z.boolean(), detail: z.string().max(10_000) }),
            )
            .max(10_000),
        }),
      )
      .max(100_000),
  }),
})

/** What one turn sent and produced, for either protocol. */
export interface TurnResult {
  turn: number
  /** MCP: the tool call; A2A: the message's parts, and the task and context it continued; ACP: the prompt and its session. */
  request:
    | { tool: string; arguments: Record<string, unknown> }
    | { parts: A2aPart[]; taskId?: string; contextId?: string }
    | { prompt: string; sessionId: string }
  /** MCP: the tool result; A2A: the final task or message (null when a stream ended with neither); ACP: what the prompt turn came to. */
  response: McpToolResult | A2aTask | A2aMessage | AcpPromptAnswer | null
  /** A2A: the task's state (or `message`); MCP: `completed` or `error`; ACP: the stop reason (or `error`). */
  state: string
  taskId?: string
  contextId?: string
  streamed?: boolean
}

/**
 * What one MCP request came to: the server's result or its JSON-RPC error, or no answer at all (Parallax
 * stopped waiting: the request timed out, the user cancelled it, or the connection was lost).
 */
export type RequestAnswer = {
  method: string
  /** The request's JSON-RPC id and the progress token it carried (what `connections.cancel` and progress name). */
  requestId?: string | number
  progressToken?: string | number
  durationMs: number
  /** Where the result breaks the MCP schema for its method (the result is still given as it came). */
  problems?: string[]
} & (
  | { outcome: 'result'; result: Record<string, unknown> }
  | { outcome: 'error'; error: { code: number; message: string; data?: unknown } }
  | { outcome: 'timeout' | 'cancelled' | 'lost'; reason: string }
)

/** What a resend came to, by what it was: an inspected tool call, any MCP request, an A2A turn, or an A2A task operation. */
export type ResendResult = (
  | { kind: 'call'; report: CallReport }
  | { kind: 'request'; answer: RequestAnswer }
  | { kind: 'turn'; result: TurnResult }
  | { kind: 'task'; task: A2aTask | A2aMessage | null }
  | { kind: 'tasks'; tasks: A2aTask[] }
) & {
  /** The frame (seq) this resend repeats; the new frames carry it as `resendOf`. */
  resendOf: number
  method: string
  /** The new request's frame (seq), once it went out (a hook that threw, say, sends nothing). */
  requestSeq?: number
}

/** A request frame of a connection, with params to send in place of its own (checked against the protocol's schema for its method). */
const ResendInput = ConnectionRef.extend({
  seq: z.number().int().min(1),
  params: z.record(z.string(), z.unknown()).optional(),
})

/** An App view the engine opened (apps.open), by its id. */
const ViewRef = z.object({ viewId: z.string().regex(/^[0-9a-f]{32}$/, 'a view id as apps.open gave it') })

/** Which target to sign in to: a saved one, an unsaved one given whole, or a connection's; `scope` asks for more than the challenge named. */
const AuthBeginInput = z
  .object({
    ...targetRefShape,
    connectionId: z.string().min(1).max(300).optional(),
    scope: z.string().max(2000).optional(),
    headless: z.boolean().optional(),
  })
  .refine((r) => [r.targetId, r.target, r.connectionId].filter((x) => x !== undefined).length === 1, {
    message: 'give one of connectionId, targetId or target',
    path: ['targetId'],
  })

export const CommandInputs = {
  'app.info': z.object({}),
  'targets.list': z.object({}),
  /** `approve`: the user typed or reviewed this command in the editor, so saving approves running it. */
  'targets.save': TargetDraft.extend({ approve: z.boolean().optional() }),
  'targets.remove': z.object({ id: TargetId }),
  /**
   * The text of an `mcpServers` config file; nothing is spawned on import (each stdio command still asks
   * for approval when it first connects). `only`: the ids of the entries to add (as `targets.previewImport`
   * lists them); every usable entry without it.
   */
  'targets.import': z.object({
    text: z.string().max(5_000_000),
    fileName: z.string().max(500).optional(),
    only: z.array(TargetId).max(10_000).optional(),
  }),
  /** What importing a config file would add, entry by entry (and what it cannot use), without adding anything. */
  'targets.previewImport': z.object({ text: z.string().max(5_000_000), fileName: z.string().max(500).optional() }),
  /**
   * Opens a connection: the user's session by default. A saved target's live session is returned as it
   * is, unless a profile is given; an unsaved target, a profile, or a `recording` (a CLI recording's own
   * connection) always gets a connection of its own.
   */
  'connections.open': z
    .object({ ...targetRefShape, profile: ProfileRef.optional(), purpose: z.enum(['session', 'recording']).default('session') })
    .refine(oneTarget, ONE_TARGET),
  /**
   * Replaces a connection with a new session to the same target: the old one is closed first (its
   * frames stay readable). Works whatever state the old one is in.
   */
  'connections.reconnect': ConnectionRef,
  /** Waits for a connection's first outcome: connected, or why it could not be (the same as its `failed` event). */
  'connections.wait': ConnectionRef,
  'connections.close': ConnectionRef,
  'connections.refresh': ConnectionRef,
  'connections.probe': ConnectionRef,
  'connections.setKeepalive': ConnectionRef.extend({ intervalMs: ConnectionOptions.shape.keepaliveIntervalMs }),
  /**
   * Asks an MCP server to send its log messages (`notifications/message`) at `level` and above
   * (`logging/setLevel`); refused when the server did not advertise `logging`. The level is asked
   * for again after a reconnect.
   */
  'connections.setLogLevel': ConnectionRef.extend({ level: z.enum(LOG_LEVELS) }),
  /**
   * Sends any MCP request (`prompts/get`, `resources/read`, `completion/complete`, `logging/setLevel`, …):
   * its params are checked against the MCP SDK's schema for the method where it has one, and the answer
   * comes back as the server gave it (a result, or its JSON-RPC error), or why none came. The exchange is
   * frames and, unless `conversation` is false, conversation messages (a `tools/call` is a turn, as
   * `conversation.send` makes it); `false` is for what a UI asks for itself as the user types (argument
   * completion): frames only. `progress` asks for progress (a token the server may report against, each
   * report restarting the timeout); by default `tools/call`, `prompts/get` and `resources/read` ask for it
   * (`PROGRESS_METHODS`), the rest do not. Cancel a request with `connections.cancel`.
   */
  'connections.request': ConnectionRef.extend({
    method: z.string().min(1).max(200),
    params: z.record(z.string(), z.unknown()).optional(),
    conversation: z.boolean().default(true),
    progress: z.boolean().optional(),
  }),
  /** Checks a request frame, or params in place of its own, against the protocol's schema for its method, without sending anything. */
  'requests.check': ResendInput,
  /**
   * Sends a request seen in Frames again on the same connection, as it was or with `params` in its place
   * (checked first: refused with where and why, nothing sent). The new frames carry `resendOf`. A tool call
   * goes through the inspected call (hooks apply), an A2A message is a turn. One that changes state (a
   * tool call, a message, a cancel) is refused unless `confirmed`: a host asks its user first.
   */
  'requests.resend': ResendInput.extend({ confirmed: z.boolean().default(false) }),
  /** Stops waiting for a request of the user's (by its JSON-RPC id) and tells the server (`notifications/cancelled`). */
  'connections.cancel': ConnectionRef.extend({
    requestId: z.union([z.string().min(1).max(200), z.number().int()]),
    reason: z.string().max(500).optional(),
  }),
  /**
   * A person's answer to a request the server sent (sampling, elicitation) that waits for one: a result
   * (checked against the MCP schema for its method) or a rejection. Roots are answered from the target.
   */
  'serverRequests.answer': ConnectionRef.extend({ id: z.union([z.string().min(1).max(200), z.number()]), answer: ServerRequestAnswer }),
  /** One conversation turn: A2A text or data; MCP a tool call. */
  'conversation.send': ConnectionRef.extend({
    turn: TurnSchema,
    stream: z.boolean().default(false),
    newContext: z.boolean().default(false),
  }),
  'conversation.newContext': ConnectionRef,
  'tasks.get': ConnectionRef.extend({ taskId: z.string().min(1).max(500), historyLength: z.number().int().min(0).max(10_000).optional() }),
  'tasks.list': ConnectionRef.extend({ contextId: z.string().max(500).optional() }),
  'tasks.cancel': ConnectionRef.extend({ taskId: z.string().min(1).max(500) }),
  'tasks.resubscribe': ConnectionRef.extend({ taskId: z.string().min(1).max(500) }),
  /**
   * A2A push notifications for a task: `create` opens a webhook on Parallax's receiver (127.0.0.1, a random
   * path and token, checked on every push) and gives it to the agent; each push is a frame and a
   * conversation event. A task that changes state with no push within `expectWithinMs` is a finding.
   */
  'pushConfigs.create': ConnectionRef.extend({
    taskId: z.string().min(1).max(500),
    expectWithinMs: z.number().int().min(100).max(3_600_000).default(10_000),
  }),
  'pushConfigs.get': ConnectionRef.extend({ taskId: z.string().min(1).max(500), configId: z.string().min(1).max(500) }),
  'pushConfigs.list': ConnectionRef.extend({ taskId: z.string().min(1).max(500) }),
  'pushConfigs.delete': ConnectionRef.extend({ taskId: z.string().min(1).max(500), configId: z.string().min(1).max(500) }),
  /** Loads (or reloads) a hooks file for the connection's target; its hooks run on every tools.call. */
  'hooks.load': ConnectionRef.extend({ path: z.string().min(1).max(4096) }),
  'hooks.clear': ConnectionRef,
  /** Hooks files to pick from: the examples that ship with Parallax, the ones loaded lately, whether `hooks.browse` is there. */
  'hooks.files': z.object({}),
  /** The host's own file dialog (the desktop app's), for a hooks file; refused by a host that has none (the web host). */
  'hooks.browse': z.object({}),
  /** A call inspected end to end: raw and hooked arguments, validation, context echo, lint. */
  'tools.call': ConnectionRef.extend({
    tool: z.string().min(1).max(500),
    arguments: z.record(z.string(), z.unknown()).default({}),
    /** MCP: make the call as a task (2025-11-25), for a server that advertises tasks for tool calls; followed to its result. */
    task: z.boolean().default(false),
  }),
  'recordings.list': z.object({}),
  /**
   * Starts recording a connection's events into the library (name defaults to target and time); or, with
   * `file`, into that file (appended to), on hosts that let their user name files (the CLI's --out).
   */
  'recordings.start': ConnectionRef.extend({ name: RecordingName.optional(), file: z.string().min(1).max(4096).optional() }).refine(
    (r) => !(r.name && r.file),
    {
      message: 'give a name (in the library) or a file, not both',
      path: ['file'],
    },
  ),
  'recordings.stop': ConnectionRef,
  'recordings.rename': z.object({ name: RecordingName, to: RecordingName }),
  'recordings.delete': z.object({ name: RecordingName }),
  'recordings.import': z.object({ name: RecordingName, text: z.string().max(200_000_000) }),
  'recordings.export': z.object({ name: RecordingName }),
  /** A recording's header, its turns, and every line that could not be read. */
  'recordings.load': z.object({ name: RecordingName }),
  /**
   * Prepares a replay of a recording — one in the library by name, or one given whole as `{label, text}`
   * (a file the library does not hold) — against one target (vs the recording) or two (A vs B): saved
   * ones by `targetIds`, or any by `targets`.
   */
  'replay.start': z
    .object({
      recording: z.union([RecordingName, z.object({ label: z.string().min(1).max(4096), text: z.string().max(200_000_000) })]),
      targetIds: z.array(TargetId).min(1).max(2).optional(),
      targets: z.array(TargetRef).min(1).max(2).optional(),
      ignore: z.array(z.string().max(500)).max(100).default([]),
      /** Keep the replay's connections open when it ends, to inspect them (they are closed with connections.close). */
      keep: z.boolean().default(false),
    })
    .refine((r) => (r.targetIds === undefined) !== (r.targets === undefined), {
      message: 'give either targetIds or targets',
      path: ['targetIds'],
    }),
  'replay.step': z.object({ replayId: z.string().min(1).max(100) }),
  'replay.run': z.object({ replayId: z.string().min(1).max(100) }),
  'replay.stop': z.object({ replayId: z.string().min(1).max(100) }),
  /** A replay's parity as one self-contained HTML file (redacted): its turns so far, with their badges, diffs and outcomes. */
  'replay.report': z.object({ replayId: z.string().min(1).max(100) }),
  /** The whole payload of a frame that was kept truncated for its size. */
  'frames.export': ConnectionRef.extend({ seq: z.number().int().min(1) }),
  /** Frames' payloads as the engine keeps them, for a UI that got the frames without them (`deferred`): as many as fit in one answer (onDemand.ts). */
  'frames.payloads': ConnectionRef.extend({ seqs: Seqs }),
  /** Log lines' texts, for a UI that got the lines without them (a backlog's rows): as many as fit in one answer (onDemand.ts). */
  'logs.texts': ConnectionRef.extend({ seqs: Seqs }),
  'approvals.list': z.object({}),
  /** Approves exactly what an `approval-required` refusal asked about (its fingerprint). */
  'approvals.grant': z.object({ fingerprint: z.string().regex(/^[0-9a-f]{64}$/, 'a fingerprint from an approval request') }),
  'approvals.revoke': z.object({ fingerprint: z.string().min(1).max(100) }),
  'profiles.list': z.object({}),
  /** Validated against the profile schema: an invalid profile is refused with every problem named. */
  'profiles.save': z.object({ profile: z.unknown() }),
  'profiles.remove': z.object({ name: z.string().min(1).max(100) }),
  /** Connects two sides (one target under two profiles, or two targets) and diffs what each exposed. */
  /** `operations`: renames pairing an MCP tool with an A2A skill of another name ({tool: skill}); by default they pair by name. */
  'compare.run': z.object({
    a: TargetUnderProfile,
    b: TargetUnderProfile,
    operations: z.record(z.string().max(500), z.string().max(500)).optional(),
    /** ACP: a prompt sent on each side once it settled, so the compare shows what the agent did (the tools it used) as well as what it exposed. */
    prompt: z.string().min(1).max(10_000).optional(),
  }),
  /** A compare's result (as compare.run gave it) as one self-contained HTML file (redacted). */
  'compare.report': z.object({ result: CompareResultSchema }),
  /**
   * Starts signing in to a target (a saved one, an unsaved one given whole, or a connection's): discovery,
   * client registration, then either the grant at once (client credentials, a refresh, `headless`) or the
   * authorization URL a host opens in the system browser, with a loopback redirect on 127.0.0.1 waiting for
   * it (state checked). Each step is an `auth` event. `scope` asks for more than the challenge named.
   */
  'auth.begin': AuthBeginInput,
  /** `auth.begin`, then the host's browser (where the engine has one, e.g. the desktop app's) opens the URL, then `auth.wait`. */
  'auth.signIn': AuthBeginInput,
  /** Waits for a sign-in `auth.begin` started to end: the target's status then (failed or cancelled: an error saying why). */
  'auth.wait': z.object({ flowId: z.string().min(1).max(100) }),
  /** Stops waiting for the browser: the loopback redirect closes and the sign-in fails as cancelled. */
  'auth.cancel': z.object({ flowId: z.string().min(1).max(100) }),
  /** Forgets everything kept to authorize a target: tokens, a dynamic registration, the client secret (unless `keepClient`). */
  'auth.signOut': z.object({ targetId: TargetId, keepClient: z.boolean().default(false) }),
  'auth.status': z.object({ targetId: TargetId }),
  /**
   * Opens an MCP App view for a connection: reads its `ui://` resource (`resources/read`, frames only),
   * checks it is an App's HTML, and builds the policy it runs under from the metadata it declares. The
   * answer says where the host serves it (on an origin of its own) and everything a UI shows about it.
   */
  'apps.open': ConnectionRef.extend({ uri: z.string().min(1).max(4096), tool: z.string().min(1).max(500).optional() }),
  /** An open view's document and policy, for the host that serves it. */
  'apps.document': ViewRef,
  /**
   * Messages between a view and the UI hosting it, as the UI saw them cross `postMessage` (`in`: from the
   * view), in order: each becomes a frame (protocol `mcp-app`) on the view's connection. `refused`: the UI
   * did not hand the message on (too large, too deep, not JSON); `text` is then its beginning and `bytes` its size.
   */
  'apps.frames': ViewRef.extend({
    frames: z
      .array(
        z
          .object({
            direction: z.enum(['in', 'out']),
            text: z.string().max(APP_FRAME_TEXT_MAX),
            ts: z.number().optional(),
            refused: z.string().max(300).optional(),
            bytes: z.number().int().min(0).optional(),
          })
          .strict(),
      )
      .min(1)
      .max(500),
  }),
  /** A view's `tools/call`: refused for a tool its visibility keeps from views, else an inspected call like `tools.call`. */
  'apps.callTool': ViewRef.extend({ tool: z.string().min(1).max(500), arguments: z.record(z.string(), z.unknown()).default({}) }),
  /** The view is gone (torn down, or stopped for misbehaving: `reason` says why); its frames stay. */
  'apps.close': ViewRef.extend({ reason: z.string().max(500).optional() }),
  /** Every event after `afterSeq`, at most `limit` of them, each as a UI receives it live. */
  'events.since': z.object({ afterSeq: z.number().int().min(0), limit: z.number().int().min(1).optional() }),
  /**
   * The backlog a UI needs when it (re)attaches, packed (see backlog.ts): the events numbered `afterSeq + 1`
   * to `afterSeq + limit` (events are numbered 1, 2, 3, …), so a UI catching up on a long session may ask
   * for the next page before this one arrives.
   */
  'events.backlog': z.object({ afterSeq: z.number().int().min(0), limit: z.number().int().min(1).optional() }),
} as const

export type CommandName = keyof typeof CommandInputs
/** A command's input as a caller sends it (defaults may be left out). */
export type CommandInput<C extends CommandName> = z.input<(typeof CommandInputs)[C]>
/** A command's input as its handler receives it: parsed, defaults filled. */
export type ParsedCommandInput<C extends CommandName> = z.output<(typeof CommandInputs)[C]>

export interface AppInfo {
  name: 'Parallax'
  version: string
  host: 'web' | 'electron'
  defaults: ConnectionOptions
}

export interface ImportResult {
  imported: SavedTarget[]
  errors: string[]
}

/** One entry of a config file as it would be imported: its id, its name, what it runs or where it connects. */
export interface ImportEntry {
  id: string
  name: string
  /** The config's section it came from. */
  section: 'mcpServers' | 'a2aAgents' | 'acpAgents'
  spec: SavedTarget['spec']
  /** The saved target of the same id that importing it would replace (a file imported before). */
  replaces?: string
}

export interface CommandOutputs {
  'app.info': AppInfo
  'targets.list': SavedTarget[]
  'targets.save': SavedTarget
  'targets.remove': { removed: boolean }
  'targets.import': ImportResult
  'targets.previewImport': { entries: ImportEntry[]; errors: string[] }
  'connections.open': { connectionId: string }
  'connections.reconnect': { connectionId: string; previous: { connectionId: string; state: ConnectionState } }
  'connections.wait': ConnectionOutcome
  'connections.close': { closed: boolean }
  'connections.refresh': { ok: true }
  'connections.probe': { ok: boolean }
  'connections.setKeepalive': { intervalMs: number }
  'connections.setLogLevel': { level: LogLevel }
  'connections.request': RequestAnswer
  'connections.cancel': { cancelled: boolean }
  'requests.check': RequestCheck
  'requests.resend': ResendResult
  'serverRequests.answer': { answered: true }
  'conversation.send': TurnResult
  'conversation.newContext': { ok: true }
  'tasks.get': { task: A2aTask; conversation: ConversationContext }
  'tasks.list': A2aTask[]
  'tasks.cancel': A2aTask
  /** The task as the stream left it (or the message it ended with). */
  'tasks.resubscribe': A2aTask | A2aMessage | null
  'pushConfigs.create': A2aPushConfig
  'pushConfigs.get': A2aPushConfig
  'pushConfigs.list': A2aPushConfig[]
  'pushConfigs.delete': { deleted: true }
  'hooks.load': { source: string; kind: 'module' | 'declarative'; tools: string[] }
  'hooks.clear': { cleared: boolean }
  'hooks.files': HooksFiles
  /** The file chosen, or null when the dialog was dismissed. */
  'hooks.browse': { path: string | null }
  'tools.call': CallReport
  'recordings.list': RecordingInfo[]
  'recordings.start': { name: string }
  /** `events`: written, the context at the top included; `turns`: conversation turns among them. */
  'recordings.stop': { name: string; lines: number; events: number; turns: number }
  'recordings.rename': { name: string }
  'recordings.delete': { deleted: boolean }
  'recordings.import': { name: string; problems: { line: number; message: string }[] }
  'recordings.export': { text: string }
  'recordings.load': {
    header: RecordingHeader | undefined
    problems: { line: number; message: string }[]
    events: number
    turns: { index: number; turn: TurnParity['turn'] }[]
  }
  'replay.start': { replayId: string; total: number }
  'replay.step': TurnParity | null
  'replay.run': ReplaySummary
  'replay.stop': { stopped: boolean }
  'replay.report': { html: string }
  'frames.export': { text: string; bytes: number }
  'frames.payloads': { payloads: unknown[] }
  'logs.texts': { texts: string[] }
  'approvals.list': ApprovalRecord[]
  'approvals.grant': ApprovalRecord
  'approvals.revoke': { revoked: boolean }
  'profiles.list': (ClientProfile & { preset: boolean })[]
  'profiles.save': ClientProfile
  'profiles.remove': { removed: boolean }
  'compare.run': CompareResult
  'compare.report': { html: string }
  'auth.begin': AuthBeginResult
  'auth.signIn': AuthStatus
  'auth.wait': AuthStatus
  'auth.cancel': { cancelled: boolean }
  'auth.signOut': AuthStatus & { cleared: string[] }
  'auth.status': AuthStatus
  'events.since': EngineEvent[]
  'events.backlog': BacklogPage
  'apps.open': AppViewInfo
  'apps.document': { html: string; csp: string; allow: string; sandbox: string; permissionsPolicy: string }
  'apps.frames': { recorded: number }
  'apps.callTool': CallReport
  'apps.close': { closed: boolean }
}

/** How a connection's first attempt ended. */
export interface ConnectionOutcome {
  connected: boolean
  /** The state now (a connection that connected may have gone down since). */
  state: ConnectionState
  /** Why it could not connect. */
  reason?: string
  /** The reason whole: the command and how it ended, the HTTP answer, the address, a fallback tried. */
  cause?: FailureCause
  /** What the user must approve before it can (an origin the agent card points to). */
  approval?: ApprovalRequest
}

export interface CompareSideResult {
  targetId: string
  targetName: string
  profile?: string
  connectionId: string
}

/** The differences between two sides; each difference names the frames (by seq) that showed it. */
export interface CompareResult {
  a: CompareSideResult
  b: CompareSideResult
  handshake: { origin: 'client' | 'agent'; field: string; a: unknown; b: unknown; frames: { a?: number; b?: number } }[]
  catalog: {
    added: { kind: string; name: string; frames: { a?: number; b?: number } }[]
    removed: { kind: string; name: string; frames: { a?: number; b?: number } }[]
    changed: {
      kind: string
      name: string
      breaking: boolean
      frames: { a?: number; b?: number }
      changes: { path: string; kind: string; breaking: boolean; detail: string }[]
    }[]
    /** In both, unchanged (across protocols: an MCP tool and the A2A skill of the same name). */
    same: { kind: string; name: string; frames: { a?: number; b?: number } }[]
  }
}

/** A recording's first line: what recorded it, when, which targets, and how turns map between protocols. */
export interface RecordingHeader {
  format: 'parallax.recording/1'
  app: { name: 'Parallax'; version: string }
  startedAt: string
  /** The demo targets' specs are internal (and machine-local), so only their id and name are kept. */
  targets: (Pick<SavedTarget, 'id' | 'name'> & Partial<Pick<SavedTarget, 'spec'>>)[]
  /** How turns map between protocols on replay: an MCP call of tool X with arguments A ↔ an A2A data part {skill: X, input: A}. */
  mapping: { skillField: string; inputField: string }
  profile?: ClientProfile
  /** The connection recorded: its id, what it was for and when it opened. */
  connection?: { id: string; purpose: ConnectionPurpose; startedAt: number }
  /**
   * How many events, right after this line, are context rather than what happened while recording: the
   * connection's state when recording began (its latest connection state, handshake, hooks, and the latest
   * discovery step of each list, with the catalog), as they were then, with their own `seq` and `ts`. A
   * replay learns from them what it talks to; turns come only from what follows.
   */
  context?: number
}

/** Hooks files a user can pick without typing a path: what the engine has on this machine. */
export interface HooksFiles {
  /** The examples that ship with Parallax, by their real path where it runs (a checkout or an installed package). */
  builtIn: { name: string; path: string }[]
  /** Files loaded lately (newest first) that still exist; none without a data folder. */
  recent: string[]
  /** Whether the host has a file dialog of its own (`hooks.browse`): the desktop app; a web page cannot read a path from its browser's file picker. */
  browse: boolean
}

export interface RecordingInfo {
  name: string
  bytes: number
  modifiedAt: number
  /** A checked summary of the header line (capped), never the header itself. */
  header?: { format: string; startedAt: string; targets: { id: string; name: string }[] }
  /** Why the file is not a usable recording (unreadable, or its first line is not a Parallax header); it can still be removed. */
  damaged?: string
}

export type CommandOutput<C extends CommandName> = CommandOutputs[C]

export function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && Object.hasOwn(CommandInputs, name)
}

/** A command's failure: its code (and details a host can act on) are carried across hosts. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly code: CommandErrorCode = 'failed',
    /** Structured detail a host can act on (for `approval-required`: the ApprovalRequest to confirm). */
    readonly details?: unknown,
  ) {
    super(message)
    this.name = 'CommandError'
  }
}

export type CommandErrorCode = 'invalid-input' | 'unknown-command' | 'not-found' | 'failed' | 'approval-required'

/** Parses a command's input against its schema, with a message a person can act on. */
export function parseCommandInput<C extends CommandName>(command: C, input: unknown): ParsedCommandInput<C> {
  const result = CommandInputs[command].safeParse(input ?? {})
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')
    throw new CommandError(`invalid input for ${command}: ${issues}`, 'invalid-input')
  }
  return result.data as ParsedCommandInput<C>
}
