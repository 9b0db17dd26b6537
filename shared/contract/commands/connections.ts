import { z } from 'zod'
import type { ApprovalRequest } from '../approvals'
import type { SkillLoad } from '../skills'
import { LOG_LEVELS, type ConnectionState, type FailureCause, type LogLevel } from '../events'
import { ConnectionOptions } from '../targets'
import { ConnectionRef, oneTarget, ONE_TARGET, ProfileRef, targetRefShape } from './refs'

/** Connections: opened (to a saved or an unsaved target, under a profile), awaited, closed, refreshed, probed; any request sent on one, and cancelled. */
export const connectionInputs = {
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
  /** Stops waiting for a request of the user's (by its JSON-RPC id) and tells the server (`notifications/cancelled`). */
  'connections.cancel': ConnectionRef.extend({
    requestId: z.union([z.string().min(1).max(200), z.number().int()]),
    reason: z.string().max(500).optional(),
  }),
  /** Loads a listed skill (MCP skills extension, SEP-2640): reads its files, each checked against its entry (./skills.ts). */
  'connections.loadSkill': ConnectionRef.extend({ uri: z.string().min(1).max(4096) }),
} as const

export interface ConnectionOutputs {
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
  'connections.loadSkill': SkillLoad
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
