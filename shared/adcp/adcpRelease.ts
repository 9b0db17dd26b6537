import AjvDraft07 from 'ajv'
import type { ErrorObject, ValidateFunction } from 'ajv'
import { isAdcpTask, type AdcpFinding } from '../contract'
import bundle from './adcpSchemas.json'

/**
 * The AdCP release Parallax follows, as AdCP publishes it (@adcp/sdk's JSON Schemas, bundled by
 * test/adcp/syncSchemas.mjs): each seller task's request, response and async response schemas, the protocol
 * envelope (which fields are the protocol's), the context object and the task-status vocabulary.
 */
interface Bundle {
  release: string
  definitions: { envelope: string; context: string; taskStatus: string }
  tasks: Record<string, { request: string; response: string; async: Record<string, string> }>
  schemas: Record<string, Record<string, unknown>>
}

const adcp = bundle as unknown as Bundle

/** Fields AdCP forbids beside the envelope's `status` (protocol-envelope.json: "legacy task_status or response_status"). */
const LEGACY_STATUS_FIELDS = ['task_status', 'response_status']

export type AdcpPhase = AdcpFinding['phase']

/** AdCP's task statuses (enums/task-status.json), in the release's order. */
export function adcpTaskStatuses(): readonly string[] {
  return adcp.schemas[adcp.definitions.taskStatus].enum as string[]
}

/** The fields AdCP's protocol envelope defines (core/protocol-envelope.json), and the legacy status fields it forbids. */
export function envelopeFields(): string[] {
  return [...Object.keys(adcp.schemas[adcp.definitions.envelope].properties as object), ...LEGACY_STATUS_FIELDS]
}

/** The top-level properties a schema defines, through its allOf/anyOf/oneOf branches: name → property schema. */
function ownProperties(id: string): Map<string, unknown> {
  const found = new Map<string, unknown>()
  const walk = (schema: unknown) => {
    if (!schema || typeof schema !== 'object') return
    const s = schema as Record<string, unknown>
    if (typeof s.$ref === 'string' && s.$ref.startsWith('/')) walk(adcp.schemas[s.$ref.split('#')[0]])
    for (const [name, child] of Object.entries((s.properties as Record<string, unknown>) ?? {}))
      if (!found.has(name)) found.set(name, child)
    for (const list of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(s[list])) (s[list] as unknown[]).forEach(walk)
  }
  walk(adcp.schemas[id])
  return found
}

/** Where a task's request or response holds AdCP's context object: the properties that reference core/context.json. */
export function contextFields(task: string, phase: AdcpPhase): string[] {
  if (!isAdcpTask(task)) return []
  const id = phase === 'request' ? adcp.tasks[task].request : adcp.tasks[task].response
  return [...ownProperties(id)]
    .filter(([, schema]) => (schema as { $ref?: unknown } | undefined)?.$ref === adcp.definitions.context)
    .map(([name]) => name)
}

let ajv: AjvDraft07 | undefined
const compiled = new Map<string, ValidateFunction>()

/** A schema's validator: AdCP's schemas are draft-07 and reference each other by `$id`; each is compiled once, when first needed. */
function validatorFor(id: string): ValidateFunction {
  let validate = compiled.get(id)
  if (!validate) {
    ajv ??= new AjvDraft07({ allErrors: true, strict: false, validateFormats: false, schemas: Object.values(adcp.schemas) })
    validate = ajv.getSchema(id)
    if (!validate) throw new Error(`AdCP ${adcp.release} has no schema ${id}`)
    compiled.set(id, validate)
  }
  return validate
}

/**
 * Which schema a task's response is checked against: an async response (submitted, working, input-required)
 * by the AdCP status it says it is in, where the task has one for it; else the task's response.
 */
function responseSchema(task: string, value: unknown): string {
  const status = value && typeof value === 'object' ? (value as { status?: unknown }).status : undefined
  const entry = adcp.tasks[task]
  return (typeof status === 'string' && entry.async[status]) || entry.response
}

/** A task's request or response against the release's schema: each violation with its instance path and schema path. */
export function checkAdcpTask(task: string, phase: AdcpPhase, value: unknown): AdcpFinding[] {
  if (!isAdcpTask(task)) return []
  const schema = phase === 'request' ? adcp.tasks[task].request : responseSchema(task, value)
  let validate: ValidateFunction
  try {
    validate = validatorFor(schema)
  } catch (error) {
    // Never thrown into a call: a schema that cannot be compiled is said where its findings would be.
    return [{ phase, schema, instancePath: '/', schemaPath: '#', message: `the schema cannot be used: ${(error as Error).message}` }]
  }
  if (validate(value)) return []
  return (validate.errors ?? []).map((error) => finding(phase, schema, error))
}

function finding(phase: AdcpPhase, schema: string, error: ErrorObject): AdcpFinding {
  const missing = error.keyword === 'required' ? (error.params as { missingProperty?: string }).missingProperty : undefined
  const allowed = error.keyword === 'enum' ? `: ${JSON.stringify((error.params as { allowedValues?: unknown }).allowedValues)}` : ''
  // A rule in a referenced schema comes as that schema's `$id` followed by the path in it.
  const inReferenced = /^(\/.+?\.json)(\/.*)?$/.exec(error.schemaPath)
  return {
    phase,
    schema: inReferenced ? inReferenced[1] : schema,
    instancePath: error.instancePath || '/',
    schemaPath: inReferenced ? `#${inReferenced[2] ?? ''}` : error.schemaPath,
    message: missing ? `missing required property "${missing}"` : `${error.message ?? error.keyword}${allowed}`,
  }
}
