import { describe, expect, it } from 'vitest'
import { listOffset, MAX_SCROLL_HEIGHT } from '../../renderer/src/components/useFixedRows'

// A list of rows of one height scrolls any count of them: past the height a browser lets an element have, the
// scroller's range is mapped onto the rows' whole range, its top on the first row and its bottom on the last.
const ROW = 26

describe('a virtual list’s scroll position', () => {
  it('is the rows’ own pixels while the list fits a browser’s height', () => {
    const rows = Math.floor(MAX_SCROLL_HEIGHT / ROW)
    expect(listOffset(1234, 600, rows, ROW)).toEqual({ height: rows * ROW, offset: 1234, scale: 1 })
    expect(listOffset(0, 600, 10, ROW)).toEqual({ height: 260, offset: 0, scale: 1 })
  })

  it('maps the scroller onto every row of ten million, ends on ends, within a height a browser allows', () => {
    const rows = 10_000_000
    const view = 600
    const top = listOffset(0, view, rows, ROW)
    expect(top.height).toBe(MAX_SCROLL_HEIGHT)
    expect(top.offset).toBe(0)
    const bottom = listOffset(MAX_SCROLL_HEIGHT - view, view, rows, ROW)
    expect(bottom.offset).toBeCloseTo(rows * ROW - view, 3) // the last row shows at the bottom
    const middle = listOffset((MAX_SCROLL_HEIGHT - view) / 2, view, rows, ROW)
    expect(Math.floor(middle.offset / ROW)).toBe(Math.floor((rows * ROW - view) / 2 / ROW))
    // One pixel of the scroller is some rows: the wheel and the keys move by the rows' pixels instead (useFixedRows).
    expect(top.scale).toBeGreaterThan(16)
  })
})
