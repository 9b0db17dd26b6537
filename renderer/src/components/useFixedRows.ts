import { useCallback, useLayoutEffect, useState, type RefObject } from 'react'
import { flushSync } from 'react-dom'

export type RowAlign = 'auto' | 'center' | 'end'

/**
 * A virtual list of rows of one height in the scrolling element `scroller`: the rows to render for its
 * scroll position (`index`, and `start`, the row's offset), the list's whole height, and a way to scroll
 * a row into view. Its work is proportional to the rows on screen whatever the count, so a list that
 * grows by a hundred thousand rows costs nothing more to render (a general virtualizer measures each row
 * again when the count changes).
 */
export function useFixedRows(scroller: RefObject<HTMLElement | null>, count: number, rowHeight: number, overscan = 8) {
  // The first row on screen and how many fit: a render happens only when these change.
  const [view, setView] = useState({ first: 0, fit: 0 })
  const read = useCallback(() => {
    const el = scroller.current
    if (!el) return
    const first = Math.floor(el.scrollTop / rowHeight)
    const fit = Math.ceil(el.clientHeight / rowHeight) + 1
    setView((v) => (v.first === first && v.fit === fit ? v : { first, fit }))
  }, [scroller, rowHeight])

  useLayoutEffect(() => {
    const el = scroller.current
    if (!el) return
    read()
    const onScroll = () => flushSync(read) // the rows follow the scroll within the same frame
    el.addEventListener('scroll', onScroll, { passive: true })
    const resized = new ResizeObserver(read)
    resized.observe(el)
    return () => {
      el.removeEventListener('scroll', onScroll)
      resized.disconnect()
    }
  }, [scroller, read])

  const rows: { index: number; start: number }[] = []
  for (let i = Math.max(0, view.first - overscan); i < Math.min(count, view.first + view.fit + overscan); i++)
    rows.push({ index: i, start: i * rowHeight })

  /** Scrolls so that row `index` shows: where it is when it already does (`auto`), at the bottom (`end`) or in the middle. */
  const scrollToIndex = useCallback(
    (index: number, align: RowAlign = 'auto') => {
      const el = scroller.current
      if (!el) return
      const top = index * rowHeight
      const bottom = top + rowHeight
      const height = el.clientHeight
      el.scrollTop =
        align === 'end'
          ? bottom - height
          : align === 'center'
            ? top - (height - rowHeight) / 2
            : top < el.scrollTop
              ? top
              : bottom > el.scrollTop + height
                ? bottom - height
                : el.scrollTop
      read()
    },
    [scroller, rowHeight, read],
  )

  return { rows, totalSize: count * rowHeight, scrollToIndex }
}
