import { z } from 'zod'
import type { FrameEvent } from './events'

/** What the Frames view shows of a connection's frames: the engine filters a long session with it, the UI the frames that come live. */
export const FramesFilter = z.object({
  /** Words a frame's method or subject must match; `-word` leaves those out. */
  text: z.string().max(1000),
  direction: z.enum(['', 'out', 'in']),
  kind: z.string().max(40),
  hideProbes: z.boolean(),
  /** Whose messages: the server's wire, or those between an MCP App view and Parallax. */
  wire: z.enum(['', 'server', 'view']),
  /** A range of time (epoch ms, both ends included), brushed on the Timeline. */
  from: z.number().optional(),
  to: z.number().optional(),
})
export type FramesFilter = z.infer<typeof FramesFilter>

export const NO_FRAMES_FILTER: FramesFilter = { text: '', direction: '', kind: '', hideProbes: false, wire: '' }

/** Whether a filter leaves every frame in. */
export function filtersNothing({ text, direction, kind, hideProbes, wire, from, to }: FramesFilter): boolean {
  return !text.trim() && !direction && !kind && !hideProbes && !wire && from === undefined && to === undefined
}

/** What the filter reads of a frame (its time when it has a range: the engine judges a stored frame's time by its position). */
export type FilteredFields = Pick<FrameEvent, 'direction' | 'kind' | 'protocol' | 'method' | 'subject' | 'probe'> & { ts?: number }

/**
 * The filter as a test: direction, kind, probes, whose wire, the time range (of a frame that says its time), and the text — its words match a frame's method or
 * subject (any of them), `-word` excludes frames whose method or subject contains it. Most frames have a method
 * and no subject, and few methods recur: their answer is remembered per method.
 */
export function framesFilterTest(filter: FramesFilter): (frame: FilteredFields) => boolean {
  const { direction, kind, hideProbes, wire, from, to } = filter
  const words = filter.text.trim().toLowerCase().split(/\s+/).filter(Boolean)
  const include = words.filter((w) => !w.startsWith('-'))
  const exclude = words.filter((w) => w.startsWith('-') && w.length > 1).map((w) => w.slice(1))
  const matchesText = (method: string | undefined, subject: string | undefined) => {
    const text = `${method ?? ''} ${subject ?? ''}`.toLowerCase()
    return (include.length === 0 || include.some((w) => text.includes(w))) && !exclude.some((w) => text.includes(w))
  }
  const byMethod = new Map<string | undefined, boolean>()
  const matches = (method: string | undefined, subject: string | undefined) => {
    if (subject !== undefined) return matchesText(method, subject)
    let answer = byMethod.get(method)
    if (answer === undefined) byMethod.set(method, (answer = matchesText(method, undefined)))
    return answer
  }
  return (frame) =>
    (!direction || frame.direction === direction) &&
    (!kind || frame.kind === kind) &&
    !(hideProbes && frame.probe) &&
    (!wire || (wire === 'view') === (frame.protocol === 'mcp-app')) &&
    (frame.ts === undefined || ((from === undefined || frame.ts >= from) && (to === undefined || frame.ts <= to))) &&
    matches(frame.method, frame.subject)
}
