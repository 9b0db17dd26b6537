import { useEffect, useMemo, useSyncExternalStore } from 'react'
import { filtersNothing, framesFilterTest, type FramesFilter } from '../../../../../shared/contract'
import { FoundFrames, sortedIndexOf } from '../../../store/foundFrames'
import type { Frames } from '../../../store/rowLists'
import { useStore } from '../../../store/store'
import { useIncrementalFilter } from './useIncrementalFilter'

/** What the Frames list shows, in order: the k-th row shown is the frame at `positionAt(k)`. */
export interface ShownFrames {
  count: number
  /** The engine is still counting what the filter lets through. */
  counting: boolean
  /** The position of the k-th row, or undefined while it is not known yet (a placeholder shows). */
  positionAt(rank: number): number | undefined
  /** The row a position is shown at, or -1 (filtered out, or not known yet). */
  rankOf(position: number): number
  /** Rows `from` to `to - 1` are on screen: fetch what they need. */
  want(from: number, to: number): void
  /** The positions of every row shown (for copying them). */
  allPositions(): Promise<number[]>
  /** Why the engine could not filter, if it could not. */
  error?: string
}

/**
 * The rows of `frames` the filter lets through. Unfiltered, every position in order (nothing is listed: a
 * session of millions costs nothing). Filtered, when every frame is held (a short session), the filter runs
 * here over the frames as they come; else the engine filters every frame it has and the frames that come after
 * are judged here (store/foundFrames.ts).
 */
export function useShownFrames(frames: Frames, filter: FramesFilter): ShownFrames {
  const everything = filtersNothing(filter)
  const whole = frames.first === 0 && frames.length === frames.list.length
  const inEngine = !everything && whole && !frames.complete
  const key = JSON.stringify(filter)
  const found = useMemo(() => {
    const api = useStore.getState().api
    return inEngine && api ? new FoundFrames(api, frames.list, filter) : undefined
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new search for a new filter (`key`) on another list
  }, [inEngine, frames.list, key])
  useSyncExternalStore(found?.subscribe ?? noSubscription, () => found?.changes ?? 0)
  useEffect(() => {
    // A window of a connection's frames (a turn's) is filtered here: its frames are fetched first.
    if (!everything && !whole && !frames.complete) void frames.want(0, frames.length)
  }, [everything, whole, frames, frames.length])

  const test = useMemo(() => framesFilterTest(filter), [key]) // eslint-disable-line react-hooks/exhaustive-deps -- the filter's value
  const indices = useIncrementalFilter(
    frames,
    `${key}|${everything || inEngine}|${frames.complete}`,
    everything || inEngine
      ? undefined
      : (i) => {
          const frame = frames.at(i)
          return frame !== undefined && test(frame)
        },
  )

  if (everything)
    return {
      count: frames.length,
      counting: false,
      positionAt: (rank) => rank,
      rankOf: (position) => position,
      want: (from, to) => void frames.want(from, to),
      allPositions: async () => Array.from({ length: frames.length }, (_, i) => i),
    }
  if (found) {
    found.update()
    return {
      count: found.count,
      counting: found.total === undefined,
      positionAt: (rank) => found.positionAt(rank),
      rankOf: (position) => found.rankOf(position),
      want: (from, to) => found.want(from, to),
      allPositions: () => found.allPositions(),
      ...(found.error !== undefined && { error: found.error }),
    }
  }
  return {
    count: indices.length,
    counting: !whole && !frames.complete,
    positionAt: (rank) => indices[rank],
    rankOf: (position) => sortedIndexOf(indices, position),
    want: () => {},
    allPositions: async () => indices.slice(),
  }
}

const noSubscription = () => () => {}
