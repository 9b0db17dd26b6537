import microdiff from 'microdiff'

export interface ArgumentChange {
  /** JSON Pointer of the changed value. */
  path: string
  op: 'add' | 'remove' | 'replace'
  from?: unknown
  to?: unknown
}

/** What a hook changed: a structural diff of the raw and hooked arguments. */
export function diffArguments(raw: object, hooked: object): ArgumentChange[] {
  return microdiff(raw as Record<string, unknown>, hooked as Record<string, unknown>).map((d) => {
    const path = `/${d.path.map((k) => String(k).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`
    if (d.type === 'CREATE') return { path, op: 'add', to: d.value }
    if (d.type === 'REMOVE') return { path, op: 'remove', from: d.oldValue }
    return { path, op: 'replace', from: d.oldValue, to: d.value }
  })
}
