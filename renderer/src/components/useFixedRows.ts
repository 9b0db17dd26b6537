import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react'
import { flushSync } from 'react-dom'

export type RowAlign = 'auto' | 'center' | 'end'

/**
 * How tall a list's scrolled content may be. Browsers cap an element's height (Chromium near 33.5 million
 * pixels, a million and a quarter rows of 26 px); a longer list is drawn in this height, its scroll position
 * scaled to the rows (see `listOffset`).
 */
export const MAX_SCROLL_HEIGHT = 16_000_000

/**
 * Where a list of `count` rows of `rowHeight` stands when its scroller is at `scrollTop`: the content's height
 * (at most MAX_SCROLL_HEIGHT), and `offset`, how far down the rows the view's top is. Below the cap the two
 * are the same pixels; above it, the scroller's range maps onto the rows' whole range, its ends on their ends.
 */
export function listOffset(
  scrollTop: number,
  clientHeight: number,
  count: number,
  rowHeight: number,
): { height: number; offset: number; scale: number } {
  const whole = count * rowHeight
  if (whole <= MAX_SCROLL_HEIGHT) return { height: whole, offset: scrollTop, scale: 1 }
  const scale = Math.max(1, (whole - clientHeight) / Math.max(1, MAX_SCROLL_HEIGHT - clientHeight))
  return { height: MAX_SCROLL_HEIGHT, offset: Math.min(whole - clientHeight, Math.max(0, scrollTop * scale)), scale }
}

/**
 * A virtual list of rows of one height in the scrolling element `scroller`: the rows to render for its
 * scroll position (`index`, and `start`, the row's offset in the content), the content's height, and a way to
 * scroll a row into view. Its work is proportional to the rows on screen whatever the count, so a list that
 * grows by a hundred thousand rows costs nothing more to render (a general virtualizer measures each row
 * again when the count changes). A list of millions of rows scrolls in a content of bounded height: the wheel
 * and the keys move it row by row as any list, the scrollbar across the whole.
 */
export function useFixedRows(scroller: RefObject<HTMLElement | null>, count: number, rowHeight: number, overscan = 8) {
  // How far down the rows the view's top is, as set by the wheel or a scroll to a row (the scroller's own
  // position, a whole pixel, cannot say it finer than the scale when the list is scaled).
  const exact = useRef<{ offset: number; scrollTop: number } | undefined>(undefined)
  const counted = useRef(count)
  counted.current = count
  // What was read of the scroller: a render happens only when the first row, the fit or (scaled) the offset change.
  const [view, setView] = useState({ first: 0, fit: 0, offset: 0, scrollTop: 0 })
  const read = useCallback(() => {
    const el = scroller.current
    if (!el) return
    const placed = listOffset(el.scrollTop, el.clientHeight, counted.current, rowHeight)
    const known = exact.current
    const offset = placed.scale > 1 && known && Math.abs(known.scrollTop - el.scrollTop) < 1 ? known.offset : placed.offset
    if (!known || Math.abs(known.scrollTop - el.scrollTop) >= 1) exact.current = undefined
    const first = Math.floor(offset / rowHeight)
    const fit = Math.ceil(el.clientHeight / rowHeight) + 1
    const scaled = placed.scale > 1
    setView((v) =>
      v.first === first && v.fit === fit && (!scaled || (v.offset === offset && v.scrollTop === el.scrollTop))
        ? v
        : { first, fit, offset: scaled ? offset : 0, scrollTop: scaled ? el.scrollTop : 0 },
    )
  }, [scroller, rowHeight])

  /** Moves the view's top to `offset` (clamped) down the rows. */
  const moveTo = useCallback(
    (offset: number) => {
      const el = scroller.current
      if (!el) return
      const whole = counted.current * rowHeight
      const target = Math.max(0, Math.min(whole - el.clientHeight, offset))
      const { scale } = listOffset(0, el.clientHeight, counted.current, rowHeight)
      el.scrollTop = target / scale
      exact.current = scale > 1 ? { offset: target, scrollTop: el.scrollTop } : undefined
      read()
    },
    [scroller, rowHeight, read],
  )

  useLayoutEffect(() => {
    const el = scroller.current
    if (!el) return
    read()
    const onScroll = () => flushSync(read) // the rows follow the scroll within the same frame
    // A scaled list: the wheel moves it by the rows' pixels, not the scroller's (each of which may be many rows).
    const onWheel = (e: WheelEvent) => {
      const { scale, offset } = listOffset(el.scrollTop, el.clientHeight, counted.current, rowHeight)
      if (scale <= 1 || e.ctrlKey) return
      e.preventDefault()
      const lines = e.deltaMode === 1 ? rowHeight : e.deltaMode === 2 ? el.clientHeight : 1
      const from = exact.current && Math.abs(exact.current.scrollTop - el.scrollTop) < 1 ? exact.current.offset : offset
      flushSync(() => moveTo(from + e.deltaY * lines))
    }
    el.addEventListener('scroll', onScroll, { passive: true })
    el.addEventListener('wheel', onWheel, { passive: false })
    const resized = new ResizeObserver(read)
    resized.observe(el)
    return () => {
      el.removeEventListener('scroll', onScroll)
      el.removeEventListener('wheel', onWheel)
      resized.disconnect()
    }
  }, [scroller, read, moveTo, rowHeight])

  const { height, scale } = listOffset(0, 1, count, rowHeight)
  const scaled = scale > 1
  const rows: { index: number; start: number }[] = []
  for (let i = Math.max(0, view.first - overscan); i < Math.min(count, view.first + view.fit + overscan); i++)
    rows.push({ index: i, start: scaled ? view.scrollTop + i * rowHeight - view.offset : i * rowHeight })

  /** Scrolls so that row `index` shows: where it is when it already does (`auto`), at the bottom (`end`) or in the middle. */
  const scrollToIndex = useCallback(
    (index: number, align: RowAlign = 'auto') => {
      const el = scroller.current
      if (!el) return
      const placed = listOffset(el.scrollTop, el.clientHeight, counted.current, rowHeight)
      const now =
        placed.scale > 1 && exact.current && Math.abs(exact.current.scrollTop - el.scrollTop) < 1 ? exact.current.offset : placed.offset
      const top = index * rowHeight
      const bottom = top + rowHeight
      const shown = el.clientHeight
      moveTo(
        align === 'end'
          ? bottom - shown
          : align === 'center'
            ? top - (shown - rowHeight) / 2
            : top < now
              ? top
              : bottom > now + shown
                ? bottom - shown
                : now,
      )
    },
    [scroller, rowHeight, moveTo],
  )

  return { rows, totalSize: height, scrollToIndex }
}
