import { useEffect, useRef, useState } from 'react'
import { AgentText } from '../../../components/Name'
import './schemaForm.css'

/** The part of JSON Schema the form draws: types, enums, defaults, descriptions, nested objects and arrays. */
export interface JsonSchema {
  type?: string | string[]
  enum?: unknown[]
  const?: unknown
  title?: string
  description?: string
  default?: unknown
  format?: string
  minimum?: number
  maximum?: number
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema | JsonSchema[]
}

/** Suggestions for a string argument as the user types it (`completion/complete`), given the other arguments so far. */
export type Completer = (
  argument: string,
  value: string,
  others: Record<string, unknown>,
) => Promise<{ values: string[]; total?: number; hasMore?: boolean } | undefined>

/** The arguments a schema's defaults fill in: each property that has a default, nested objects' too. */
export function schemaDefaults(schema: JsonSchema | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (property.default !== undefined) out[name] = structuredClone(property.default)
    else if (typeOf(property) === 'object' && property.properties) {
      const nested = schemaDefaults(property)
      if (Object.keys(nested).length) out[name] = nested
    }
  }
  return out
}

/**
 * A form generated from an input schema: a field per property, its description below it, required ones
 * marked; enums as choices, numbers as numbers, booleans as a checkbox, objects as nested fields, arrays
 * as a list of items; anything else as JSON. Top-level fields have the id `arg-<name>`.
 */
export function SchemaForm({
  schema,
  value,
  onChange,
  complete,
  idPrefix = 'arg-',
}: {
  schema: JsonSchema | undefined
  value: Record<string, unknown>
  onChange: (value: Record<string, unknown>) => void
  complete?: Completer
  idPrefix?: string
}) {
  const properties = Object.entries(schema?.properties ?? {})
  if (properties.length === 0) return <div className="muted">No arguments{schema ? '' : ' (no input schema: use the JSON editor)'}.</div>
  const required = new Set(schema?.required ?? [])
  const set = (name: string, v: unknown) => {
    const next = { ...value }
    if (v === undefined) delete next[name]
    else next[name] = v
    onChange(next)
  }
  return (
    <div className="form schema-form">
      {properties.map(([name, property]) => {
        const id = `${idPrefix}${name}`
        return (
          <div key={name} className="schema-field" style={{ display: 'contents' }}>
            <label htmlFor={id} title={property.description}>
              <span className="mono">{name}</span>
              {required.has(name) && (
                <span className="required-mark" title="required">
                  *
                </span>
              )}
            </label>
            <div className="schema-input">
              <FieldEditor
                id={id}
                schema={property}
                value={value[name]}
                onChange={(v) => set(name, v)}
                complete={complete && isStringField(property) ? (v) => complete(name, v, value) : undefined}
              />
              {(property.description || property.default !== undefined) && (
                <div className="hint">
                  {property.description && <AgentText value={property.description} />}
                  {property.default !== undefined && <span className="mono"> default {JSON.stringify(property.default)}</span>}
                </div>
              )}
            </div>
          </div>
        )
      })}
    </div>
  )
}

function FieldEditor({
  id,
  schema,
  value,
  onChange,
  complete,
}: {
  id: string
  schema: JsonSchema
  value: unknown
  onChange: (value: unknown) => void
  complete?: (value: string) => ReturnType<Completer>
}) {
  const type = typeOf(schema)
  if (schema.enum) {
    const options = schema.enum
    return (
      <select
        id={id}
        className="input"
        value={value === undefined ? '' : JSON.stringify(value)}
        onChange={(e) => onChange(e.target.value === '' ? undefined : options.find((x) => JSON.stringify(x) === e.target.value))}
      >
        <option value="">(absent)</option>
        {options.map((x) => (
          <option key={JSON.stringify(x)} value={JSON.stringify(x)}>
            {typeof x === 'string' ? x : JSON.stringify(x)}
          </option>
        ))}
      </select>
    )
  }
  if (type === 'boolean')
    return (
      <span className="bool-field">
        <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
        <span className="muted">{value === undefined ? '(absent)' : String(value)}</span>
        {value !== undefined && (
          <button className="btn small ghost" onClick={() => onChange(undefined)} title="Leave it out">
            ×
          </button>
        )}
      </span>
    )
  if (type === 'number' || type === 'integer') return <NumberField id={id} schema={schema} value={value} onChange={onChange} />
  if (type === 'object' && schema.properties)
    return (
      <fieldset className="nested-form" id={id}>
        <SchemaForm
          schema={schema}
          value={isRecord(value) ? value : {}}
          onChange={(v) => onChange(Object.keys(v).length ? v : undefined)}
          idPrefix={`${id}.`}
        />
      </fieldset>
    )
  if (type === 'array' && schema.items && !Array.isArray(schema.items))
    return <ArrayField id={id} items={schema.items} value={value} onChange={onChange} />
  if (type === 'string' || (type === undefined && !schema.properties && typeof value !== 'object'))
    return complete ? (
      <CompletionInput id={id} value={typeof value === 'string' ? value : ''} onChange={onChange} complete={complete} schema={schema} />
    ) : (
      <input
        id={id}
        className="input"
        value={value === undefined ? '' : String(value)}
        placeholder={schema.format}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      />
    )
  return <JsonField id={id} value={value} onChange={onChange} />
}

