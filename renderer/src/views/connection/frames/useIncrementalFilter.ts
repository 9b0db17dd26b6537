import { useRef } from 'react'

/**
 * Positions of the items of `list` that match `predicate` (given a position), kept across renders: while
 * `key` (the filter) stays the same, only items appended since the last render are examined, so a growing
 * list costs O(new items). With `positions`, a new key examines only those (the items held of a long
 * session's list), then items appended. The returned array is the same instance while it grows; use `length`
 * to notice changes. Without a predicate (nothing is filtered), nothing is examined.
 */
export function useIncrementalFilter(
  list: { readonly length: number },
  key: string,
  predicate: ((index: number) => boolean) | undefined,
  positions?: () => Iterable<number>,
): number[] {
  const cache = useRef<{ list: object; key: string; scanned: number; indices: number[] }>(undefined)
  if (!predicate) {
    cache.current = undefined
    return NONE
  }
  let c = cache.current
  if (!c || c.list !== list || c.key !== key || c.scanned > list.length) {
    c = cache.current = { list, key, scanned: 0, indices: [] }
    if (positions) {
      for (const i of positions()) if (predicate(i)) c.indices.push(i)
      c.scanned = list.length
    }
  }
  for (let i = c.scanned; i < list.length; i++) if (predicate(i)) c.indices.push(i)
  c.scanned = list.length
  return c.indices
}

const NONE: number[] = []
