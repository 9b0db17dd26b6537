import { useLayoutEffect, useState, type RefObject } from 'react'

/** An element's width in whole pixels, kept as it resizes (a canvas draws to it). */
export function useWidth(box: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0)
  useLayoutEffect(() => {
    const element = box.current
    if (!element) return
    const read = () => setWidth(Math.floor(element.clientWidth))
    read()
    const observer = new ResizeObserver(read)
    observer.observe(element)
    return () => observer.disconnect()
  }, [box])
  return width
}
