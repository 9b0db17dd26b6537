import Ajv2020 from 'ajv/dist/2020.js'
import AjvDraft07 from 'ajv'
import type { ValidateFunction } from 'ajv'

import type { ValidationResult } from '../contract'

const DRAFT_07 = /draft-0[4-7]/

/**
 * JSON Schema validation for tool arguments and results: draft 2020-12 (MCP's default) and draft-07
 * (by `$schema`). Each distinct schema is compiled once and cached; a schema that cannot be compiled
 * is reported as an error, never thrown.
 */
export class SchemaValidator {
  private readonly modern = new Ajv2020({ allErrors: true, strict: false, validateFormats: false })
  private readonly draft07 = new AjvDraft07({ allErrors: true, strict: false, validateFormats: false })
  private readonly cache = new Map<string, ValidateFunction | string>()
  /** How many schemas were compiled (for tests of the cache). */
  compiled = 0

  validate(schema: unknown, value: unknown): ValidationResult {
    if (!schema || typeof schema !== 'object') return { valid: null, errors: [] }
    const key = JSON.stringify(schema)
    let validator = this.cache.get(key)
    if (validator === undefined) {
      try {
        const id = (schema as { $schema?: string }).$schema ?? ''
        const { $id: _ignored, ...anonymous } = schema as Record<string, unknown> // one schema per id would clash across servers
        validator = (DRAFT_07.test(id) ? this.draft07 : this.modern).compile(anonymous)
        this.compiled++
      } catch (error) {
        validator = `the schema itself is invalid: ${(error as Error).message}`
      }
      this.cache.set(key, validator)
    }
    if (typeof validator === 'string') return { valid: false, errors: [{ path: '', message: validator }] }
    const valid = validator(value)
    return {
      valid,
      errors: (validator.errors ?? []).map((e) => ({
        path: e.instancePath || '/',
        message:
          e.keyword === 'required'
            ? `missing required property "${(e.params as { missingProperty: string }).missingProperty}"`
            : `${e.message ?? e.keyword}${e.keyword === 'enum' ? `: ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}` : ''}`,
      })),
    }
  }
}
