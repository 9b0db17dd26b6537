import { describe, expect, it } from 'vitest'
import { duration } from '../../renderer/src/components/format'

describe('durations read as the user set them', () => {
  it('never "2000 ms" for 2 seconds', () => {
    expect([300, 1000, 1500, 2000, 15_000, 60_000, 90_000, 3_600_000].map(duration)).toEqual([
      '300 ms',
      '1 s',
      '1.5 s',
      '2 s',
      '15 s',
      '1 min',
      '1 min 30 s',
      '60 min',
    ])
  })
})
