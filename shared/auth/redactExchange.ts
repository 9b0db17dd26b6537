import { isSecretName, looksSecret, REDACTED } from '../contract'

/** OAuth parameters that carry a credential although their names do not say so (RFC 6749, 7636, 7523, 8693). */
const OAUTH_SECRETS = new Set(['code', 'code_verifier', 'assertion', 'client_assertion', 'subject_token', 'actor_token', 'id_token'])
const BODY_LIMIT = 64 * 1024

/** A parameter or field whose value must never be shown: OAuth's credentials and anything named like a secret. */
export function isSecretParam(name: string): boolean {
  return OAUTH_SECRETS.has(name) || isSecretName(name)
}

/** Headers as shown: an `Authorization` keeps its scheme (it says how the client authenticated), cookies go, and so does any value shaped like a credential. */
export function redactHeaders(headers: Headers | Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers ?? {})
  for (const [name, value] of entries) {
    const lower = name.toLowerCase()
    if (lower === 'authorization') out[lower] = `${value.split(' ')[0]} ${REDACTED}`
    else if (lower === 'dpop') out[lower] = dpopProofShown(value)
    else if (lower === 'dpop-nonce') out[lower] = value
    else if (lower === 'location' || lower === 'content-location') out[lower] = redactUrl(value)
    else out[lower] = isSecretName(lower) || looksSecret(value) ? REDACTED : value
  }
  return out
}

/** A DPoP proof as shown (RFC 9449): what it proves (method, URL, time, nonce) and the key's algorithm, its signature withheld. */
function dpopProofShown(proof: string): string {
  const shown = jwtWithoutSignature(proof)
  if (typeof shown !== 'object' || !shown) return REDACTED
  const { header, claims } = shown as { header: { typ?: string; alg?: string }; claims: Record<string, unknown> }
  return `${header.typ ?? 'jwt'} ${header.alg ?? ''} ${JSON.stringify(claims)} (signature ${REDACTED})`
}

/** A URL as shown: query parameters that carry credentials (an authorization code coming back) redacted. */
export function redactUrl(text: string): string {
  if (!URL.canParse(text)) return text
  const url = new URL(text)
  let changed = false
  for (const name of [...url.searchParams.keys()])
    if (isSecretParam(name)) {
      url.searchParams.set(name, REDACTED)
      changed = true
    }
  if (url.password) {
    url.password = REDACTED
    changed = true
  }
  return changed ? url.href : text
}

/**
 * A request or response body as shown: JSON and form bodies as objects with their credentials redacted
 * (a client assertion keeps its header and claims, which say who signed it for whom, but not its
 * signature); anything else as bounded text.
 */
export function redactBody(text: string, contentType: string): unknown {
  if (!text) return undefined
  if (/x-www-form-urlencoded/i.test(contentType) || (!/json/i.test(contentType) && /^[\w.-]+=[^&]*(&[\w.-]+=[^&]*)*$/.test(text))) {
    return redactFields(Object.fromEntries(new URLSearchParams(text)))
  }
  try {
    return redactFields(JSON.parse(text))
  } catch {
    return text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}…` : text
  }
}

function redactFields(value: unknown, depth = 0): unknown {
  if (depth > 20 || !value || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((item) => redactFields(item, depth + 1))
  const out: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    if (!isSecretParam(key) || typeof field !== 'string' || !field) out[key] = redactFields(field, depth + 1)
    else out[key] = key === 'client_assertion' || key === 'assertion' ? jwtWithoutSignature(field) : REDACTED
  }
  return out
}

/** A JWT's header and claims, its signature withheld (what a person checks: algorithm, issuer, audience, expiry). */
function jwtWithoutSignature(token: string): unknown {
  const [header, claims] = token.split('.')
  try {
    const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown
    return { jwt: REDACTED, header: decode(header), claims: decode(claims) }
  } catch {
    return REDACTED
  }
}
