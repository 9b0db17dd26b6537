import type { FailureCause } from '../contract'

/**
 * One line for any thrown value: its message, else its name, else its text. A JSON-RPC error's
 * "MCP error <code>: " is said once (see `jsonRpcErrorWords`).
 */
export function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const code = (error as { code?: unknown }).code
  if (typeof code === 'number') {
    const words = jsonRpcErrorWords(error.message, code)
    if (words !== error.message) return `${sdkPrefix(code)}${words}`
  }
  return error.message || error.name
}

/**
 * A JSON-RPC error's own words, without the "MCP error <code>: " the MCP SDKs put before them, however many
 * times: a server built with an SDK sends its error's message so prefixed, and the client's SDK prefixes it again.
 */
export function jsonRpcErrorWords(message: string, code: number): string {
  const prefix = sdkPrefix(code)
  let words = message
  while (words.startsWith(prefix)) words = words.slice(prefix.length)
  return words
}

function sdkPrefix(code: number): string {
  return `MCP error ${code}: `
}

/** A connection attempt that failed, with its cause whole (FailureCause, shared/contract/events.ts); its message is the one-line reason. */
export class ConnectFailure extends Error {
  constructor(
    message: string,
    readonly failure: FailureCause,
  ) {
    super(message)
    this.name = 'ConnectFailure'
  }
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'timed out connecting',
  UND_ERR_CONNECT_TIMEOUT: 'timed out connecting',
  UND_ERR_SOCKET: 'the connection broke',
}

/**
 * What the network said under a failed fetch ("fetch failed" hides it in `cause`): the system code and the
 * host:port it was for (`url`'s when the error names none), and a phrase for it; undefined when it was no network error.
 */
export function networkFailure(error: unknown, url?: string): { code: string; address?: string; phrase: string } | undefined {
  const found: { code?: string; addresses: string[] } = { addresses: [] }
  const visit = (e: unknown, depth: number) => {
    if (!e || typeof e !== 'object' || depth > 6) return
    const { code, address, port, errors, cause } = e as {
      code?: unknown
      address?: unknown
      port?: unknown
      errors?: unknown
      cause?: unknown
    }
    if (typeof code === 'string' && !found.code) found.code = code
    if (typeof address === 'string')
      found.addresses.push(`${address.includes(':') ? `[${address}]` : address}${typeof port === 'number' ? `:${port}` : ''}`)
    if (Array.isArray(errors)) for (const inner of errors) visit(inner, depth + 1)
    visit(cause, depth + 1)
  }
  visit(error, 0)
  if (!found.code || !(found.code in NETWORK_CODES)) return undefined
  let address = [...new Set(found.addresses)].join(', ') || undefined
  if (!address && url && URL.canParse(url)) {
    const u = new URL(url)
    address = `${u.hostname}:${u.port || (u.protocol === 'https:' ? 443 : 80)}`
  }
  return { code: found.code, address, phrase: NETWORK_CODES[found.code] }
}
