import type { IncomingHttpHeaders } from 'node:http'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import { redactMap, redactText, type SecretMatcher } from '../contract'
import type { FrameEvent } from '../contract'
import type { Exchange, ExchangeResponse } from './httpProxy'

/** The `http` a frame carries: the exchange it belongs to, secrets taken out of its headers and URL. */
export type FrameHttp = NonNullable<FrameEvent['http']>

/** Headers as one map of text, with every secret (by name, or by shape) redacted: nothing else reaches an event. */
export function recordedHeaders(headers: IncomingHttpHeaders, isSecret: SecretMatcher): Record<string, string> {
  const flat: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value
  return redactMap(flat, isSecret)
}

/** A URL as recorded: secrets in its query (a `code`, an `api_key`) redacted. */
export function recordedUrl(url: string, isSecret: SecretMatcher): string {
  return redactText(url, isSecret)
}

/** A body as text, decoded when the answer was compressed (what could not be decoded is said to be so). */
export function bodyText(body: Buffer, headers: IncomingHttpHeaders): string {
  const encoding = String(headers['content-encoding'] ?? '').toLowerCase()
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(body).toString('utf8')
    if (encoding === 'deflate') return inflateSync(body).toString('utf8')
    if (encoding === 'br') return brotliDecompressSync(body).toString('utf8')
  } catch {
    return `(a ${encoding} body Parallax could not decode)`
  }
  return body.toString('utf8')
}

export function parseJson(text: string): unknown {
  if (!text) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** The HTTP exchange a received frame belongs to, as recorded: the request's method and URL, the answer's status and headers (secrets redacted). */
export function answerHttp(exchange: Exchange, response: ExchangeResponse, isSecret: SecretMatcher): FrameHttp {
  return {
    method: exchange.method,
    url: recordedUrl(exchange.url, isSecret),
    status: response.status,
    ...(response.statusText && { statusText: response.statusText }),
    headers: recordedHeaders(response.headers, isSecret),
  }
}

/** A JSON-RPC message or batch: its messages, or undefined when the body is neither. */
export function jsonRpcMessages(parsed: unknown): Record<string, unknown>[] | undefined {
  const list = Array.isArray(parsed) ? parsed : [parsed]
  if (!list.length) return undefined
  const isMessage = (m: unknown) => !!m && typeof m === 'object' && !Array.isArray(m) && (m as { jsonrpc?: unknown }).jsonrpc === '2.0'
  return list.every(isMessage) ? (list as Record<string, unknown>[]) : undefined
}

/** The beginning of a body, for a line of the log. */
export function preview(text: string, max = 200): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max)}…` : line
}
