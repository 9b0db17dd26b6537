/** Where A2A agents serve their card (v1.0, and the legacy name v0.3 agents used). */
export function isCardPath(path: string): boolean {
  return /\/\.well-known\/(agent-card|agent)\.json$/.test(path)
}

/** The authenticated extended card: REST `GET …/extendedAgentCard` (v0.3: `…/v1/card`). */
export function isExtendedCardPath(method: string, path: string): boolean {
  return method === 'GET' && /\/extendedAgentCard$|\/v1\/card$/.test(path)
}

/** The JSON-RPC methods whose answer is a card (v1.0 and v0.3). */
export const EXTENDED_CARD_METHODS = new Set(['GetExtendedAgentCard', 'agent/getAuthenticatedExtendedCard'])

/**
 * A card with every interface URL that points at the upstream origin (`url`, `supportedInterfaces[].url`,
 * `additionalInterfaces[].url`) moved to the proxy's origin, so a host that follows the card stays on the
 * tap. Other URLs (another origin, a gRPC address, documentation links) are left as they are. Returns
 * undefined when nothing changed.
 */
export function rewriteCard(card: unknown, upstream: string, proxy: string): unknown {
  if (!card || typeof card !== 'object' || Array.isArray(card)) return undefined
  const c = card as Record<string, unknown>
  let changed = false
  const moved = (url: unknown): unknown => {
    const next = typeof url === 'string' ? moveOrigin(url, upstream, proxy) : undefined
    if (next === undefined) return url
    changed = true
    return next
  }
  const interfaces = (list: unknown) =>
    Array.isArray(list) ? list.map((i) => (i && typeof i === 'object' ? { ...i, url: moved((i as { url?: unknown }).url) } : i)) : list
  const out = {
    ...c,
    ...('url' in c && { url: moved(c.url) }),
    ...('supportedInterfaces' in c && { supportedInterfaces: interfaces(c.supportedInterfaces) }),
    ...('additionalInterfaces' in c && { additionalInterfaces: interfaces(c.additionalInterfaces) }),
  }
  return changed ? out : undefined
}

/** A JSON-RPC answer whose result is a card, with the card rewritten (undefined when nothing changed). */
export function rewriteCardAnswer(answer: unknown, upstream: string, proxy: string): unknown {
  const result = (answer as { result?: unknown } | undefined)?.result
  const card = result === undefined ? undefined : rewriteCard(result, upstream, proxy)
  return card === undefined ? undefined : { ...(answer as object), result: card }
}

/**
 * Legacy MCP SSE: the first event, `endpoint`, names where the host POSTs. An absolute URL at the
 * upstream's origin is moved to the proxy's (a relative one already resolves against the proxy).
 */
export function rewriteEndpointEvent(eventText: string, upstream: string, proxy: string): string | undefined {
  if (!/^event:\s?endpoint\r?$/m.test(eventText)) return undefined
  let changed = false
  const text = eventText.replace(/^data:\s?(.*?)(\r?)$/m, (line, url: string, cr: string) => {
    const next = moveOrigin(url, upstream, proxy)
    if (next === undefined) return line
    changed = true
    return `data: ${next}${cr}`
  })
  return changed ? text : undefined
}

/** `url` with the proxy's origin in place of the upstream's, or undefined when it is not at the upstream. */
function moveOrigin(url: string, upstream: string, proxy: string): string | undefined {
  if (!URL.canParse(url)) return undefined
  const parsed = new URL(url)
  if (parsed.origin !== upstream) return undefined
  const rest = url.startsWith(parsed.origin) ? url.slice(parsed.origin.length) : `${parsed.pathname}${parsed.search}${parsed.hash}`
  return `${proxy}${rest}`
}
