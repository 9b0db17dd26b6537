import type { CommandInput, CommandName, CommandOutput } from './commands'
import type { EngineEvent } from './events'

/**
 * The one API between UI and engine. The Electron preload and the web host's WebSocket client are
 * two implementations of it; the UI never knows which one it has.
 */
export interface ParallaxApi {
  invoke<C extends CommandName>(command: C, input: CommandInput<C>): Promise<CommandOutput<C>>
  /** Events arrive in batches (at most one per animation frame's worth of time). Returns an unsubscribe. */
  onEvents(listener: (events: EngineEvent[]) => void): () => void
}

/** Electron IPC channels: one for commands, one for the event stream. */
export const IpcChannels = {
  invoke: 'parallax:invoke',
  events: 'parallax:events',
} as const

/** A command's answer as both hosts carry it: its result, or the engine's error with its code and details. */
export type CommandReply = { ok: true; result: unknown } | { ok: false; error: { message: string; code: string; details?: unknown } }

/** Web host wire messages (JSON over one WebSocket). */
export type ClientMessage = { id: number; command: string; input: unknown }
export type ServerMessage = ({ id: number } & CommandReply) | { events: EngineEvent[] }

/** A failed command as a host's client sees it: the engine's code (e.g. `approval-required`) and details survive the trip. */
export class EngineCommandError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly details?: unknown,
  ) {
    super(message)
    this.name = 'EngineCommandError'
  }
}

/** The result of a reply, or its error thrown. */
export function unwrapReply(reply: CommandReply): unknown {
  if (reply.ok) return reply.result
  throw new EngineCommandError(reply.error.message, reply.error.code, reply.error.details)
}
