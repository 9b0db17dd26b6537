import type { CompareResult } from './commands'

/** Where a catalog entry stands between the two sides of a compare. */
export type CatalogStatus = 'same' | 'only in A' | 'only in B' | 'changed'

/** One entry of a compared catalog, whatever its status: a row of the Compare table and of its report. */
export interface CatalogRow {
  status: CatalogStatus
  kind: string
  name: string
  frames: { a?: number; b?: number }
  /** Changed entries: whether any change breaks a client, and each change. */
  breaking?: boolean
  changes?: CompareResult['catalog']['changed'][number]['changes']
}

/**
 * Every entry of a compared catalog as one list, sorted by kind then name (the same order on every
 * machine): same, only in A (`removed`), only in B (`added`) or changed.
 */
export function catalogRows(catalog: CompareResult['catalog']): CatalogRow[] {
  const rows: CatalogRow[] = [
    ...catalog.same.map((x) => ({ ...x, status: 'same' as const })),
    ...catalog.removed.map((x) => ({ ...x, status: 'only in A' as const })),
    ...catalog.added.map((x) => ({ ...x, status: 'only in B' as const })),
    ...catalog.changed.map((x) => ({ ...x, status: 'changed' as const })),
  ]
  const order = (s: string, t: string) => (s < t ? -1 : s > t ? 1 : 0)
  return rows.sort((x, y) => order(x.kind, y.kind) || order(x.name, y.name))
}

/** "N same, N only in A, N only in B, N changed": a compared catalog in one line. */
export function catalogCounts(catalog: CompareResult['catalog']): string {
  return `${catalog.same.length} same, ${catalog.removed.length} only in A, ${catalog.added.length} only in B, ${catalog.changed.length} changed`
}