/** A number as a number: what is typed is sent as one once it reads as one (an integer where the schema asks for one). */
function NumberField({ id, schema, value, onChange }: { id: string; schema: JsonSchema; value: unknown; onChange: (v: unknown) => void }) {
  const [text, setText] = useState(value === undefined ? '' : String(value))
  const shown = Number(text) === value || (text === '' && value === undefined) ? text : value === undefined ? '' : String(value)
  const integer = typeOf(schema) === 'integer'
  const invalid = text !== '' && (!Number.isFinite(Number(text)) || (integer && !Number.isInteger(Number(text))))
  return (
    <input
      id={id}
      className={`input number${invalid ? ' invalid' : ''}`}
      type="number"
      step={integer ? 1 : 'any'}
      min={schema.minimum}
      max={schema.maximum}
      value={shown}
      onChange={(e) => {
        setText(e.target.value)
        const n = Number(e.target.value)
        onChange(e.target.value === '' ? undefined : Number.isFinite(n) ? n : e.target.value)
      }}
    />
  )
}

/** An array: its items one under the other, each edited as its schema says, with add and remove. */
function ArrayField({ id, items, value, onChange }: { id: string; items: JsonSchema; value: unknown; onChange: (v: unknown) => void }) {
  const list = Array.isArray(value) ? value : []
  const set = (next: unknown[]) => onChange(next.length ? next : undefined)
  const empty = () => (items.default !== undefined ? structuredClone(items.default) : typeOf(items) === 'object' ? {} : undefined)
  return (
    <div className="array-field" id={id}>
      {list.map((item, i) => (
        <div key={i} className="array-item">
          <FieldEditor id={`${id}.${i}`} schema={items} value={item} onChange={(v) => set(list.map((x, j) => (j === i ? v : x)))} />
          <button className="btn small ghost" onClick={() => set(list.filter((_, j) => j !== i))} title="Remove this item">
            ×
          </button>
        </div>
      ))}
      <button className="btn small" onClick={() => set([...list, empty()])}>
        + Add {list.length ? 'another' : 'an item'}
      </button>
    </div>
  )
}

/**
 * A string argument with the server's suggestions (`completion/complete`): asked as the user types (a
 * moment after the last key) and when the field is focused; a suggestion fills the field.
 */
function CompletionInput({
  id,
  value,
  onChange,
  complete,
  schema,
}: {
  id: string
  value: string
  onChange: (v: unknown) => void
  complete: (value: string) => ReturnType<Completer>
  schema: JsonSchema
}) {
  const [suggestions, setSuggestions] = useState<{ values: string[]; total?: number; hasMore?: boolean; for: string }>()
  const asked = useRef(0)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  const ask = (text: string, delay: number) => {
    clearTimeout(timer.current)
    timer.current = setTimeout(() => {
      const mine = ++asked.current
      void complete(text).then((found) => {
        if (mine === asked.current) setSuggestions(found ? { ...found, for: text } : undefined)
      })
    }, delay)
  }
  const shown = suggestions?.values.filter((v) => v !== value).slice(0, 12) ?? []
  const more = suggestions
    ? Math.max((suggestions.total ?? suggestions.values.length) - shown.length - (suggestions.values.includes(value) ? 1 : 0), 0)
    : 0
  return (
    <div className="completion-field">
      <input
        id={id}
        className="input"
        value={value}
        placeholder={schema.format}
        autoComplete="off"
        onFocus={() => ask(value, 0)}
        onChange={(e) => {
          onChange(e.target.value === '' ? undefined : e.target.value)
          ask(e.target.value, 200)
        }}
      />
      {suggestions && (
        <div className="completions" data-testid={`completions-${id}`}>
          {shown.length === 0 ? (
            <span className="muted">{suggestions.values.length ? 'the server suggests what is typed' : 'no suggestions'}</span>
          ) : (
            shown.map((s) => (
              <button key={s} className="btn small completion" onClick={() => (onChange(s), ask(s, 0))} title="Use this suggestion">
                {s}
              </button>
            ))
          )}
          {(more > 0 || suggestions.hasMore) && <span className="muted">{more > 0 ? `+${more} more` : 'more'} (type to narrow)</span>}
        </div>
      )}
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

/** A schema's one type: the first of a list other than null; what its enum or properties imply when it names none. */
function typeOf(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null')
  if (schema.type) return schema.type
  if (schema.properties) return 'object'
  if (schema.items) return 'array'
  return undefined
}

function isStringField(schema: JsonSchema): boolean {
  return !schema.enum && (typeOf(schema) === 'string' || typeOf(schema) === undefined)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
