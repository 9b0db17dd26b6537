import { useRef } from 'react'

/**
 * Indices of the items that match `predicate`, kept across renders: while `key` (the filter) stays the
 * same, only items appended since the last render are examined, so a growing list costs O(new items).
 * The returned array is the same instance while it grows; use `length` to notice changes.
 */
export function useIncrementalFilter<T>(items: readonly T[], key: string, predicate: ((item: T) => boolean) | undefined): number[] {
  const cache = useRef<{ items: readonly T[]; key: string; scanned: number; indices: number[] }>(undefined)
  let c = cache.current
  if (!c || c.items !== items || c.key !== key || c.scanned > items.length) {
    c = cache.current = { items, key, scanned: 0, indices: [] }
  }
  for (let i = c.scanned; i < items.length; i++) if (!predicate || predicate(items[i])) c.indices.push(i)
  c.scanned = items.length
  return c.indices
}
