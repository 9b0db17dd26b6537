import { discoverAuthorizationServerMetadata, discoverOAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/client/auth.js'
import type { AuthorizationServerMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js'
import { checkResourceAllowed, resourceUrlFromServerUrl } from '@modelcontextprotocol/sdk/shared/auth-utils.js'
import { errorMessage } from '../runtime/errors'
import type { AuthSteps } from './authSteps'
import type { CardAuthorization, Challenge } from './challenge'
import { checkAuthorizationServer, type IssuerRule } from './serverChecks'

export interface Discovered {
  resourceMetadata?: OAuthProtectedResourceMetadata
  /** The resource indicator sent with the authorization and token requests (RFC 8707): the metadata's `resource`, verbatim. */
  resource?: string
  authorizationServerUrl: string
  metadata?: AuthorizationServerMetadata
  /** What the authorization server may call itself (in its metadata, and in `iss` on the redirect back: RFC 9207). */
  issuer: IssuerRule
}

/**
 * Discovery as the MCP authorization spec orders it, each choice said: Protected Resource Metadata from the
 * challenge's `resource_metadata`, else the path-based then the root well-known location (RFC 9728); a
 * document whose `resource` is not this server is refused; then the authorization server's metadata
 * (RFC 8414, then OpenID Connect discovery); without resource metadata, the 2025-03-26 fallbacks (the
 * server's origin as authorization server, its default endpoints) — or, for an A2A agent, its card's scheme.
 * An authorization server whose metadata names another issuer, or whose endpoints are not safe to send a
 * person or a secret to, is refused (./serverChecks).
 */
export async function discover(
  serverUrl: string,
  challenge: Challenge | undefined,
  card: CardAuthorization | undefined,
  steps: AuthSteps,
  fetch: typeof globalThis.fetch,
): Promise<Discovered> {
  steps.decision(
    'resource-metadata',
    challenge?.resourceMetadata ? `resource metadata at ${challenge.resourceMetadata}` : 'resource metadata at the well-known locations',
    challenge?.resourceMetadata
      ? 'the challenge names it (resource_metadata)'
      : `${challenge ? 'the challenge names no resource_metadata' : 'no challenge yet'}: the path-based location first, then the root (RFC 9728)`,
  )
  let resourceMetadata: OAuthProtectedResourceMetadata | undefined
  try {
    resourceMetadata = await discoverOAuthProtectedResourceMetadata(
      serverUrl,
      challenge?.resourceMetadata ? { resourceMetadataUrl: challenge.resourceMetadata } : undefined,
      fetch,
    )
  } catch (error) {
    steps.decision('resource-metadata', 'no resource metadata', errorMessage(error))
  }
  let resource: string | undefined
  let authorizationServerUrl: string
  /** Parallax took the server's origin as the authorization server: no identifier was given to hold it to. */
  let derived = false
  if (resourceMetadata) {
    const expected = resourceUrlFromServerUrl(serverUrl).href
    if (!checkResourceAllowed({ requestedResource: expected, configuredResource: resourceMetadata.resource })) {
      const why = `its resource is ${resourceMetadata.resource}, but this server is ${expected}: a token for it must not be sought for this one (RFC 9728 §3.3)`
      steps.decision('resource-metadata', 'refused the resource metadata', why, true)
      throw new Error(`refused the protected resource metadata: ${why}`)
    }
    resource = resourceMetadata.resource
    const servers = resourceMetadata.authorization_servers ?? []
    if (servers.length) {
      authorizationServerUrl = servers[0]
      steps.decision(
        'authorization-server-metadata',
        `authorization server ${authorizationServerUrl}`,
        servers.length > 1 ? `the first of the ${servers.length} the resource metadata lists` : 'the one the resource metadata lists',
      )
    } else {
      authorizationServerUrl = new URL('/', serverUrl).href
      derived = true
      steps.decision(
        'authorization-server-metadata',
        `authorization server ${authorizationServerUrl}`,
        'the resource metadata lists none: the server’s origin',
      )
    }
  } else if (card?.authorizationUrl || card?.tokenUrl || card?.openIdConnectUrl) {
    return fromCard(card, steps, fetch)
  } else {
    authorizationServerUrl = new URL('/', serverUrl).href
    derived = true
    steps.decision(
      'authorization-server-metadata',
      `authorization server ${authorizationServerUrl}`,
      'without resource metadata, the server’s origin is its authorization server (MCP 2025-03-26)',
    )
  }
  const metadata = await discoverAuthorizationServerMetadata(authorizationServerUrl, { fetchFn: fetch })
  steps.decision(
    'authorization-server-metadata',
    metadata ? `endpoints from the metadata of ${metadata.issuer}` : 'default endpoints /authorize, /token, /register',
    metadata
      ? 'found at the first well-known location that answered (OAuth 2.0 metadata, then OpenID Connect discovery)'
      : 'no metadata at any well-known location: the 2025-03-26 fallback endpoints on the authorization server’s origin',
  )
  const issuer = { identifier: authorizationServerUrl, originOnly: derived }
  checkAuthorizationServer({ authorizationServerUrl, metadata }, issuer, steps)
  return { resourceMetadata, resource, authorizationServerUrl, metadata, issuer }
}

/** An A2A card's OAuth 2 flow (or OpenID Connect discovery URL) as authorization server metadata. */
async function fromCard(card: CardAuthorization, steps: AuthSteps, fetch: typeof globalThis.fetch): Promise<Discovered> {
  if (card.openIdConnectUrl) {
    const response = await fetch(card.openIdConnectUrl, { headers: { Accept: 'application/json' } })
    if (!response.ok) throw new Error(`the card's OpenID Connect URL ${card.openIdConnectUrl} answered HTTP ${response.status}`)
    const metadata = (await response.json()) as AuthorizationServerMetadata
    steps.decision(
      'authorization-server-metadata',
      `endpoints from ${card.openIdConnectUrl}`,
      `the agent card's security scheme "${card.scheme}" (OpenID Connect)`,
    )
    // OpenID Connect Discovery §4.3: the issuer is the URL the configuration document hangs from.
    const identifier = /^(.*)\/\.well-known\/openid-configuration$/.exec(card.openIdConnectUrl)?.[1]
    const issuer: IssuerRule = identifier ? { identifier, originOnly: false } : { identifier: card.openIdConnectUrl, originOnly: true }
    checkAuthorizationServer({ authorizationServerUrl: metadata.issuer, metadata }, issuer, steps)
    return { authorizationServerUrl: metadata.issuer, metadata, issuer }
  }
  const base = card.tokenUrl ?? card.authorizationUrl!
  const metadata = {
    issuer: new URL(base).origin,
    authorization_endpoint: card.authorizationUrl ?? new URL('/authorize', base).href,
    token_endpoint: card.tokenUrl ?? new URL('/token', base).href,
    response_types_supported: ['code'],
    grant_types_supported: [
      ...(card.authorizationUrl ? ['authorization_code', 'refresh_token'] : []),
      ...(card.clientCredentials ? ['client_credentials'] : []),
    ],
    code_challenge_methods_supported: ['S256'],
    ...(card.scopes.length && { scopes_supported: card.scopes }),
  } as AuthorizationServerMetadata
  steps.decision(
    'authorization-server-metadata',
    `endpoints from the agent card`,
    `its security scheme "${card.scheme}" names them (OAuth 2 flows)`,
  )
  const issuer = { identifier: metadata.issuer, originOnly: true }
  checkAuthorizationServer({ authorizationServerUrl: metadata.issuer, metadata }, issuer, steps)
  return { authorizationServerUrl: metadata.issuer, metadata, issuer }
}
