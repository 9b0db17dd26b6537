import type { AddClientAuthentication, OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import { PARALLAX_VERSION } from '../version'
import type { TargetCredentials } from './credentials'

/** The JWT bearer grant's type (RFC 7523 §2.1). */
export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer'

export interface ProviderOptions {
  /** The loopback redirect URI; absent for a grant without a browser (client credentials). */
  redirectUri?: string
  state: string
  scope?: string
  clientMetadataUrl?: string
  /** Client credentials: the grant's own parameters instead of an authorization code. */
  clientCredentials?: boolean
  /** A workload identity token: the JWT bearer grant (RFC 7523) with it as the assertion, instead of an authorization code. */
  assertion?: string
  /** `private_key_jwt`: signs a client assertion into each token request. */
  addClientAuthentication?: AddClientAuthentication
  discovery: OAuthDiscoveryState
  /** Whether the tokens held may be used (a refresh) or a new grant is wanted (a sign-in, a step-up). */
  useHeldTokens: boolean
}

/**
 * The MCP SDK's `OAuthClientProvider` over one target's credentials, for one sign-in: the SDK's `auth()`
 * does discovery (from the state this flow already discovered), registration, PKCE, the authorization URL
 * and the token request through it; what it saves lands in `credentials`, which the flow then stores.
 */
export class FlowProvider implements OAuthClientProvider {
  /** The authorization URL the SDK built, for a browser to open (or Parallax to follow, headless). */
  authorizationUrl: URL | undefined
  private verifier = ''
  readonly addClientAuthentication: AddClientAuthentication | undefined
  readonly clientMetadataUrl: string | undefined

  constructor(
    readonly credentials: TargetCredentials,
    private readonly options: ProviderOptions,
  ) {
    this.addClientAuthentication = options.addClientAuthentication
    this.clientMetadataUrl = options.clientMetadataUrl
  }

  get redirectUrl(): string | undefined {
    return this.machineGrant ? undefined : this.options.redirectUri
  }

  /** A grant without a person or a redirect: client credentials, or a workload's JWT. */
  private get machineGrant(): string | undefined {
    return this.options.assertion !== undefined ? JWT_BEARER : this.options.clientCredentials ? 'client_credentials' : undefined
  }

  get clientMetadata(): OAuthClientMetadata & { application_type: 'native' } {
    return {
      client_name: 'Parallax',
      // SEP-837 (OpenID Dynamic Client Registration's application_type): Parallax runs on the user's machine and
      // its redirect is a loopback listener there, a native application's (RFC 8252); a machine client has no redirect and is one too.
      application_type: 'native',
      software_id: 'parallax',
      software_version: PARALLAX_VERSION,
      redirect_uris: this.options.redirectUri ? [this.options.redirectUri] : [],
      // A refresh token keeps a session signed in; asking for the grant type says the client can use one.
      grant_types: this.machineGrant ? [this.machineGrant] : ['authorization_code', 'refresh_token'],
      response_types: this.machineGrant ? [] : ['code'],
      token_endpoint_auth_method: this.addClientAuthentication ? 'private_key_jwt' : 'none',
      ...(this.options.scope && { scope: this.options.scope }),
    }
  }

  state(): string {
    return this.options.state
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.credentials.client
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    if (this.credentials.registration !== 'pre-registered')
      this.credentials.registration = information.client_id === this.clientMetadataUrl ? 'metadata-document' : 'dynamic'
    this.credentials.client = information
    this.credentials.redirectUris = this.options.redirectUri ? [this.options.redirectUri] : []
  }

  tokens(): OAuthTokens | undefined {
    return this.options.useHeldTokens ? this.credentials.tokens : undefined
  }

  saveTokens(tokens: OAuthTokens): void {
    this.credentials.tokens = tokens
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier
  }

  codeVerifier(): string {
    return this.verifier
  }

  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    const grant = this.machineGrant
    if (!grant) return undefined
    const params = new URLSearchParams({ grant_type: grant })
    if (this.options.assertion !== undefined) params.set('assertion', this.options.assertion)
    const asked = this.options.scope ?? scope
    if (asked) params.set('scope', asked)
    return params
  }

  /** The SDK forgets what the server refused (an invalid client, a spent grant) before trying once more; a pre-registered client is the user's and stays. */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if ((scope === 'all' || scope === 'client') && this.credentials.registration !== 'pre-registered') {
      this.credentials.client = undefined
      this.credentials.registration = undefined
    }
    if (scope === 'all' || scope === 'tokens') this.credentials.tokens = undefined
    if (scope === 'all' || scope === 'verifier') this.verifier = ''
  }

  discoveryState(): OAuthDiscoveryState {
    return this.options.discovery
  }

  saveDiscoveryState(): void {
    // Discovery is this flow's own (each step said as it happened): the SDK's copy adds nothing.
  }
}
