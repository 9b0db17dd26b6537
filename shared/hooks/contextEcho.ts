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

/**
 * The buyer's `context` must come back as sent: the response must echo the **raw** context, not the
 * hooked one. `responseData` is the structured result (MCP structuredContent or JSON text; A2A artifact data).
 */
export function checkContextEcho(raw: Record<string, unknown>, hooked: Record<string, unknown>, responseData: unknown): ContextEcho {
  const sent = raw.context
  const present = !!sent && typeof sent === 'object' && !Array.isArray(sent)
  const returned = responseData && typeof responseData === 'object' ? (responseData as { context?: unknown }).context : undefined
  const echoed = returned !== undefined
  return {
    present,
    echoed,
    matchesRaw: present && echoed && isDeepStrictEqual(returned, sent),
    matchesHooked: present && echoed && isDeepStrictEqual(returned, hooked.context),
    ...(echoed && { returned }),
  }
}
