import type { AuthorizationServerMetadata } from '@modelcontextprotocol/sdk/shared/auth.js'
import { unsafeWebUrl } from '../contract'
import type { AuthSteps } from './authSteps'

/**
 * The issuers an authorization server may call itself: the identifier its metadata was found by (RFC 8414
 * §3.3: identical, so a trailing slash counts), or, where Parallax derived it from an origin (no identifier
 * was given: the 2025-03-26 fallback, an A2A card's endpoints), that origin written either way.
 */
export function acceptedIssuers(identifier: string, derivedFromOrigin: boolean): string[] {
  if (!derivedFromOrigin) return [identifier]
  const origin = new URL(identifier).origin
  return [origin, `${origin}/`]
}

/**
 * Refuses an authorization server Parallax must not use, said as a refused decision: metadata whose
 * `issuer` is not the identifier it was found by (a server answering for another), or an endpoint that
 * would be handed a person or a secret where it must not be (a scheme other than https, plain http
 * beyond this machine, characters no URL carries).
 */
export function checkAuthorizationServer(
  found: { authorizationServerUrl: string; metadata?: AuthorizationServerMetadata },
  issuers: string[],
  steps: AuthSteps,
): void {
  const { metadata } = found
  const refuse = (why: string): never => {
    steps.decision('authorization-server-metadata', 'refused the authorization server', why, true)
    throw new Error(`the authorization server cannot be used: ${why}`)
  }
  if (metadata && !issuers.includes(metadata.issuer))
    refuse(
      `its metadata says its issuer is "${metadata.issuer}", but it was found as "${issuers[0]}": RFC 8414 §3.3 requires them to be identical (metadata that names another issuer may be answering for another server)`,
    )
  const endpoints: [string, string | undefined][] = metadata
    ? [
        ['authorization_endpoint', metadata.authorization_endpoint],
        ['token_endpoint', metadata.token_endpoint],
        ['registration_endpoint', metadata.registration_endpoint],
      ]
    : // Without metadata, the default endpoints are on the authorization server's own address.
      [['address (its default endpoints)', found.authorizationServerUrl]]
  for (const [name, url] of endpoints) {
    const why = url === undefined ? undefined : unsafeWebUrl(url)
    if (why) refuse(`its ${name} ${JSON.stringify(url)} is refused: ${why}`)
  }
}
