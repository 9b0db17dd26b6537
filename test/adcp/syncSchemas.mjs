// Writes shared/adcp/adcpSchemas.json: the AdCP release's JSON Schemas a seller's tasks need (every media-buy
// task and get_adcp_capabilities: requests, responses, async responses), with everything they reference, the
// protocol envelope, the context object and the task-status vocabulary — taken from AdCP's own @adcp/sdk and
// stripped of documentation; and shared/contract/adcpTasks.json, the same tasks with the fields each request
// defines (what tells an AdCP agent, small enough for the UI). Run by hand after updating @adcp/sdk:
//   node test/adcp/syncSchemas.mjs
// test/unit/adcpSchemas.test.ts fails while the checked-in files are not what this makes.
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
export const OUTPUT = join(here, '../../shared/adcp/adcpSchemas.json')
export const TASKS_OUTPUT = join(here, '../../shared/contract/adcpTasks.json')

/** The tasks a seller answers: AdCP's media-buy protocol, and the capabilities every AdCP 3 agent offers. */
const SELLER_PROTOCOLS = new Set(['media-buy'])
const ALWAYS = ['get_adcp_capabilities']
/** AdCP's own definitions Parallax reads: which fields are the protocol's, the context object, the task statuses. */
const DEFINITIONS = { envelope: 'core/protocol-envelope.json', context: 'core/context.json', taskStatus: 'enums/task-status.json' }

/** Keywords that document a schema and never change what it accepts. */
const DOCUMENTATION = new Set([
  'title',
  'description',
  'examples',
  'example',
  '$comment',
  'enumDescriptions',
  'notes',
  'default',
  'deprecated',
])
/** Keywords whose value is a map of names to schemas (the names are data, never keywords). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependencies'])
/** Keywords whose value is a schema, or a list of schemas. */
const SCHEMA_VALUED = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
])
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf'])

function schemasFolder() {
  const require = createRequire(join(here, 'package.json'))
  const sdk = dirname(require.resolve('@adcp/sdk/package.json'))
  return join(sdk, 'dist/lib/schemas-data/3.0')
}

/** A schema without its documentation: keywords only, so a property named `description` stays. */
function strip(schema) {
  if (Array.isArray(schema)) return schema.map(strip)
  if (!schema || typeof schema !== 'object') return schema
  const out = {}
  for (const [key, value] of Object.entries(schema)) {
    if (DOCUMENTATION.has(key) || key.startsWith('x-') || key.startsWith('_')) continue
    if (SCHEMA_MAPS.has(key) && value && typeof value === 'object' && !Array.isArray(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, strip(child)]))
    else if (SCHEMA_VALUED.has(key) || SCHEMA_LISTS.has(key)) out[key] = strip(value)
    else out[key] = value
  }
  return out
}

function refsOf(schema, found = new Set()) {
  if (Array.isArray(schema)) schema.forEach((s) => refsOf(s, found))
  else if (schema && typeof schema === 'object')
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('/')) found.add(value.split('#')[0])
      else refsOf(value, found)
    }
  return found
}

/** The bundle, as the checked-in file holds it. */
export function buildBundle(folder = schemasFolder()) {
  const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8'))
  const release = manifest.adcp_version
  const prefix = `/schemas/${release}/`
  const idOf = (file) => `${prefix}${file}`
  const tasks = {}
  const roots = Object.values(DEFINITIONS).map(idOf)
  for (const [name, tool] of Object.entries(manifest.tools).sort(([a], [b]) => a.localeCompare(b))) {
    if (!SELLER_PROTOCOLS.has(tool.protocol) && !ALWAYS.includes(name)) continue
    const asyncSchemas = Object.fromEntries(
      tool.async_response_schemas.map((file) => [/-async-response-([a-z-]+)\.json$/.exec(file)[1], idOf(file)]),
    )
    tasks[name] = { request: idOf(tool.request_schema), response: idOf(tool.response_schema), async: asyncSchemas }
    roots.push(idOf(tool.request_schema), idOf(tool.response_schema), ...Object.values(asyncSchemas))
  }
  const schemas = {}
  const pending = [...roots]
  while (pending.length) {
    const id = pending.pop()
    if (schemas[id]) continue
    if (!id.startsWith(prefix)) throw new Error(`a reference outside AdCP ${release}: ${id}`)
    const schema = strip(JSON.parse(readFileSync(join(folder, id.slice(prefix.length)), 'utf8')))
    schemas[id] = schema
    for (const ref of refsOf(schema)) if (!schemas[ref]) pending.push(ref)
  }
  const sorted = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)))
  return {
    release,
    definitions: Object.fromEntries(Object.entries(DEFINITIONS).map(([k, file]) => [k, idOf(file)])),
    tasks,
    schemas: sorted,
  }
}

export function bundleText(folder) {
  return `${JSON.stringify(buildBundle(folder))}\n`
}

/** The top-level property names a schema defines, through its references and allOf/anyOf/oneOf branches. */
function ownFields(schemas, id, found = new Set()) {
  const walk = (schema) => {
    if (!schema || typeof schema !== 'object') return
    if (typeof schema.$ref === 'string' && schema.$ref.startsWith('/')) walk(schemas[schema.$ref.split('#')[0]])
    for (const name of Object.keys(schema.properties ?? {})) found.add(name)
    for (const list of SCHEMA_LISTS) if (Array.isArray(schema[list])) schema[list].forEach(walk)
  }
  walk(schemas[id])
  return [...found].sort()
}

/** The release's seller tasks, each with the fields its request defines. */
export function tasksText(folder) {
  const { release, tasks, schemas } = buildBundle(folder)
  const fields = Object.fromEntries(Object.entries(tasks).map(([name, task]) => [name, ownFields(schemas, task.request)]))
  return `${JSON.stringify({ release, tasks: fields }, null, 2)}\n`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = bundleText()
  writeFileSync(OUTPUT, text)
  writeFileSync(TASKS_OUTPUT, tasksText())
  console.log(`wrote ${OUTPUT}: ${Object.keys(JSON.parse(text).schemas).length} schemas, ${text.length} bytes; and ${TASKS_OUTPUT}`)
}
