// SEP-2243 (MCP 2026-07-28, Streamable HTTP): a tool's parameters marked `x-mcp-header` are mirrored into
// `Mcp-Param-{Name}` headers on its `tools/call`. The engine sends them; the Catalog and `inspect` flag a
// tool whose declarations break the spec's constraints (such a tool is excluded over streamable HTTP).

/** One parameter a tool mirrors: where it sits in the arguments, and the name after `Mcp-Param-`. */
export interface ParamHeader {
  path: string[]
  name: string
}

/** A tool's `x-mcp-header` declarations, or why they are invalid (the spec's words: the client MUST exclude the tool). */
export type ParamHeaderScan = { valid: true; headers: ParamHeader[] } | { valid: false; problem: string }

/** RFC 9110 `token` (`1*tchar`): no spaces, control characters, non-ASCII or delimiters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const PRIMITIVE = new Set(['string', 'integer', 'boolean'])
/** Subschemas no chain of `properties` reaches: a declaration under one of them is invalid. */
const UNREACHABLE = [
  'items',
  'prefixItems',
  'additionalProperties',
  'patternProperties',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
]

/** Reads a tool's `inputSchema` for `x-mcp-header` declarations at any depth of `properties`, checking each constraint. */
export function scanParamHeaders(inputSchema: unknown): ParamHeaderScan {
  const headers: ParamHeader[] = []
  const seen = new Map<string, string>()
  const visit = (node: unknown, path: string[], reachable: boolean): string | undefined => {
    if (node === null || typeof node !== 'object') return undefined
    const schema = node as Record<string, unknown>
    if ('x-mcp-header' in schema) {
      const where = path.length ? `parameter "${path.join('.')}"` : 'the schema itself'
      const raw = schema['x-mcp-header']
      if (!reachable || path.length === 0) return `${where}: x-mcp-header is allowed only on a property reached through "properties"`
      if (typeof raw !== 'string' || raw === '') return `${where}: x-mcp-header must be a non-empty string`
      if (!TOKEN.test(raw))
        return `${where}: x-mcp-header ${JSON.stringify(raw)} is not an HTTP header name (RFC 9110 token: no spaces, colons, control or non-ASCII characters)`
      const type = schema.type
      if (typeof type !== 'string' || !PRIMITIVE.has(type))
        return `${where}: x-mcp-header is allowed only on string, integer or boolean parameters, not ${typeof type === 'string' ? type : 'an untyped one'}`
      const before = seen.get(raw.toLowerCase())
      if (before !== undefined)
        return `${where}: x-mcp-header ${JSON.stringify(raw)} repeats ${JSON.stringify(before)} (names are case-insensitive)`
      seen.set(raw.toLowerCase(), raw)
      headers.push({ path, name: raw })
    }
    const properties = schema.properties
    if (properties && typeof properties === 'object')
      for (const [key, child] of Object.entries(properties)) {
        const problem = visit(child, [...path, key], reachable)
        if (problem) return problem
      }
    for (const keyword of UNREACHABLE) {
      const sub = schema[keyword]
      if (sub === undefined || sub === null || typeof sub !== 'object') continue
      const branches = Array.isArray(sub)
        ? sub
        : keyword === 'patternProperties' || keyword === '$defs' || keyword === 'definitions'
          ? Object.values(sub)
          : [sub]
      for (const branch of branches) {
        const problem = visit(branch, [...path, keyword], false)
        if (problem) return problem
      }
    }
    return undefined
  }
  const problem = visit(inputSchema, [], true)
  return problem ? { valid: false, problem } : { valid: true, headers }
}

/** Why a listed tool breaks SEP-2243, if it does (the Catalog's warning, `inspect`'s finding). */
export function paramHeaderProblem(tool: unknown): string | undefined {
  const scan = scanParamHeaders((tool as { inputSchema?: unknown } | null)?.inputSchema)
  return scan.valid ? undefined : scan.problem
}

/**
 * The `Mcp-Param-*` headers of one call: each declared parameter present in the arguments, as text (an
 * integer in decimal, a boolean as true/false), Base64-wrapped (`=?base64?…?=`) when plain ASCII would not
 * carry it whole. A null or absent value has no header.
 */
export function paramHeaderValues(headers: ParamHeader[], args: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  for (const header of headers) {
    let value: unknown = args
    for (const key of header.path) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined
    const text =
      typeof value === 'string'
        ? value
        : typeof value === 'boolean'
          ? String(value)
          : typeof value === 'number' && Number.isSafeInteger(value)
            ? String(value)
            : undefined
    if (text !== undefined) out[`Mcp-Param-${header.name}`] = headerValue(text)
  }
  return out
}

/** A value as an HTTP field value: as it is when it is visible ASCII without edge whitespace, else Base64 of its UTF-8. */
export function headerValue(text: string): string {
  const plain = /^[\x20-\x7e]*$/.test(text) && text === text.trim() && !(text.startsWith('=?base64?') && text.endsWith('?='))
  if (plain) return text
  let binary = ''
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte)
  return `=?base64?${btoa(binary)}?=`
}
