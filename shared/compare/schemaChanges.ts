/** One change to a tool's schema, classified for the clients that call it. */
export interface SchemaChange {
  path: string
  kind:
    | 'required-added'
    | 'required-removed'
    | 'property-added'
    | 'property-removed'
    | 'type-narrowed'
    | 'type-widened'
    | 'type-changed'
    | 'enum-narrowed'
    | 'enum-widened'
  breaking: boolean
  detail: string
}

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; enum?: unknown[]; items?: Schema }

const typesOf = (s: Schema | undefined): Set<string> => new Set(s?.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type])

/**
 * Compares an input schema as a caller sees it: a new required field, a removed field or a narrower
 * type breaks existing calls; a new optional field or a wider type does not. For an output schema the
 * caller reads the result, so a removed field breaks and a new one does not.
 */
export function schemaChanges(before: unknown, after: unknown, direction: 'input' | 'output', path = ''): SchemaChange[] {
  const a = (before ?? {}) as Schema
  const b = (after ?? {}) as Schema
  const changes: SchemaChange[] = []
  const add = (change: Omit<SchemaChange, 'breaking'>, breaking: boolean) => changes.push({ ...change, breaking })

  const ta = typesOf(a)
  const tb = typesOf(b)
  if (ta.size && tb.size && [...ta].join() !== [...tb].join()) {
    const narrowed = [...tb].every((t) => ta.has(t))
    const widened = [...ta].every((t) => tb.has(t))
    const kind = narrowed ? 'type-narrowed' : widened ? 'type-widened' : 'type-changed'
    add(
      { path: path || '/', kind, detail: `type ${[...ta].join('|')} → ${[...tb].join('|')}` },
      direction === 'input' ? !widened : !narrowed,
    )
  }
  if (a.enum || b.enum) {
    const ea = a.enum?.map((v) => JSON.stringify(v))
    const eb = b.enum?.map((v) => JSON.stringify(v))
    const lost = ea ? (eb ? ea.filter((v) => !eb.includes(v)) : []) : ['(any value)']
    const gained = eb ? (ea ? eb.filter((v) => !ea.includes(v)) : []) : ['(any value)']
    if (lost.length)
      add({ path: path || '/', kind: 'enum-narrowed', detail: `no longer accepts ${lost.join(', ')}` }, direction === 'input')
    if (gained.length) add({ path: path || '/', kind: 'enum-widened', detail: `now also ${gained.join(', ')}` }, direction === 'output')
  }

  const pa = a.properties ?? {}
  const pb = b.properties ?? {}
  const ra = new Set(a.required ?? [])
  const rb = new Set(b.required ?? [])
  for (const name of Object.keys(pb)) {
    const here = `${path}/${name}`
    if (!(name in pa)) {
      if (direction === 'input')
        add(
          {
            path: here,
            kind: rb.has(name) ? 'required-added' : 'property-added',
            detail: rb.has(name) ? 'new required field' : 'new optional field',
          },
          rb.has(name),
        )
      else add({ path: here, kind: 'property-added', detail: 'new field in the result' }, false)
    }
  }
  for (const name of Object.keys(pa)) {
    const here = `${path}/${name}`
    if (!(name in pb)) {
      add(
        {
          path: here,
          kind: 'property-removed',
          detail: direction === 'input' ? 'field removed: callers that send it are refused or ignored' : 'field removed from the result',
        },
        true,
      )
      continue
    }
    if (direction === 'input' && !ra.has(name) && rb.has(name))
      add({ path: here, kind: 'required-added', detail: 'an optional field became required' }, true)
    if (direction === 'input' && ra.has(name) && !rb.has(name))
      add({ path: here, kind: 'required-removed', detail: 'a required field became optional' }, false)
    changes.push(...schemaChanges(pa[name], pb[name], direction, here))
  }
  if (a.items || b.items) changes.push(...schemaChanges(a.items, b.items, direction, `${path}/items`))
  return changes
}
