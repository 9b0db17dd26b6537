import { createHash, createPrivateKey, generateKeyPairSync, randomUUID, sign, type JsonWebKey } from 'node:crypto'

/**
 * DPoP (RFC 9449, MCP's SEP-1932): tokens bound to a key Parallax holds, each request carrying a fresh proof
 * signed with it. The key (a P-256 private JWK) is kept with the target's other credentials in the secret
 * store; what is shown of it is its public thumbprint (RFC 7638).
 */
export interface DpopKey {
  alg: 'ES256'
  privateJwk: JsonWebKey
}

/** The proof algorithms Parallax signs with. */
export const DPOP_ALGS = ['ES256'] as const

export function newDpopKey(): DpopKey {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  return { alg: 'ES256', privateJwk: privateKey.export({ format: 'jwk' }) }
}

const publicJwk = ({ privateJwk: { kty, crv, x, y } }: DpopKey) => ({ kty, crv, x, y })

/** The key's JWK SHA-256 thumbprint (RFC 7638: the required members, in lexicographic order), as the token's `cnf.jkt` names it. */
export function dpopThumbprint(key: DpopKey): string {
  const { crv, kty, x, y } = publicJwk(key)
  return createHash('sha256').update(JSON.stringify({ crv, kty, x, y })).digest('base64url')
}

export interface ProofFor {
  method: string
  url: string
  /** The access token the request carries (its hash is the proof's `ath`); none at the token endpoint. */
  accessToken?: string
  /** The server's latest `DPoP-Nonce`. */
  nonce?: string
}

/** A DPoP proof JWT (RFC 9449 §4.2) for one request: a new `jti` each time, `htu` without query or fragment. */
export function dpopProof(key: DpopKey, request: ProofFor): string {
  const url = new URL(request.url)
  const header = { typ: 'dpop+jwt', alg: key.alg, jwk: publicJwk(key) }
  const claims = {
    jti: randomUUID(),
    htm: request.method.toUpperCase(),
    htu: `${url.origin}${url.pathname}`,
    iat: Math.floor(Date.now() / 1000),
    ...(request.nonce && { nonce: request.nonce }),
    ...(request.accessToken && { ath: createHash('sha256').update(request.accessToken, 'ascii').digest('base64url') }),
  }
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const input = `${part(header)}.${part(claims)}`
  const signature = sign('sha256', Buffer.from(input), {
    key: createPrivateKey({ key: key.privateJwk, format: 'jwk' }),
    dsaEncoding: 'ieee-p1363',
  })
  return `${input}.${signature.toString('base64url')}`
}

/** Whether a `WWW-Authenticate` header offers the DPoP scheme (RFC 9449 §7.1). */
export function offersDpop(header: string | null | undefined): boolean {
  return !!header && /(?:^|,)\s*dpop(?:\s|,|$)/i.test(header)
}

/**
 * The nonce a server asks a proof to carry (RFC 9449 §8, §9): an authorization server's 400 `use_dpop_nonce`
 * or a resource server's 401 `DPoP error="use_dpop_nonce"`, each with the nonce in `DPoP-Nonce`.
 */
export async function nonceAskedFor(response: Response): Promise<string | undefined> {
  const nonce = response.headers.get('dpop-nonce') ?? undefined
  if (!nonce) return undefined
  if (response.status === 401) return /error="?use_dpop_nonce"?/i.test(response.headers.get('www-authenticate') ?? '') ? nonce : undefined
  if (response.status !== 400) return undefined
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { error?: unknown } | undefined
  return body?.error === 'use_dpop_nonce' ? nonce : undefined
}

/**
 * A fetch that puts a proof on each token request (a POST with a `grant_type`, RFC 9449 §5) and, when the
 * authorization server asks for a nonce, sends the request once more with it (`onNonce` says so first).
 * The nonce it gave is kept for the next token request.
 */
export function proofsForTokenRequests(base: typeof fetch, key: DpopKey, onNonce: (nonce: string, url: string) => void): typeof fetch {
  let nonce: string | undefined
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET')
    const body =
      init?.body instanceof URLSearchParams ? init.body : typeof init?.body === 'string' ? new URLSearchParams(init.body) : undefined
    if (method.toUpperCase() !== 'POST' || !body?.has('grant_type')) return base(input, init)
    const send = () => {
      const headers = new Headers(init?.headers)
      headers.set('dpop', dpopProof(key, { method, url, nonce }))
      return base(input, { ...init, headers })
    }
    const response = await send()
    const asked = await nonceAskedFor(response)
    nonce = response.headers.get('dpop-nonce') ?? nonce
    if (!asked) return response
    onNonce(asked, url)
    await response.body?.cancel().catch(() => {})
    return send()
  }
}
