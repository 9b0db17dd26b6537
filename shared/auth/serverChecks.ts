import type { AuthorizationServerMetadata } from '@modelcontextprotocol/sdk/shared/auth.js'
import { unsafeWebUrl } from '../contract'
import type { AuthSteps } from './authSteps'

/**
 * What an authorization server may call itself: the identifier its metadata was found by (RFC 8414 §3.3:
 * identical, so a trailing slash counts); or, where no identifier was given and Parallax took the origin
 * (MCP 2025-03-26, without resource metadata; an A2A card's endpoints), any issuer on that origin.
 */
export interface IssuerRule {
  identifier: string
  /** No identifier was given: the origin is all there is to hold the issuer to. */
  originOnly: boolean
}

export function issuerFits(rule: IssuerRule, issuer: string): boolean {
  if (!rule.originOnly) return issuer === rule.identifier
  return URL.canParse(issuer) && new URL(issuer).origin === new URL(rule.identifier).origin
}

/**
 * Refuses an authorization server Parallax must not use, said as a refused decision: metadata whose
 * `issuer` is not the identifier it was found by (a server answering for another), or an endpoint that
 * would be handed a person or a secret where it must not be (a scheme other than https, plain http
 * beyond this machine, characters no URL carries).
 */
export function checkAuthorizationServer(
  found: { authorizationServerUrl: string; metadata?: AuthorizationServerMetadata },
  issuer: IssuerRule,
  steps: AuthSteps,
): void {
  const { metadata } = found
  const refuse = (why: string): never => {
    steps.decision('authorization-server-metadata', 'refused the authorization server', why, true)
    throw new Error(`the authorization server cannot be used: ${why}`)
  }
  if (metadata && !issuerFits(issuer, metadata.issuer))
    refuse(
      issuer.originOnly
        ? `its metadata says its issuer is "${metadata.issuer}", which is not on ${new URL(issuer.identifier).origin}, where the metadata was found: it may be answering for another server`
        : `its metadata says its issuer is "${metadata.issuer}", but it was found as "${issuer.identifier}": RFC 8414 §3.3 requires them to be identical (metadata that names another issuer may be answering for another server)`,
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
