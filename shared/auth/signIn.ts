import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { auth, selectClientAuthMethod, type AddClientAuthentication } from '@modelcontextprotocol/sdk/client/auth.js'
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js'
import { unsafeWebUrl, type AuthGrant, type OAuthSettings } from '../contract'
import type { AuthSteps } from './authSteps'
import { readClientKey } from './clientKey'
import type { TargetCredentials } from './credentials'
import type { CardAuthorization, Challenge } from './challenge'
import { discover, type Discovered } from './discovery'
import { DPOP_ALGS, dpopThumbprint, newDpopKey, offersDpop, proofsForTokenRequests, type DpopKey } from './dpop'
import { followAuthorization } from './headless'
import { LoopbackRedirect } from './loopback'
import { issuerFits } from './serverChecks'
import { FlowProvider, JWT_BEARER } from './provider'
import { chooseScopes, scopeList } from './scopes'

/** How long a sign-in waits for the browser to come back. */
export const BROWSER_WAIT_MS = 10 * 60_000

/** RFC 8693's token type of an identity assertion JWT authorization grant (SEP-990). */
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag'

/** A JWT read from a file now (a platform or a sign-in rotates it), else why not. */
async function readJwt(file: string, what: string): Promise<string> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new Error(`${what} ${file} cannot be read (${error.code ?? error.message})`)
  })
  const token = text.trim()
  if (!/^[\w-]+\.[\w-]+\.[\w-]*$/.test(token)) throw new Error(`${what} ${file} is not a JWT`)
  return token
}

/** Why a grant needs a person, and how to give one. */
function personNeeded(found: Discovered): string {
  const where = new URL(found.metadata?.authorization_endpoint ?? found.authorizationServerUrl).origin
  return `a person must sign in at the authorization server (${where}): sign in with a browser, or headless for a server that approves without one (--oauth-headless on the command line)`
}

/** The loopback port a client was registered with (its redirect URI's), to listen on again: 0 when there is none. */
function registeredPort(redirectUris: string[] | undefined): number {
  const uri = redirectUris?.find((u) => URL.canParse(u) && new URL(u).hostname === '127.0.0.1')
  return uri ? Number(new URL(uri).port) || 0 : 0
}

/** A sign-in that needs a person (a browser), asked for where none can be asked (a connection's own request). */
export class PersonNeeded extends Error {
  constructor(readonly why: string) {
    super(why)
    this.name = 'PersonNeeded'
  }
}

export interface SignInRequest {
  targetId: string
  /** The protected resource: the MCP endpoint, or the A2A agent's URL. */
  serverUrl: string
  settings: OAuthSettings
  challenge?: Challenge
  card?: CardAuthorization
  /** More scopes than the challenge names (`auth.begin`'s `scope`). */
  askedScope?: string
  /** Step-up: the scopes held, kept in the new grant. */
  held?: string[]
  /** A person is there to open the authorization URL; without one, a grant that needs one fails with PersonNeeded. */
  person: boolean
  /** Try the refresh token held before anything else. */
  refresh: boolean
}

/**
 * One sign-in, as the MCP authorization spec has it: discovery, the grant and scopes chosen, the client
 * identified (pre-registered, a client metadata document, or dynamic registration), then the MCP SDK's
 * `auth()` (PKCE S256, the `resource` parameter, the token endpoint's client authentication) through a
 * fetch that says every exchange; the code comes back through the loopback redirect, from a browser or
 * from following the redirects headless. What it obtains lands in `credentials`.
 */
export class SignIn {
  authorizationUrl: string | undefined
  redirectUri: string | undefined
  private loopback: LoopbackRedirect | undefined
  private readonly abort = new AbortController()
  private provider: FlowProvider | undefined
  private found: Discovered | undefined
  private requested: string[] = []
  private fetch: typeof globalThis.fetch
  private dpop: DpopKey | undefined

  constructor(
    private readonly request: SignInRequest,
    readonly credentials: TargetCredentials,
    readonly steps: AuthSteps,
    base: typeof globalThis.fetch,
  ) {
    this.fetch = steps.recordingFetch(base)
  }

  get flowId(): string {
    return this.steps.flowId
  }

