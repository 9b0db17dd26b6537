// AdCP's published JSON schemas for the release Parallax follows, as @adcp/sdk ships them.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'

const require = createRequire(import.meta.url)
const root = join(dirname(require.resolve('@adcp/sdk/package.json')), 'dist', 'lib', 'schemas-data', '3.0')
const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8'))

export const ADCP_RELEASE = manifest.adcp_version

const ajv = new Ajv({ strict: false, allErrors: true })
addFormats(ajv)
const compiled = new Map()

/** The errors of `data` against the release's schema for `task`'s request or response (an empty list when it conforms). */
export function releaseErrors(task, kind, data) {
  const file = manifest.tools[task]?.[`${kind}_schema`]
  if (!file) throw new Error(`AdCP ${ADCP_RELEASE} has no ${kind} schema for ${task}`)
  let validate = compiled.get(file)
  if (!validate) compiled.set(file, (validate = ajv.compile(JSON.parse(readFileSync(join(root, 'bundled', file), 'utf8')))))
  return validate(data) ? [] : validate.errors.map((e) => `${e.instancePath || '/'} ${e.message}`)
}
