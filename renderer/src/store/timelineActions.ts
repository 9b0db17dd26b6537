import { openTab } from './actions'
import { useStore, type TimeRange } from './store'

// What the Timeline changes: the range it shows, the range brushed (which Frames, Log and Conversation then
// show), the frame Frames selected (marked on the axis), the spans a latency bucket picked out.

/** Shows `window` on a connection's Timeline; none: the whole session. */
export function showTimeWindow(connectionId: string, window: TimeRange | undefined): void {
  useStore.setState((s) => {
    const windows = { ...s.timelineWindows }
    if (window) windows[connectionId] = window
    else delete windows[connectionId]
    return { timelineWindows: windows }
  })
}

/** Opens the Timeline on the range around `ts` (from the strip above every tab), keeping how wide it shows. */
export function jumpTimeline(connectionId: string, ts: number, extent: TimeRange): void {
  const current = useStore.getState().timelineWindows[connectionId]
  const width = current ? current.to - current.from : (extent.to - extent.from) / 10
  showTimeWindow(connectionId, { from: ts - width / 2, to: ts + width / 2 })
  openTab('timeline')
}

/** Brushes a range: the linked views show only what falls in it. None clears it. */
export function brushTimeRange(connectionId: string, range: TimeRange | undefined): void {
  useStore.setState((s) => {
    const ranges = { ...s.timeRanges }
    if (range) ranges[connectionId] = { from: Math.min(range.from, range.to), to: Math.max(range.from, range.to) }
    else delete ranges[connectionId]
    return { timeRanges: ranges }
  })
}

/** Frames selected a frame: the Timeline marks where it sits. */
export function noteFrameOnAxis(connectionId: string, frame: { seq: number; ts: number } | undefined): void {
  const current = useStore.getState().framesOnAxis[connectionId]
  if (current?.seq === frame?.seq) return
  useStore.setState((s) => {
    const marks = { ...s.framesOnAxis }
    if (frame) marks[connectionId] = { seq: frame.seq, ts: frame.ts }
    else delete marks[connectionId]
    return { framesOnAxis: marks }
  })
}

/** Picks out the spans of one latency bucket (none: clears it). */
export function highlightSpans(highlight: NonNullable<ReturnType<typeof useStore.getState>['timelineHighlight']> | undefined): void {
  useStore.setState({ timelineHighlight: highlight })
}
