import microdiff from 'microdiff'

/** One change between two JSON values, at a JSON Pointer: what was there (`from`) and what is there now (`to`). */
export interface JsonChange {
  path: string
  op: 'add' | 'remove' | 'replace'
  from?: unknown
  to?: unknown
}

/** A structural diff of two JSON objects, one change per JSON Pointer. */
export function jsonDiff(before: object, after: object): JsonChange[] {
  return microdiff(before as Record<string, unknown>, after as Record<string, unknown>).map((d) => {
    const path = `/${d.path.map((k) => String(k).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`
    if (d.type === 'CREATE') return { path, op: 'add', to: d.value }
    if (d.type === 'REMOVE') return { path, op: 'remove', from: d.oldValue }
    return { path, op: 'replace', from: d.oldValue, to: d.value }
  })
}
