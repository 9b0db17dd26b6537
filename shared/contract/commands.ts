import { z } from 'zod'
import { ConnectionOptions, SavedTarget, TargetDraft } from './targets'
import type { ConversationContext } from './conversation'
import type { ClientProfile } from './profiles'
import type { ApprovalRecord } from './approvals'
import type { CallReport, EngineEvent, ReplaySummary, TurnParity } from './events'

/**
 * Every command the UI can send to the engine, with its runtime input schema.
 * Hosts validate each incoming payload against these before the engine sees it.
 */
const ConnectionRef = z.object({ connectionId: z.string().min(1).max(300) })

export const TurnSchema = z.union([
  z.object({ tool: z.string().min(1).max(500), arguments: z.record(z.string(), z.unknown()).default({}) }).strict(),
  z.object({ text: z.string().min(1, 'a text turn cannot be empty').max(1_000_000) }).strict(),
  z.object({ data: z.record(z.string(), z.unknown()) }).strict(),
])

const CompareSide = z.object({ targetId: z.string().min(1).max(200), profile: z.union([z.string().min(1).max(100), z.record(z.string(), z.unknown())]).optional() })

/** What one turn produced, for either protocol. */
export interface TurnResult {
  turn: number
  request: unknown
  response: unknown
  /** A2A: the task's state (or `message`); MCP: `completed` or `error`. */
  state: string
  taskId?: string
  contextId?: string
  streamed?: boolean
}

export const CommandInputs = {
  'app.info': z.object({}),
  'targets.list': z.object({}),
  /** `approve`: the user typed or reviewed this command in the editor, so saving approves running it. */
  'targets.save': TargetDraft.extend({ approve: z.boolean().optional() }),
  'targets.remove': z.object({ id: z.string().min(1).max(200) }),
  /** The text of an `mcpServers` config file; nothing is spawned on import. */
  'targets.import': z.object({ text: z.string().max(5_000_000), fileName: z.string().max(500).optional() }),
  'connections.open': z.object({ targetId: z.string().min(1).max(200) }),
  'connections.close': ConnectionRef,
  'connections.refresh': ConnectionRef,
  'connections.probe': ConnectionRef,
  'connections.setKeepalive': ConnectionRef.extend({ intervalMs: ConnectionOptions.shape.keepaliveIntervalMs }),
  /** One conversation turn: A2A text or data; MCP a tool call. */
  'conversation.send': ConnectionRef.extend({ turn: TurnSchema, stream: z.boolean().default(false), newContext: z.boolean().default(false) }),
  'conversation.newContext': ConnectionRef,
  'tasks.get': ConnectionRef.extend({ taskId: z.string().min(1).max(500), historyLength: z.number().int().min(0).max(10_000).optional() }),
  'tasks.list': ConnectionRef.extend({ contextId: z.string().max(500).optional() }),
  'tasks.cancel': ConnectionRef.extend({ taskId: z.string().min(1).max(500) }),
  'tasks.resubscribe': ConnectionRef.extend({ taskId: z.string().min(1).max(500) }),
  /** Loads (or reloads) a hooks file for the connection's target; its hooks run on every tools.call. */
  'hooks.load': ConnectionRef.extend({ path: z.string().min(1).max(4096) }),
  'hooks.clear': ConnectionRef,
  /** A call inspected end to end: raw and hooked arguments, validation, context echo, lint. */
  'tools.call': ConnectionRef.extend({ tool: z.string().min(1).max(500), arguments: z.record(z.string(), z.unknown()).default({}) }),
  'recordings.list': z.object({}),
  /** Starts recording a connection's events into the library (name defaults to target and time). */
  'recordings.start': ConnectionRef.extend({ name: z.string().min(1).max(120).optional() }),
  'recordings.stop': ConnectionRef,
  'recordings.rename': z.object({ name: z.string().min(1).max(120), to: z.string().min(1).max(120) }),
  'recordings.delete': z.object({ name: z.string().min(1).max(120) }),
  'recordings.import': z.object({ name: z.string().min(1).max(120), text: z.string().max(200_000_000) }),
  'recordings.export': z.object({ name: z.string().min(1).max(120) }),
  /** A recording's header, its turns, and every line that could not be read. */
  'recordings.load': z.object({ name: z.string().min(1).max(120) }),
  /** Prepares a replay of a recording against one target (vs the recording) or two (A vs B). */
  'replay.start': z.object({ recording: z.string().min(1).max(120), targetIds: z.array(z.string().min(1).max(200)).min(1).max(2), ignore: z.array(z.string().max(500)).max(100).default([]) }),
  'replay.step': z.object({ replayId: z.string().min(1).max(100) }),
  'replay.run': z.object({ replayId: z.string().min(1).max(100) }),
  'replay.stop': z.object({ replayId: z.string().min(1).max(100) }),
  /** The whole payload of a frame that was kept truncated for its size. */
  'frames.export': ConnectionRef.extend({ seq: z.number().int().min(1) }),
  'approvals.list': z.object({}),
  /** Approves exactly what an `approval-required` refusal asked about (its fingerprint). */
  'approvals.grant': z.object({ fingerprint: z.string().regex(/^[0-9a-f]{64}$/, 'a fingerprint from an approval request') }),
  'approvals.revoke': z.object({ fingerprint: z.string().min(1).max(100) }),
  'profiles.list': z.object({}),
  /** Validated against the profile schema: an invalid profile is refused with every problem named. */
  'profiles.save': z.object({ profile: z.unknown() }),
  'profiles.remove': z.object({ name: z.string().min(1).max(100) }),
  /** Connects two sides (one target under two profiles, or two targets) and diffs what each exposed. */
  'compare.run': z.object({ a: CompareSide, b: CompareSide }),
  /** The backlog a UI needs when it (re)attaches: every event after `afterSeq`. */
  /** The backlog after `afterSeq`, at most `limit` events (a page: a UI catching up on a long session asks page by page). */
  'events.since': z.object({ afterSeq: z.number().int().min(0), limit: z.number().int().min(1).optional() }),
} as const