  /** Runs until authorized, or until the browser must come back (`waiting`: the authorization URL is set). */
  async start(): Promise<'authorized' | 'waiting'> {
    try {
      return await this.run()
    } catch (error) {
      await this.loopback?.close()
      throw error
    }
  }

  private async run(): Promise<'authorized' | 'waiting'> {
    const { request, steps } = this
    const found = (this.found = await discover(request.serverUrl, request.challenge, request.card, steps, this.fetch))
    const grant = this.chooseGrant(found)
    this.dpop = this.chooseDpop(found)
    if (this.dpop)
      this.fetch = proofsForTokenRequests(this.fetch, this.dpop, (nonce, url) =>
        steps.decision(
          'token',
          'token request sent again with the server’s DPoP nonce',
          `${new URL(url).origin} answered use_dpop_nonce with a nonce ("${nonce}") its proofs must carry (RFC 9449 §8)`,
        ),
      )
    const { scopes, why, offlineAccess } = chooseScopes({
      challengeScope: request.challenge?.scope,
      settingsScope: request.settings.scope,
      askedScope: request.askedScope,
      resourceMetadata: found.resourceMetadata,
      metadata: found.metadata,
      cardScopes: request.card?.scopes,
      held: request.held,
      refreshable: grant === 'authorization_code',
    })
    this.requested = scopes
    steps.decision(request.held ? 'step-up' : 'authorization', scopes.length ? `scope "${scopes.join(' ')}"` : 'no scope', why)
    if (offlineAccess)
      steps.decision('authorization', scopes.includes('offline_access') ? 'offline_access asked for' : 'no offline_access', offlineAccess)
    if (grant === 'authorization_code') {
      const methods = found.metadata?.code_challenge_methods_supported
      if (found.metadata && !methods?.includes('S256')) {
        const why = methods
          ? `it supports only ${methods.join(', ')}`
          : 'its metadata lists no code_challenge_methods_supported, so it does not support PKCE'
        steps.decision(
          'authorization-server-metadata',
          'refused the authorization server',
          `${why}; the MCP spec requires PKCE with S256`,
          true,
        )
        throw new Error(`the authorization server cannot be used: ${why} (PKCE S256 is required)`)
      }
      // A grant only a person can give, asked for where none can be asked: said before anything is registered.
      const refreshHeld = request.refresh && !!this.credentials.tokens?.refresh_token
      if (request.settings.headless !== true && !request.person && !refreshHeld) throw new PersonNeeded(personNeeded(found))
      this.loopback = new LoopbackRedirect(randomBytes(24).toString('base64url'), (callback) => this.wrongIssuer(callback.iss))
      this.redirectUri = await this.loopback.listen(registeredPort(this.credentials.redirectUris))
    }
    const addClientAuthentication = await this.chooseClient(found, grant)
    this.provider = new FlowProvider(this.credentials, {
      redirectUri: this.redirectUri,
      state: this.loopback?.state ?? '',
      ...(scopes.length && { scope: scopes.join(' ') }),
      clientMetadataUrl: request.settings.clientMetadataUrl,
      clientCredentials: grant === 'client_credentials',
      ...(grant === 'jwt_bearer' && { assertion: await this.obtainAssertion(found, scopes) }),
      addClientAuthentication,
      discovery: {
        authorizationServerUrl: found.authorizationServerUrl,
        authorizationServerMetadata: found.metadata,
        resourceMetadata: found.resourceMetadata,
        resourceMetadataUrl: request.challenge?.resourceMetadata,
      },
      useHeldTokens: request.refresh,
    })
    const heldRefresh = request.refresh && !!this.credentials.tokens?.refresh_token
    if (heldRefresh) steps.decision('refresh', 'refresh the token held', 'a refresh token is held: no person needed')
    const result = await this.authorize()
    if (result === 'AUTHORIZED') {
      this.granted(grant === 'authorization_code' ? 'refresh_token' : grant)
      return 'authorized'
    }
    this.authorizationUrl = this.provider.authorizationUrl!.href
    const headless = request.settings.headless === true
    if (!headless && !request.person) {
      await this.loopback?.close()
      throw new PersonNeeded(personNeeded(found))
    }
    steps.emit({
      step: 'authorize',
      phase: 'authorization',
      summary: headless
        ? `following the authorization URL without a browser (headless)`
        : `waiting for the browser to come back to ${this.redirectUri}`,
      authorize: {
        url: this.authorizationUrl,
        redirectUri: this.redirectUri!,
        mode: headless ? 'headless' : 'browser',
        ...(!headless && { waitsUntil: Date.now() + BROWSER_WAIT_MS }),
      },
    })
    if (!headless) return 'waiting'
    await followAuthorization(this.authorizationUrl, this.redirectUri!, this.fetch)
    await this.finish()
    return 'authorized'
  }

