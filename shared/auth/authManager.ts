import type { AuthBeginResult, AuthStatus, OAuthSettings } from '../contract'
import { AuthSteps, type EmitAuth } from './authSteps'
import { CredentialVault, type TargetCredentials } from './credentials'
import type { CardAuthorization, Challenge } from './challenge'
import type { SecretStore } from './secretStore'
import type { SignIn, SignInRequest } from './signIn'

/** Sign-ins (discovery, registration, the MCP SDK's auth()) load when one starts: most sessions never need one. */
const signInModule = () => import('./signIn')

/** What authorization needs of a target: its id, the protected resource's URL, its OAuth settings. */
export interface AuthTarget {
  id: string
  url: string
  oauth?: OAuthSettings
}

export interface AuthManagerOptions {
  store: SecretStore
  emit: EmitAuth
  /** Opens a URL in the system browser (the desktop app's, the CLI's); without one, `signIn` leaves it to whoever shows the `authorize` step. */
  openBrowser?: (url: string) => Promise<void>
  fetch?: typeof globalThis.fetch
}

interface Flow {
  signIn: SignIn
  target: AuthTarget
  pending: boolean
  done: Promise<void>
}

/** What the engine knows of a target between sign-ins: the last challenge, the card's scheme, whether a person must sign in. */
interface TargetState {
  challenge?: Challenge
  card?: CardAuthorization
  required?: { why: string; scope?: string }
  quiet?: Promise<boolean>
  credentials?: Promise<TargetCredentials>
  /** The server `credentials` are for: a target pointed elsewhere reads its own. */
  credentialsUrl?: string
}

/**
 * Authorization for every target of one engine: sign-ins (a person's, through the browser and the loopback
 * redirect; or Parallax's own, for a connection: a refresh, client credentials, headless), the credentials
 * they obtain (in the secret store, per target), status and sign-out. Each step is an `auth` event.
 */
export class AuthManager {
  private readonly vault: CredentialVault
  private readonly flows = new Map<string, Flow>()
  private readonly states = new Map<string, TargetState>()
  private nextFlow = 0

  constructor(private readonly options: AuthManagerOptions) {
    this.vault = new CredentialVault(options.store)
  }

  get storeKind(): AuthStatus['store'] {
    return this.options.store.kind
  }

  private stateOf(targetId: string): TargetState {
    let state = this.states.get(targetId)
    if (!state) this.states.set(targetId, (state = {}))
    return state
  }

  /** The credentials held for a target and its server (read once, then kept in memory beside the store). */
  credentialsOf(target: AuthTarget): Promise<TargetCredentials> {
    const state = this.stateOf(target.id)
    if (state.credentialsUrl !== target.url) {
      state.credentialsUrl = target.url
      state.credentials = this.vault.read(target.id, target.url)
    }
    return state.credentials!
  }

  private async keep(target: AuthTarget, credentials: TargetCredentials): Promise<void> {
    const state = this.stateOf(target.id)
    state.credentials = Promise.resolve(credentials)
    state.credentialsUrl = target.url
    state.required = undefined
    await this.vault.write(target.id, credentials)
  }

  /** A connection learned where its A2A card says to authorize. */
  noteCard(targetId: string, card: CardAuthorization | undefined): void {
    this.stateOf(targetId).card = card
  }

  /** Why a target needs a person to sign in, after a challenge Parallax could not answer alone. */
  requiredFor(targetId: string): { required: true; why: string; scope?: string } | undefined {
    const required = this.states.get(targetId)?.required
    return required && { required: true, ...required }
  }

  private flowSteps(target: AuthTarget, connectionId?: string): AuthSteps {
    return new AuthSteps(this.options.emit, target.id, `a${++this.nextFlow}`, connectionId ?? `auth:${target.id}`)
  }

  private async newSignIn(
    target: AuthTarget,
    steps: AuthSteps,
    credentials: TargetCredentials,
    request: Partial<SignInRequest>,
  ): Promise<SignIn> {
    const state = this.stateOf(target.id)
    const { SignIn } = await signInModule()
    return new SignIn(
      {
        targetId: target.id,
        serverUrl: target.url,
        settings: target.oauth ?? {},
        challenge: state.challenge,
        card: state.card,
        person: false,
        refresh: false,
        ...request,
      },
      structuredClone(credentials),
      steps,
      this.options.fetch ?? ((input, init) => fetch(input, init)),
    )
  }