export type CommandName = keyof typeof CommandInputs
export type CommandInput<C extends CommandName> = z.input<(typeof CommandInputs)[C]>

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

export interface CommandOutputs {
  'app.info': AppInfo
  'targets.list': SavedTarget[]
  'targets.save': SavedTarget
  'targets.remove': { removed: boolean }
  'targets.import': ImportResult
  'connections.open': { connectionId: string }
  'connections.close': { closed: boolean }
  'connections.refresh': { ok: true }
  'connections.probe': { ok: boolean }
  'connections.setKeepalive': { intervalMs: number }
  'conversation.send': TurnResult
  'conversation.newContext': { ok: true }
  'tasks.get': { task: unknown; conversation: ConversationContext }
  'tasks.list': unknown[]
  'tasks.cancel': unknown
  'tasks.resubscribe': unknown
  'hooks.load': { source: string; kind: 'module' | 'declarative'; tools: string[] }
  'hooks.clear': { cleared: boolean }
  'tools.call': CallReport
  'recordings.list': RecordingInfo[]
  'recordings.start': { name: string }
  'recordings.stop': { name: string; lines: number }
  'recordings.rename': { name: string }
  'recordings.delete': { deleted: boolean }
  'recordings.import': { name: string; problems: { line: number; message: string }[] }
  'recordings.export': { text: string }
  'recordings.load': { header: unknown; problems: { line: number; message: string }[]; events: number; turns: { index: number; turn: TurnParity['turn'] }[] }
  'replay.start': { replayId: string; total: number }
  'replay.step': TurnParity | null
  'replay.run': ReplaySummary
  'replay.stop': { stopped: boolean }
  'frames.export': { text: string; bytes: number }
  'approvals.list': ApprovalRecord[]
  'approvals.grant': ApprovalRecord
  'approvals.revoke': { revoked: boolean }
  'profiles.list': (ClientProfile & { preset: boolean })[]
  'profiles.save': ClientProfile
  'profiles.remove': { removed: boolean }
  'compare.run': CompareResult
  'events.since': EngineEvent[]
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
    changed: { kind: string; name: string; breaking: boolean; frames: { a?: number; b?: number }; changes: { path: string; kind: string; breaking: boolean; detail: string }[] }[]
  }
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

/** Thrown (and carried across hosts) when a command's input does not match its schema. */
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
export function parseCommandInput<C extends CommandName>(command: C, input: unknown): z.output<(typeof CommandInputs)[C]> {
  const result = CommandInputs[command].safeParse(input ?? {})
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')
    throw new CommandError(`invalid input for ${command}: ${issues}`, 'invalid-input')
  }
  return result.data as z.output<(typeof CommandInputs)[C]>
}