  /** Waits for the redirect back (state checked), then exchanges the code for tokens. */
  async finish(): Promise<void> {
    const loopback = this.loopback!
    try {
      const timeout = AbortSignal.timeout(BROWSER_WAIT_MS)
      const callback = await loopback.wait(AbortSignal.any([this.abort.signal, timeout]))
      const { stateMatched, error, errorDescription, iss, refused } = callback
      this.steps.emit({
        step: 'callback',
        phase: 'authorization',
        summary: !stateMatched
          ? 'the redirect came back with another state: refused (it is not the answer to Parallax’s request)'
          : refused
            ? `the redirect came back refused: ${refused}`
            : error
              ? `the authorization server said ${error}${errorDescription ? `: ${errorDescription}` : ''}`
              : `the redirect came back with a code, state matched${iss !== undefined ? `, from issuer ${iss}` : ''}`,
        callback: {
          stateMatched,
          ...(error && { error }),
          ...(errorDescription && { errorDescription }),
          ...(iss !== undefined && { iss }),
          ...(refused && { refused }),
        },
      })
      if (!stateMatched) throw new Error('the redirect’s state did not match the request Parallax made (refused)')
      if (refused) throw new Error(`the redirect back was refused: ${refused}`)
      if (error) throw new Error(`the authorization server refused: ${error}${errorDescription ? ` (${errorDescription})` : ''}`)
      if (!callback.code) throw new Error('the redirect came back without a code')
      this.sayIssuerAccepted(iss)
      this.sayClientAuthentication()
      await this.authorize(callback.code)
      this.granted('authorization_code')
    } finally {
      await loopback.close()
    }
  }

  /**
   * Why the redirect back is not the answer of the authorization server Parallax asked (RFC 9207, and MCP's
   * SEP-2468): an `iss` naming another issuer; or none, from a server whose metadata says it always sends one.
   */
  private wrongIssuer(iss: string | undefined): string | undefined {
    const found = this.found!
    const fits = (claimed: string) => (found.metadata ? claimed === found.metadata.issuer : issuerFits(found.issuer, claimed))
    if (iss === undefined) {
      const promised = (found.metadata as { authorization_response_iss_parameter_supported?: unknown } | undefined)
        ?.authorization_response_iss_parameter_supported
      return promised === true
        ? `it carries no iss, though the authorization server's metadata says its answers always do (authorization_response_iss_parameter_supported): it may be another server's answer (RFC 9207)`
        : undefined
    }
    if (fits(iss)) return undefined
    const asked = found.metadata?.issuer ?? found.issuer.identifier
    const sameOnceNormalised = URL.canParse(iss) && URL.canParse(asked) && new URL(iss).href === new URL(asked).href
    return sameOnceNormalised
      ? `its iss is "${iss}", and the issuer Parallax asked is "${asked}": they differ only in form, but an iss is compared as an exact string, never normalised (SEP-2468, RFC 9207): refused`
      : `its iss is "${iss}", but Parallax asked the authorization server "${asked}": an answer from another server is refused (RFC 9207, a mix-up attack)`
  }

  /** Why an answer's `iss` (or its absence) was taken, said as a step: the refusals are said by the callback itself. */
  private sayIssuerAccepted(iss: string | undefined): void {
    const metadata = this.found?.metadata
    if (iss !== undefined)
      this.steps.decision(
        'authorization',
        `iss "${iss}" accepted`,
        metadata
          ? 'it is exactly the issuer of the authorization server’s metadata (RFC 9207, SEP-2468): the answer comes from the server Parallax asked'
          : 'the authorization server has no metadata; the iss is on its origin',
      )
    else
      this.steps.decision(
        'authorization',
        'no iss, accepted',
        'the authorization server’s metadata does not say its answers carry iss (authorization_response_iss_parameter_supported), so the answer is taken on its state (RFC 9207, SEP-2468)',
      )
  }