  /**
   * Authorizes a connection's request without a person: a refresh, client credentials, or headless; a
   * grant that needs a person is left to `begin` (the target then says why it is required). One at a time per target.
   */
  authorizeQuietly(target: AuthTarget, connectionId: string, challenge: Challenge | undefined, held?: string[]): Promise<boolean> {
    const state = this.stateOf(target.id)
    if (challenge) state.challenge = challenge
    if (state.quiet) return state.quiet
    const steps = this.flowSteps(target, connectionId)
    if (challenge) sayChallenge(steps, challenge, !!held)
    const run = async () => {
      const { PersonNeeded } = await signInModule()
      const signIn = await this.newSignIn(target, steps, await this.credentialsOf(target), { refresh: !held, ...(held && { held }) })
      try {
        await signIn.start()
        await this.keep(target, signIn.credentials)
        return true
      } catch (error) {
        if (error instanceof PersonNeeded) {
          state.required = { why: error.why, ...(challenge?.scope && { scope: challenge.scope }) }
          steps.decision('authorization', 'sign-in needed', error.why)
        } else {
          steps.failed('authorization', error)
          state.required = { why: `authorization failed: ${(error as Error).message}` }
        }
        return false
      }
    }
    const quiet = run().finally(() => (state.quiet = undefined))
    state.quiet = quiet
    return quiet
  }

  /** A 403 insufficient_scope Parallax does not answer with a step-up, and why. */
  sayStepUpRefused(target: AuthTarget, connectionId: string, challenge: Challenge, why: string): void {
    const steps = this.flowSteps(target, connectionId)
    sayChallenge(steps, challenge, true)
    steps.decision('step-up', 'no step-up', why, true)
  }

  /**
   * The access token to send, refreshed first when it expires within a minute and can be renewed without a
   * person (a refresh token, or client credentials); undefined when none is held.
   */
  async accessToken(target: AuthTarget, connectionId: string): Promise<string | undefined> {
    const credentials = await this.credentialsOf(target)
    const { tokens, grant } = credentials
    if (!tokens) return undefined
    if (
      grant?.expiresAt !== undefined &&
      grant.expiresAt - Date.now() < 60_000 &&
      (grant.refreshable || grant.grantType === 'client_credentials')
    ) {
      await this.authorizeQuietly(target, connectionId, undefined)
      return (await this.credentialsOf(target)).tokens?.access_token
    }
    return tokens.access_token
  }

  /** Starts a person's sign-in: done at once when no person is needed, else waiting for the browser at the URL returned. */
  async begin(target: AuthTarget, options: { connectionId?: string; scope?: string; headless?: boolean } = {}): Promise<AuthBeginResult> {
    const steps = this.flowSteps(target, options.connectionId)
    const settings = { ...target.oauth, ...(options.headless !== undefined && { headless: options.headless }) }
    const signIn = await this.newSignIn({ ...target, oauth: settings }, steps, await this.credentialsOf(target), {
      settings,
      person: true,
      ...(options.scope && { askedScope: options.scope }),
    })
    const flow: Flow = { signIn, target, pending: true, done: Promise.resolve() }
    this.flows.set(steps.flowId, flow)
    let started: 'authorized' | 'waiting'
    try {
      started = await signIn.start()
    } catch (error) {
      flow.pending = false
      steps.failed('authorization', error)
      throw error
    }
    if (started === 'authorized') {
      flow.pending = false
      await this.keep(target, signIn.credentials)
      return { flowId: steps.flowId, state: 'authorized' }
    }
    flow.done = signIn
      .finish()
      .then(() => this.keep(target, signIn.credentials))
      .catch((error: unknown) => {
        steps.failed('authorization', error)
        throw error
      })
      .finally(() => (flow.pending = false))
    flow.done.catch(() => {}) // `wait` reports it; nobody waiting is no crash
    return { flowId: steps.flowId, state: 'waiting', authorizationUrl: signIn.authorizationUrl, redirectUri: signIn.redirectUri }
  }

