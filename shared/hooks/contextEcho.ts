import { isDeepStrictEqual } from 'node:util'

export interface ContextEcho {
  /** The raw arguments carried a `context` object. */
  present: boolean
  /** The response carried a `context` back. */
  echoed: boolean
  matchesRaw: boolean
  /** When it does not match the raw context: whether it matches the hooked one (the hook leaked). */
  matchesHooked: boolean
  returned?: unknown
}

/** Where the context object goes in the request and comes back in the response: `context` unless a protocol's schemas say otherwise. */
export interface ContextFields {
  request: string
  response: string
}

export const CONTEXT_FIELDS: ContextFields = { request: 'context', response: 'context' }

/**
 * The buyer's `context` must come back as sent: the response must echo the **raw** context, not the
 * hooked one. `responseData` is the structured result (MCP structuredContent or JSON text; A2A artifact data).
 */
export function checkContextEcho(
  raw: Record<string, unknown>,
  hooked: Record<string, unknown>,
  responseData: unknown,
  fields: ContextFields = CONTEXT_FIELDS,
): ContextEcho {
  const sent = raw[fields.request]
  const present = !!sent && typeof sent === 'object' && !Array.isArray(sent)
  const returned = responseData && typeof responseData === 'object' ? (responseData as Record<string, unknown>)[fields.response] : undefined
  const echoed = returned !== undefined
  return {
    present,
    echoed,
    matchesRaw: present && echoed && isDeepStrictEqual(returned, sent),
    matchesHooked: present && echoed && isDeepStrictEqual(returned, hooked[fields.request]),
    ...(echoed && { returned }),
  }
}
