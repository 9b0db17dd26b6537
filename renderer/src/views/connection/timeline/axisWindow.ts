import type { Window } from './timelineFetch'

/** The narrowest range the axis zooms to (ms): a microsecond's detail across the width. */
export const NARROWEST = 0.05

/** The range that shows a whole session, with a little room at both ends (a session of one instant gets a millisecond). */
export function fitWindow(extent: { start: number; end: number }): Window {
  const span = Math.max(extent.end - extent.start, 1)
  const room = span * 0.02
  return { from: extent.start - room, to: extent.end + room }
}

/** The range zoomed by `factor` (below 1: in) about the time `at`, which stays where it is on screen. */
export function zoomAt(window: Window, factor: number, at: number, extent: { start: number; end: number }): Window {
  const span = window.to - window.from
  const widest = Math.max(extent.end - extent.start, 1) * 4
  const next = Math.min(Math.max(span * factor, NARROWEST), widest)
  const ratio = (at - window.from) / span
  return { from: at - ratio * next, to: at - ratio * next + next }
}

/** The range moved by `by` ms, never so far that the session leaves the screen. */
export function panBy(window: Window, by: number, extent: { start: number; end: number }): Window {
  const span = window.to - window.from
  const from = Math.min(Math.max(window.from + by, extent.start - span * 0.9), extent.end - span * 0.1)
  return { from, to: from + span }
}

/** The union of several sessions' extents (one axis for them all). */
export function unionExtent(extents: ({ start: number; end: number } | undefined)[]): { start: number; end: number } | undefined {
  const known = extents.filter((e): e is { start: number; end: number } => e !== undefined)
  if (known.length === 0) return undefined
  return { start: Math.min(...known.map((e) => e.start)), end: Math.max(...known.map((e) => e.end)) }
}
