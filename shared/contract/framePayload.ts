import type { EngineEvent, FrameEvent } from './events'

/**
 * What of a frame travels to a UI with its event. A long session's backlog is mostly payloads nobody
 * opens, so a UI gets whole only what it folds into its views (notifications: progress, updates,
 * cancels; the log level agreed) and frames too small to matter; any other payload comes when its frame
 * is opened or copied (`frames.payloads`). Recordings, the CLI and the command API keep every payload.
 */
export const INLINE_PAYLOAD_BYTES = 512

export function payloadTravels(frame: FrameEvent): boolean {
  return frame.kind === 'notification' || frame.bytes <= INLINE_PAYLOAD_BYTES || frame.method === 'logging/setLevel'
}

/** The event as a UI receives it: a frame whose payload stays behind says so (`deferred`). */
export function forUi(event: EngineEvent): EngineEvent {
  if (event.type !== 'frame' || payloadTravels(event)) return event
  return { ...event, payload: undefined, deferred: true }
}
