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

/** Web host wire messages (JSON over one WebSocket). */
export type ClientMessage = { id: number; command: string; input: unknown }
export type ServerMessage =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { message: string; code: string; details?: unknown } }
  | { events: EngineEvent[] }
