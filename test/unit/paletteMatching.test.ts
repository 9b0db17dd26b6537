import { describe, expect, it } from 'vitest'
import { fuzzyMatch } from '../../renderer/src/shell/fuzzyMatch'

describe('the command palette matches fuzzily', () => {
  it('finds letters in order, prefers word starts and runs, and says where', () => {
    expect(fuzzyMatch('sbs', 'Side by side')?.at).toEqual([0, 5, 8])
    expect(fuzzyMatch('rec', 'Record this connection')?.at).toEqual([0, 1, 2])
    expect(fuzzyMatch('xyz', 'Side by side')).toBeUndefined()
    // A later word start is taken only when the rest still fits after it.
    expect(fuzzyMatch('abc', 'axb c b')?.at).toEqual([0, 2, 4])
    const run = fuzzyMatch('frames', 'Frames')!.score
    const scattered = fuzzyMatch('frames', 'Refresh: run discovery again, with all frames')!.score
    expect(run).toBeGreaterThan(scattered)
    expect(fuzzyMatch('', 'anything')).toEqual({ score: 0, at: [] })
  })
})