  /** `begin`, the browser opened on the authorization URL (where this engine has one), then `wait`. */
  async signIn(target: AuthTarget, options: { connectionId?: string; scope?: string; headless?: boolean } = {}): Promise<AuthStatus> {
    const begun = await this.begin(target, options)
    if (begun.state === 'waiting' && begun.authorizationUrl && this.options.openBrowser)
      await this.options.openBrowser(begun.authorizationUrl).catch(() => {})
    return this.wait(begun.flowId)
  }

  async wait(flowId: string): Promise<AuthStatus> {
    const flow = this.flows.get(flowId)
    if (!flow) throw new Error(`no sign-in "${flowId}"`)
    await flow.done
    return this.status(flow.target)
  }

  cancel(flowId: string): boolean {
    const flow = this.flows.get(flowId)
    if (!flow?.pending) return false
    flow.signIn.cancel('cancelled: the sign-in was stopped before the browser came back')
    return true
  }

  /** Forgets what was kept for a target: tokens and registration, and its client secret unless `keepClient`. */
  async signOut(target: AuthTarget, keepClient = false): Promise<AuthStatus & { cleared: string[] }> {
    for (const [flowId, flow] of this.flows) if (flow.target.id === target.id) this.cancel(flowId)
    const held = await this.credentialsOf(target)
    const cleared = [
      ...(held.tokens ? ['tokens'] : []),
      ...(held.client && held.registration !== 'pre-registered' ? [`${held.registration ?? 'dynamic'} registration`] : []),
      ...(held.clientSecret && !keepClient ? ['client secret'] : []),
    ]
    const kept: TargetCredentials = { serverUrl: target.url, ...(keepClient && held.clientSecret && { clientSecret: held.clientSecret }) }
    const state = this.stateOf(target.id)
    state.credentials = Promise.resolve(kept)
    state.credentialsUrl = target.url
    state.required = undefined
    if (kept.clientSecret) await this.vault.write(target.id, kept)
    else await this.vault.clear(target.id, target.url)
    this.flowSteps(target).emit({
      step: 'signed-out',
      phase: 'sign-out',
      summary: cleared.length ? `signed out: forgot the ${cleared.join(', ')}` : 'signed out (nothing was held)',
    })
    return { ...(await this.status(target)), cleared }
  }

  /** Keeps a saved target's client secret in the store (the target itself keeps none). */
  async keepClientSecret(target: AuthTarget, secret: string): Promise<void> {
    const credentials = await this.credentialsOf(target)
    await this.keep(target, { ...credentials, clientSecret: secret })
  }

  async status(target: AuthTarget): Promise<AuthStatus> {
    const { tokens, grant, client, registration } = await this.credentialsOf(target)
    const flow = [...this.flows.entries()].findLast(([, f]) => f.target.id === target.id && f.pending)
    const required = this.states.get(target.id)?.required
    return {
      targetId: target.id,
      signedIn: !!tokens,
      ...(grant && { grant }),
      ...(client && registration && { client: { clientId: client.client_id, registration } }),
      ...(flow && {
        flow: {
          flowId: flow[0],
          state: flow[1].signIn.authorizationUrl ? 'waiting' : 'running',
          ...(flow[1].signIn.authorizationUrl && { authorizationUrl: flow[1].signIn.authorizationUrl }),
        },
      }),
      ...(required && { required }),
      store: this.storeKind,
    }
  }
}

function sayChallenge(steps: AuthSteps, challenge: Challenge, stepUp: boolean): void {
  const { status, error, scope, header } = challenge
  steps.emit({
    step: 'challenge',
    phase: stepUp ? 'step-up' : 'challenge',
    summary: `HTTP ${status}${error ? ` ${error}` : ''}${scope ? `, scope "${scope}"` : ''}${header ? '' : ' (no WWW-Authenticate)'}`,
    challenge,
  })
}

/** What authorization knows of a target: an HTTP one's id, URL and OAuth settings (stdio servers take credentials from their environment). */
export function authTargetOf(target: { id: string; spec: { kind: string; url?: string; oauth?: OAuthSettings } }): AuthTarget | undefined {
  const { spec } = target
  return spec.kind === 'mcp-stdio' || !spec.url ? undefined : { id: target.id, url: spec.url, ...(spec.oauth && { oauth: spec.oauth }) }
}
