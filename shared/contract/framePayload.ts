import type { EngineEvent, FrameEvent } from './events'

/**
 * What of a frame travels to a UI with its event. A long session's backlog is mostly payloads nobody
 * opens, so a UI gets whole only what it folds into its views (`payloadFolded`) and, live, any
 * notification and frames too small to matter; any other payload comes when its frame is opened or
 * copied (`frames.payloads`). A backlog (`backlog.ts`) carries only the payloads a UI folds.
 * Recordings, the CLI and the command API keep every payload.
 */
export const INLINE_PAYLOAD_BYTES = 512

/** Notifications whose payload the UI folds: a request's progress, a cancel, a resource updated (renderer/src/store/requests.ts). */
const FOLDED_NOTIFICATIONS = new Set(['notifications/progress', 'notifications/cancelled', 'notifications/resources/updated'])

/** Whether the UI folds the frame's payload into its views (a notification above, or the log level asked for). */
export function payloadFolded(frame: FrameEvent): boolean {
  return frame.method === 'logging/setLevel' || (frame.kind === 'notification' && FOLDED_NOTIFICATIONS.has(frame.method ?? ''))
}

/** Whether a live frame's payload travels with its event. */
export function payloadTravels(frame: FrameEvent): boolean {
  return frame.kind === 'notification' || frame.bytes <= INLINE_PAYLOAD_BYTES || payloadFolded(frame)
}

/** The event as a UI receives it live: a frame whose payload stays behind says so (`deferred`). */
export function forUi(event: EngineEvent): EngineEvent {
  if (event.type !== 'frame' || payloadTravels(event)) return event
  return { ...event, payload: undefined, deferred: true }
}
