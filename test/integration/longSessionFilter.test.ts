import { afterEach, describe, expect, it } from 'vitest'
import { decodeBacklog, NO_FRAMES_FILTER, type FrameEvent, type ParallaxApi } from '../../shared/contract'
import { Engine } from '../../shared/engine/engine'
import { FoundFrames } from '../../renderer/src/store/foundFrames'
import { FrameList } from '../../renderer/src/store/rowLists'
import { frameInput } from '../fixtures/events'

// The Frames filter on a session the page does not hold whole: the engine counts and finds the matches among
// every frame it has, a page of them as the list shows them; the frames that come after are judged in the page
// with the same test; together they are one list of matches, in order.

const C = 'flood#1'
let engine: Engine | undefined
afterEach(async () => {
  await engine?.dispose()
  engine = undefined
})

/** The UI's view of the engine: its commands, as a host carries them. */
const apiOf = (e: Engine): ParallaxApi => ({
  invoke: (command, input) => e.invoke(command, input),
  onEvents: () => () => {},
})

/** Resolves once `found` has changed (an answer of the engine came). */
const changed = (found: FoundFrames) => new Promise<void>((resolve) => found.subscribe(resolve))

describe('the Frames filter on a long session', () => {
  it('counts matches among every frame in the engine, shows them a page at a time, and judges the frames that come after', async () => {
    engine = new Engine({ host: 'web' })
    const emit = (method: string) => engine!.events.emit(frameInput({ connectionId: C, method, payload: {} })) as FrameEvent
    for (let i = 0; i < 10_000; i++) emit(i % 100 === 50 ? 'tools/list' : 'notifications/message')
    // The page as a UI opens on it: the count, and the latest rows only.
    const frames = new FrameList(C)
    const page = decodeBacklog(engine.events.backlog(0))
    frames.setLength(page.lists![C].frames)
    for (let row = 0; row < page.frames.seq.length; row++) frames.putRow(page.lists![C].framesFrom! + row, page.frames, row)
    expect(frames.complete).toBe(false)

    const found = new FoundFrames(apiOf(engine), frames, { ...NO_FRAMES_FILTER, text: 'tools/list' })
    await changed(found)
    expect([found.total, found.count]).toEqual([100, 100])
    // The first page came with its frames, which the list now holds where they are.
    expect([found.positionAt(0), found.positionAt(99), found.rankOf(150), found.rankOf(151)]).toEqual([50, 9950, 1, -1])
    expect(frames.at(150)).toMatchObject({ method: 'tools/list' })

    // Frames that come live are judged here, and follow the engine's matches in rank.
    for (const method of ['tools/list', 'ping', 'tools/list']) frames.push(emit(method))
    found.update()
    expect(found.count).toBe(102)
    expect([found.positionAt(100), found.positionAt(101), found.rankOf(10_002)]).toEqual([10_000, 10_002, 101])

    // Many more, faster than the page judges them (it let them go): the engine is asked to count again.
    for (let i = 0; i < 60_000; i++) frames.push(emit(i % 1000 === 0 ? 'tools/list' : 'notifications/message'))
    expect(frames.at(10_003)).toBeUndefined()
    const recounted = changed(found)
    found.update()
    await recounted
    found.update()
    expect(found.count).toBe(102 + 60)
    expect(found.positionAt(161)).toBeUndefined() // not known here: its page is asked for when shown
    const shown = changed(found)
    found.want(150, 162)
    await shown
    expect(found.positionAt(161)).toBe(10_003 + 59_000)
    expect(frames.at(10_003 + 59_000)).toMatchObject({ method: 'tools/list' })
  })
})
