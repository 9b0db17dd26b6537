/** A form generated from a tool's input schema: one field per top-level property. */
export interface PropertySchema {
  type?: string | string[]
  enum?: unknown[]
  description?: string
}

export function SchemaForm({
  schema,
  value,
  onChange,
}: {
  schema: { properties?: Record<string, PropertySchema>; required?: string[] } | undefined
  value: Record<string, unknown>
  onChange: (value: Record<string, unknown>) => void
}) {
  const properties = Object.entries(schema?.properties ?? {})
  if (properties.length === 0) return <div className="muted">No input schema: use the JSON editor.</div>
  const required = new Set(schema?.required ?? [])
  const set = (name: string, v: unknown) => {
    const next = { ...value }
    if (v === undefined || v === '') delete next[name]
    else next[name] = v
    onChange(next)
  }
  return (
    <div className="form schema-form">
      {properties.map(([name, prop]) => {
        const type = Array.isArray(prop.type) ? prop.type[0] : prop.type
        const id = `arg-${name}`
        const current = value[name]
        let field
        if (prop.enum) {
          field = (
            <select
              id={id}
              className="input"
              value={current === undefined ? '' : String(current)}
              onChange={(e) => set(name, e.target.value === '' ? undefined : prop.enum!.find((x) => String(x) === e.target.value))}
            >
              <option value="">(absent)</option>
              {prop.enum.map((x) => (
                <option key={String(x)}>{String(x)}</option>
              ))}
            </select>
          )
        } else if (type === 'boolean') {
          field = <input id={id} type="checkbox" checked={current === true} onChange={(e) => set(name, e.target.checked || undefined)} />
        } else if (type === 'number' || type === 'integer') {
          field = (
            <input
              id={id}
              className="input"
              inputMode="decimal"
              value={current === undefined ? '' : String(current)}
              onChange={(e) =>
                set(
                  name,
                  e.target.value === '' ? undefined : Number.isNaN(Number(e.target.value)) ? e.target.value : Number(e.target.value),
                )
              }
            />
          )
        } else if (type === 'string' || type === undefined) {
          field = (
            <input
              id={id}
              className="input"
              value={current === undefined ? '' : String(current)}
              onChange={(e) => set(name, e.target.value)}
            />
          )
        } else {
          field = <JsonField id={id} value={current} onChange={(v) => set(name, v)} />
        }
        return (
          <div key={name} style={{ display: 'contents' }}>
            <label htmlFor={id} title={prop.description}>
              <span className="mono">{name}</span>
              {required.has(name) && <span className="required-mark">*</span>}
            </label>
            {field}
          </div>
        )
      })}
    </div>
  )
}

function JsonField({ id, value, onChange }: { id: string; value: unknown; onChange: (v: unknown) => void }) {
  return (
    <input
      id={id}
      className="input mono"
      placeholder="JSON"
      defaultValue={value === undefined ? '' : JSON.stringify(value)}
      onBlur={(e) => {
        if (e.target.value.trim() === '') return onChange(undefined)
        try {
          onChange(JSON.parse(e.target.value))
          e.target.classList.remove('invalid')
        } catch {
          e.target.classList.add('invalid')
        }
      }}
    />
  )
}
