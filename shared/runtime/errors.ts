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
  CERT_HAS_EXPIRED: 'the server’s certificate has expired',
  CERT_NOT_YET_VALID: 'the server’s certificate is not valid yet',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the server’s certificate is self-signed (not trusted)',
  SELF_SIGNED_CERT_IN_CHAIN: 'the server’s certificate chain ends in a self-signed certificate (not trusted)',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the server’s certificate cannot be verified (an incomplete chain, or an issuer not trusted)',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the server’s certificate was issued by an authority not trusted here',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the server’s certificate is for another host name',
  ERR_SSL_WRONG_VERSION_NUMBER: 'the server did not answer in TLS (plain http at an https URL?)',
}

/** What the network said under a failed fetch: a system code where there is one, where, a phrase for it, and the errors' own words. */
export interface NetworkFailure {
  /** The system's code (ECONNREFUSED, a certificate's, …): fetch refuses some connections without one ("bad port"). */
  code?: string
  /** The host:port it was for. */
  address?: string
  phrase: string
  /** Every error under "fetch failed", in their own words, outermost first. */
  detail: string
}

/**
 * What the network said under a failed fetch ("fetch failed" hides it in `cause`): the code and the host:port
 * it was for (`url`'s when the error names none), a phrase for it, and the errors' own words; undefined when
 * it was no network error (an answer, the SDK's own timeout). Every way fetch fails to reach a server is one:
 * a refused or unreachable host, a certificate, a connection fetch itself refuses (a "bad port"), a timeout.
 */
export function networkFailure(error: unknown, url?: string): NetworkFailure | undefined {
  const found: { code?: string; addresses: string[]; words: string[]; fetchFailed: boolean; timedOut: boolean } = {
    addresses: [],
    words: [],
    fetchFailed: false,
    timedOut: false,
  }
  const visit = (e: unknown, depth: number) => {
    if (!e || typeof e !== 'object' || depth > 6) return
    const { code, address, port, errors, cause, message, name } = e as {
      code?: unknown
      address?: unknown
      port?: unknown
      errors?: unknown
      cause?: unknown
      message?: unknown
      name?: unknown
    }
    if (typeof code === 'string' && !found.code) found.code = code
    if (typeof address === 'string')
      found.addresses.push(`${address.includes(':') ? `[${address}]` : address}${typeof port === 'number' ? `:${port}` : ''}`)
    if (typeof message === 'string' && message.trim()) found.words.push(ownWords(message))
    if (e instanceof TypeError && message === 'fetch failed') found.fetchFailed = true
    if (name === 'TimeoutError') found.timedOut = true
    if (Array.isArray(errors)) for (const inner of errors) visit(inner, depth + 1)
    visit(cause, depth + 1)
  }
  visit(error, 0)
  let address = [...new Set(found.addresses)].join(', ') || undefined
  if (!address && url && URL.canParse(url)) {
    const u = new URL(url)
    address = `${u.hostname}:${u.port || (u.protocol === 'https:' ? 443 : 80)}`
  }
  const { code } = found
  const innermost = found.words.at(-1) ?? ''
  const phrase =
    (code && NETWORK_CODES[code]) ||
    (code && /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_)/.test(code) && `TLS failed: ${innermost}`) ||
    (found.timedOut && 'timed out waiting for an answer') ||
    (found.fetchFailed &&
      (innermost === 'bad port'
        ? `refused by fetch before connecting: port ${address?.split(':').at(-1) ?? '?'} is a "bad port" (one kept for another protocol)`
        : innermost)) ||
    undefined
  if (!phrase) return undefined
  return { ...(code && { code }), ...(address && { address }), phrase, detail: [...new Set(found.words)].join(': ') }
}

/** An error's words, without OpenSSL's location noise ("…:SSL routines:ssl3_get_record:wrong version number:…" says "wrong version number"). */
function ownWords(message: string): string {
  return (/SSL routines:[^:]*:([^:]+)/.exec(message)?.[1] ?? message).trim()
}

/** A network failure in one line: the phrase, where, and the code ("connection refused at 127.0.0.1:9 (ECONNREFUSED)"). */
export function networkPhrase(network: NetworkFailure): string {
  return `${network.phrase}${network.address ? ` at ${network.address}` : ''}${network.code ? ` (${network.code})` : ''}`
}

/** A network failure as a FailureCause's fields: the code, the host:port, and the errors' own words. */
export function networkCause(network: NetworkFailure): Pick<FailureCause, 'code' | 'address' | 'error'> {
  return { ...(network.code && { code: network.code }), ...(network.address && { address: network.address }), error: network.detail }
}
