/** Envelope fields that belong to the transport, not to a tool's domain arguments (configurable). */
export const DEFAULT_PROTOCOL_FIELDS = ['adcp_version', 'protocol_version', 'jsonrpc']

export interface LintFinding {
  where: 'arguments' | 'inputSchema'
  /** JSON Pointer to the field. */
  path: string
  field: string
  message: string
}

/**
 * Whose definition of the protocol fields applies: by default they are flagged at any depth; an envelope's
 * (AdCP's) wraps the task's arguments, so its fields are flagged at the top, and `source` says whose they are.
 */
export interface LintRules {
  topLevelOnly?: boolean
  /** Appended to each finding: whose definition makes the field the protocol's. */
  source?: string
}

/** Flags protocol fields found anywhere in the arguments, and declared anywhere in the input schema. */
export function lintProtocolFields(
  args: unknown,
  inputSchema: unknown,
  fields: readonly string[] = DEFAULT_PROTOCOL_FIELDS,
  rules: LintRules = {},
): LintFinding[] {
  const wanted = new Set(fields)
  const findings: LintFinding[] = []
  const why = rules.source ? ` (${rules.source})` : ''
  const walkValue = (value: unknown, path: string) => {
    if (!value || typeof value !== 'object') return
    for (const [key, child] of Object.entries(value)) {
      const here = `${path}/${escape(key)}`
      if (wanted.has(key))
        findings.push({
          where: 'arguments',
          path: here,
          field: key,
          message: `protocol field "${key}" sent inside the domain arguments at ${here}${why}`,
        })
      if (!rules.topLevelOnly) walkValue(child, here)
    }
  }
  const walkSchema = (schema: unknown, path: string) => {
    if (!schema || typeof schema !== 'object') return
    const properties = (schema as { properties?: Record<string, unknown> }).properties
    for (const [key, child] of Object.entries(properties ?? {})) {
      const here = `${path}/properties/${escape(key)}`
      if (wanted.has(key))
        findings.push({
          where: 'inputSchema',
          path: here,
          field: key,
          message: `the input schema declares protocol field "${key}" as a domain argument (${here})${why}`,
        })
      if (!rules.topLevelOnly) walkSchema(child, here)
    }
    if (rules.topLevelOnly) return
    for (const nested of ['items', 'additionalProperties']) walkSchema((schema as Record<string, unknown>)[nested], `${path}/${nested}`)
    for (const list of ['allOf', 'anyOf', 'oneOf']) {
      const entries = (schema as Record<string, unknown>)[list]
      if (Array.isArray(entries)) entries.forEach((s, i) => walkSchema(s, `${path}/${list}/${i}`))
    }
  }
  walkValue(args, '')
  walkSchema(inputSchema, '')
  return findings
}

function escape(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1')
}
