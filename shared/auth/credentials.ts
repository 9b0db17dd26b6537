import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import type { AuthGrant, ClientRegistrationKind } from '../contract'
import type { DpopKey } from './dpop'
import type { SecretStore } from './secretStore'

/** What is kept to authorize one target, in the secret store. */
export interface TargetCredentials {
  /** The server these were obtained for: a target pointed at another URL starts afresh. */
  serverUrl: string
  tokens?: OAuthTokens
  /** What a person checks about the token (scopes, expiry); never the token. */
  grant?: AuthGrant
  client?: OAuthClientInformationMixed
  registration?: ClientRegistrationKind
  /** The redirect URIs the client was registered with (a dynamic registration for another loopback port is made again). */
  redirectUris?: string[]
  /** The user's client secret for a saved target (moved here from the target, which keeps no secret). */
  clientSecret?: string
  /** The private key DPoP-bound tokens are bound to (RFC 9449): only its thumbprint is ever shown. */
  dpop?: DpopKey
}

/** One entry per target and server: the CLI's unsaved targets share an id, never a server's tokens. */
const keyOf = (targetId: string, serverUrl: string) => `auth:${targetId}@${serverUrl}`

/** One target's credentials in the secret store, read and written whole. */
export class CredentialVault {
  constructor(readonly store: SecretStore) {}

  async read(targetId: string, serverUrl: string): Promise<TargetCredentials> {
    const text = await this.store.get(keyOf(targetId, serverUrl)).catch(() => undefined)
    if (!text) return { serverUrl }
    try {
      const stored = JSON.parse(text) as TargetCredentials
      // Credentials go only to the server they were obtained for; the user's own client secret stays.
      if (stored.serverUrl !== serverUrl) return { serverUrl, ...(stored.clientSecret && { clientSecret: stored.clientSecret }) }
      return stored
    } catch {
      return { serverUrl }
    }
  }

  async write(targetId: string, credentials: TargetCredentials): Promise<void> {
    await this.store.set(keyOf(targetId, credentials.serverUrl), JSON.stringify(credentials))
  }

  async clear(targetId: string, serverUrl: string): Promise<void> {
    await this.store.set(keyOf(targetId, serverUrl), undefined)
  }
}