  cancel(reason: string): void {
    this.abort.abort(new Error(reason))
  }

  private async authorize(authorizationCode?: string) {
    const resourceMetadataUrl = this.request.challenge?.resourceMetadata
    return auth(this.provider!, {
      serverUrl: this.request.serverUrl,
      ...(authorizationCode && { authorizationCode }),
      ...(resourceMetadataUrl && { resourceMetadataUrl: new URL(resourceMetadataUrl) }),
      ...(this.requested.length && { scope: this.requested.join(' ') }),
      fetchFn: this.fetch,
    })
  }

  /** The JWT bearer grant's assertion: an ID-JAG from the identity provider, or the workload identity token. */
  private obtainAssertion(found: Discovered, scopes: string[]): Promise<string> {
    const { idTokenFile, assertionFile } = this.request.settings
    return idTokenFile ? this.exchangeIdToken(found, scopes) : readJwt(assertionFile!, 'the workload identity token')
  }

  /**
   * SEP-990: the ID token exchanged at the identity provider (RFC 8693) for an ID-JAG naming this
   * authorization server (audience) and this server (resource).
   */
  private async exchangeIdToken(found: Discovered, scopes: string[]): Promise<string> {
    const { idTokenFile, idpTokenEndpoint, idpClientId } = this.request.settings
    const endpoint = idpTokenEndpoint ?? ''
    const unsafe = unsafeWebUrl(endpoint)
    if (unsafe) throw new Error(`the identity provider's token endpoint ${JSON.stringify(endpoint)} is refused: ${unsafe}`)
    const body = new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: ID_JAG,
      subject_token: await readJwt(idTokenFile!, 'the ID token'),
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      audience: found.metadata?.issuer ?? found.authorizationServerUrl,
      resource: found.resource ?? this.request.serverUrl,
      ...(scopes.length && { scope: scopes.join(' ') }),
      ...(idpClientId && { client_id: idpClientId }),
    })
    const response = await this.fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
    })
    const answer = (await response.json().catch(() => ({}))) as { access_token?: unknown; issued_token_type?: unknown; error?: unknown }
    if (!response.ok || typeof answer.access_token !== 'string')
      throw new Error(
        `the identity provider did not exchange the ID token (HTTP ${response.status}${typeof answer.error === 'string' ? `, ${answer.error}` : ''})`,
      )
    if (answer.issued_token_type !== ID_JAG)
      throw new Error(`the identity provider issued ${String(answer.issued_token_type)}, not an ID-JAG (${ID_JAG})`)
    this.steps.decision(
      'token',
      'identity assertion grant obtained',
      `the identity provider issued an ID-JAG for ${body.get('audience')}: it is the assertion of the JWT bearer grant`,
    )
    return answer.access_token
  }

  /**
   * DPoP (RFC 9449, SEP-1932) when the authorization server takes proofs (`dpop_signing_alg_values_supported`)
   * or the server's challenge is `DPoP`: the key held for the target, else a new one (kept with its credentials).
   */
  private chooseDpop(found: Discovered): DpopKey | undefined {
    const listed = (found.metadata as { dpop_signing_alg_values_supported?: unknown } | undefined)?.dpop_signing_alg_values_supported
    const algs = Array.isArray(listed) ? listed.filter((alg): alg is string => typeof alg === 'string') : []
    const challenged = offersDpop(this.request.challenge?.header)
    if (!algs.length && !challenged) return undefined
    const usable = DPOP_ALGS.filter((alg) => !algs.length || algs.includes(alg))
    if (!usable.length) {
      this.steps.decision(
        'token',
        'bearer tokens, no DPoP',
        `the authorization server takes DPoP proofs signed with ${algs.join(', ')} only; Parallax signs them with ${DPOP_ALGS.join(', ')}`,
      )
      return undefined
    }
    const held = !!this.credentials.dpop
    const key = (this.credentials.dpop ??= newDpopKey())
    const asked = [
      ...(algs.length ? [`the authorization server takes DPoP proofs (dpop_signing_alg_values_supported: ${algs.join(', ')})`] : []),
      ...(challenged ? ['the server’s challenge asks for DPoP'] : []),
    ]
    this.steps.decision(
      'token',
      `DPoP-bound token (${key.alg}, key ${dpopThumbprint(key)})`,
      `${asked.join('; ')}: the token is bound to ${held ? 'the key Parallax holds for this server' : 'a new key'}, kept in the secret store; each token and resource request carries a fresh proof signed with it (RFC 9449)`,
    )
    return key
  }

  /** Client credentials for a machine client (asked for, or the only grant the server offers that the credentials fit); else the authorization code. */
  private chooseGrant(found: Discovered): 'authorization_code' | 'client_credentials' | 'jwt_bearer' {
    const { settings } = this.request
    const grants = found.metadata?.grant_types_supported
    const asserted = settings.grant === undefined || settings.grant === 'auto' || settings.grant === 'jwt_bearer'
    if (settings.idTokenFile && asserted) {
      this.steps.decision(
        'token',
        'enterprise-managed authorization (ID-JAG)',
        `your settings give an ID token from your identity provider: it is exchanged there (${settings.idpTokenEndpoint}) for an identity assertion grant for this authorization server (RFC 8693), which the JWT bearer grant trades for an access token (RFC 7523, SEP-990): no browser`,
      )
      return 'jwt_bearer'
    }
    if (settings.assertionFile && asserted) {
      this.steps.decision(
        'token',
        'JWT bearer grant (workload identity)',
        `your settings give a workload identity token (${settings.assertionFile}): it is exchanged for an access token (RFC 7523, SEP-1933), no person and no client secret${grants && !grants.includes(JWT_BEARER) ? `; the authorization server does not list ${JWT_BEARER} among its grants, so it may refuse` : ''}`,
      )
      return 'jwt_bearer'
    }
    const canProve = !!settings.clientId && !!(settings.clientSecret ?? this.credentials.clientSecret ?? settings.clientKeyFile)
    if (settings.grant === 'client_credentials') {
      this.steps.decision('token', 'client credentials grant', 'your settings ask for it (a machine client, no person)')
      return 'client_credentials'
    }
    if (
      settings.grant !== 'authorization_code' &&
      grants &&
      !grants.includes('authorization_code') &&
      grants.includes('client_credentials') &&
      canProve
    ) {
      this.steps.decision(
        'token',
        'client credentials grant',
        'the authorization server offers client_credentials and not authorization_code, and you gave a client id with a secret or key',
      )
      return 'client_credentials'
    }
    this.steps.decision(
      'authorization',
      'authorization code grant with PKCE (S256)',
      'a person (or, headless, Parallax) approves at the authorization server; the MCP spec’s grant for user-facing clients',
    )
    return 'authorization_code'
  }

  /** Who Parallax is to the authorization server, said with why; and, with a key, the signed client assertion it authenticates with. */
  private async chooseClient(found: Discovered, grant: string): Promise<AddClientAuthentication | undefined> {
    const { settings } = this.request
    const { credentials, steps } = this
    const metadata = found.metadata
    if (settings.clientId) {
      const secret = settings.clientSecret ?? credentials.clientSecret
      credentials.client = { client_id: settings.clientId, ...(secret && { client_secret: secret }) }
      credentials.registration = 'pre-registered'
      steps.decision(
        'registration',
        `pre-registered client ${settings.clientId}`,
        `your settings name it${secret ? ' (with a secret)' : ''}${settings.clientKeyFile ? ' (with a key)' : ''}`,
      )
    } else if (grant === 'client_credentials') {
      throw new Error('the client credentials grant needs a client id (--client-id) with a secret or a key')
    } else if (grant === 'jwt_bearer') {
      throw new Error('the JWT bearer grant needs the client id the workload is known by at the authorization server (--client-id)')
    } else if (this.request.refresh && credentials.client && credentials.tokens?.refresh_token) {
      steps.decision('registration', `client ${credentials.client.client_id}`, 'the client the refresh token was issued to')
    } else if (
      credentials.client &&
      credentials.registration !== 'pre-registered' &&
      (credentials.registration === 'metadata-document'
        ? credentials.client.client_id === settings.clientMetadataUrl
        : credentials.redirectUris?.includes(this.redirectUri!))
    ) {
      steps.decision('registration', `client ${credentials.client.client_id}`, `registered earlier (${credentials.registration})`)
    } else {
      credentials.client = undefined
      credentials.registration = undefined
      if (metadata?.client_id_metadata_document_supported && settings.clientMetadataUrl)
        steps.decision(
          'registration',
          `client metadata document ${settings.clientMetadataUrl}`,
          'the authorization server supports client ID metadata documents, and your settings name one: its URL is the client id',
        )
      else if (!metadata || metadata.registration_endpoint)
        steps.decision(
          'registration',
          'dynamic client registration',
          `${metadata ? `the authorization server offers it at ${metadata.registration_endpoint}` : 'the 2025-03-26 fallback endpoint /register'}${metadata?.client_id_metadata_document_supported ? ' (it supports client metadata documents too, but your settings name no clientMetadataUrl)' : ''}; Parallax registers as a native application (application_type "native", SEP-837): its redirect is a loopback listener on this machine`,
        )
      else {
        const why =
          'the authorization server offers no dynamic registration and Parallax has no client metadata document for it: register a client there and give its id (--client-id)'
        steps.decision('registration', 'no client', why, true)
        throw new Error(why)
      }
    }
    if (!settings.clientKeyFile) {
      if (credentials.registration === 'pre-registered') this.sayClientAuthentication()
      return undefined
    }
    const methods = metadata?.token_endpoint_auth_methods_supported
    if (methods && !methods.includes('private_key_jwt')) {
      steps.decision(
        'token',
        'the client key is not used',
        `the authorization server does not accept private_key_jwt (it accepts ${methods.join(', ')})`,
      )
      this.sayClientAuthentication()
      return undefined
    }
    const key = await readClientKey(settings.clientKeyFile, metadata?.token_endpoint_auth_signing_alg_values_supported)
    steps.decision('token', `private_key_jwt (${key.alg})`, `your client key signs a JWT assertion (RFC 7523) for each token request`)
    const clientId = credentials.client!.client_id
    return createPrivateKeyJwtAuth({ issuer: clientId, subject: clientId, privateKey: key.pem, alg: key.alg })
  }

  /** How the token request will authenticate the client (as the MCP SDK chooses it from what the server supports), said before it is made. */
  private sayClientAuthentication(): void {
    const client = this.credentials.client
    if (!client || this.provider?.addClientAuthentication) return
    const methods = this.found?.metadata?.token_endpoint_auth_methods_supported ?? []
    const method = selectClientAuthMethod(client, methods)
    this.steps.decision(
      'token',
      `client authentication ${method}`,
      methods.length
        ? `the authorization server accepts ${methods.join(', ')}; ${client.client_secret ? 'the client has a secret' : 'a public client (no secret)'}`
        : 'the authorization server lists no methods: client_secret_basic with a secret (RFC 8414’s default), none without',
    )
  }

  private granted(grantType: AuthGrant['grantType']): void {
    const tokens = this.credentials.tokens!
    const obtainedAt = Date.now()
    const scopes = tokens.scope ? scopeList(tokens.scope) : this.requested
    const grant: AuthGrant = {
      grantType,
      tokenType: tokens.token_type,
      scopes,
      requestedScopes: this.requested,
      ...(tokens.expires_in !== undefined && { expiresAt: obtainedAt + tokens.expires_in * 1000 }),
      obtainedAt,
      refreshable: !!tokens.refresh_token,
      ...(this.found?.resource && { resource: this.found.resource }),
      authorizationServer: this.found?.authorizationServerUrl ?? '',
    }
    const bound = this.dpop && tokens.token_type.toLowerCase() === 'dpop'
    if (bound) grant.boundKey = { alg: this.dpop!.alg, thumbprint: dpopThumbprint(this.dpop!) }
    else if (this.dpop)
      this.steps.decision(
        'token',
        `a ${tokens.token_type} token, not bound to the key`,
        'the token request carried a DPoP proof, but the authorization server issued a token of another type: it is sent as it was issued',
      )
    this.credentials.grant = grant
    const expires = tokens.expires_in !== undefined ? `, expires in ${tokens.expires_in} s` : ', no expiry given'
    this.steps.emit({
      step: 'granted',
      phase: grantType === 'refresh_token' ? 'refresh' : 'token',
      summary: `authorized: ${tokens.token_type} token${bound ? ` bound to key ${grant.boundKey!.thumbprint}` : ''} for ${scopes.length ? `"${scopes.join(' ')}"` : 'no particular scope'}${expires}${grant.refreshable ? ', refreshable' : ''}`,
      grant,
    })
  }
}
