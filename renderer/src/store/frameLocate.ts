import type { FrameList } from './rowLists'
import { useStore } from './store'

/**
 * The position of the frame numbered `seq` among a connection's frames: from the frames held when they say,
 * else from the engine (`frames.locate`); undefined when the connection has no such frame (or the engine
 * cannot be asked).
 */
export async function locateFrame(frames: FrameList, seq: number): Promise<number | undefined> {
  const [position] = await locateFrames(frames, [seq])
  if (position === undefined || position >= frames.length) return undefined
  await frames.want(position, position + 1)
  return frames.at(position)?.seq === seq ? position : undefined
}

/** For each seq, the position of the first frame numbered `seq` or later (the count when none is), as `FrameList.locate` says it. */
export async function locateFrames(frames: FrameList, seqs: number[]): Promise<(number | undefined)[]> {
  const known = seqs.map((seq) => frames.locate(seq))
  if (known.every((p) => p !== undefined)) return known
  const api = useStore.getState().api
  if (!api) return known
  try {
    const { positions } = await api.invoke('frames.locate', { connectionId: frames.connectionId, seqs })
    return positions.map((p) => Math.min(p, frames.length))
  } catch {
    return known
  }
}
