import type { AuthBeginResult, AuthStatus, OAuthSettings } from '../contract'
import { errorMessage } from '../runtime/errors'
import { AuthSteps, type EmitAuth } from './authSteps'
import { CredentialVault, type TargetCredentials } from './credentials'
import type { CardAuthorization, Challenge } from './challenge'
import type { SecretStore } from './secretStore'
import type { SignIn, SignInRequest } from './signIn'
import { scopeList } from './scopes'
import type { StepUpAnswer } from './stepUp'

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
  /**
   * A person can be asked to sign in again when a server wants more scopes mid-session (a UI shows the
   * `more-access` step as a prompt; a CLI on a desktop opens the browser): their request waits for them.
   * Without one, the request fails saying what the server asked for.
   */
  askPerson?: boolean
}

/** How a quiet authorization ended: authorized, failed, or needing a person (and, for a step-up put to one, their answer to come). */
export type QuietOutcome = 'authorized' | 'failed' | { person: Promise<StepUpAnswer> }

/** How long a step-up waits for the person, sign-in included. */
const MORE_ACCESS_WAIT_MS = 10 * 60_000

/** A step-up waiting for a person: asked in `steps`' flow, which their sign-in continues. */
interface MoreAccessAsk {
  steps: AuthSteps
  challenge: Challenge
  held: string[]
  scopes: string[]
  missing: string[]
  for: string
  answer: Promise<StepUpAnswer>
  settle: (answer: StepUpAnswer) => void
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
  quiet?: Promise<QuietOutcome>
  credentials?: Promise<TargetCredentials>
  /** The server `credentials` are for: a target pointed elsewhere reads its own. */
  credentialsUrl?: string
  /** A step-up waiting for the person (one per target: every request that meets it waits for the same answer). */
  moreAccess?: MoreAccessAsk
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
   * Authorizes a connection's request without a person: a refresh, client credentials, or headless. A grant
   * that needs a person (`person`) is left to `begin`: the target then says why it is required, or, for a
   * step-up met by a person's request (`forRequest`, what it was), the person is asked to sign in again
   * (a `more-access` step) and `person` is their answer to come. One at a time per target.
   */
  authorizeQuietly(
    target: AuthTarget,
    connectionId: string,
    challenge: Challenge | undefined,
    held?: string[],
    forRequest?: string,
  ): Promise<QuietOutcome> {
    const state = this.stateOf(target.id)
    if (challenge) state.challenge = challenge
    if (state.quiet) return state.quiet
    // A step-up already put to the person: this request waits for the same answer.
    if (held && forRequest !== undefined && state.moreAccess) return Promise.resolve({ person: state.moreAccess.answer })
    const steps = this.flowSteps(target, connectionId)
    if (challenge) sayChallenge(steps, challenge, !!held)
    const run = async (): Promise<QuietOutcome> => {
      const { PersonNeeded } = await signInModule()
      const credentials = await this.credentialsOf(target)
      const signIn = await this.newSignIn(target, steps, credentials, { refresh: !held, ...(held && { held }) })
      try {
        await signIn.start()
        await this.keep(target, signIn.credentials)
        return 'authorized'
      } catch (error) {
        if (!(error instanceof PersonNeeded)) {
          steps.failed('authorization', error)
          state.required = { why: `authorization failed: ${(error as Error).message}` }
          return 'failed'
        }
        if (held && challenge && forRequest !== undefined && this.options.askPerson)
          return { person: this.askForMoreAccess(steps, challenge, held, credentials.grant?.scopes ?? [], forRequest, state) }
        state.required = { why: error.why, ...(challenge?.scope && { scope: challenge.scope }) }
        steps.decision('authorization', 'sign-in needed', error.why)
        if (forRequest !== undefined) steps.decision('step-up', 'not asked', NOBODY_TO_ASK, true)
        return { person: Promise.resolve({ granted: false, why: NOBODY_TO_ASK }) }
      }
    }
    const quiet = run().finally(() => (state.quiet = undefined))
    state.quiet = quiet
    return quiet
  }

  /** Puts a step-up to the person, in the flow that met it: their sign-in (`begin`) continues it, `cancel` declines it. */
  private askForMoreAccess(
    steps: AuthSteps,
    challenge: Challenge,
    held: string[],
    granted: string[],
    what: string,
    state: TargetState,
  ): Promise<StepUpAnswer> {
    if (state.moreAccess) return state.moreAccess.answer
    const scopes = scopeList(challenge.scope)
    const missing = scopes.filter((s) => !granted.includes(s))
    let settle!: (answer: StepUpAnswer) => void
    const answer = new Promise<StepUpAnswer>((resolve) => (settle = resolve))
    const timer = setTimeout(() => {
      const why = `nobody signed in again within ${MORE_ACCESS_WAIT_MS / 60_000} min`
      steps.failed('step-up', new Error(why))
      ask.settle({ granted: false, why })
    }, MORE_ACCESS_WAIT_MS)
    timer.unref?.()
    const ask: MoreAccessAsk = {
      steps,
      challenge,
      held,
      scopes,
      missing,
      for: what,
      answer,
      settle: (given) => {
        clearTimeout(timer)
        if (state.moreAccess === ask) state.moreAccess = undefined
        settle(given)
      },
    }
    state.moreAccess = ask
    const asked = missing.length ? missing : scopes
    steps.emit({
      step: 'more-access',
      phase: 'step-up',
      summary: `the server asks for more access (${asked.length ? `scope "${asked.join(' ')}"` : 'no scope named'}) for ${what}: waiting for you to sign in again, then it is sent again`,
      moreAccess: { scopes, missing, for: what, waitsUntil: Date.now() + MORE_ACCESS_WAIT_MS },
    })
    return answer
  }

  /** A 403 insufficient_scope Parallax does not answer with a step-up, and why. */
  sayStepUpRefused(target: AuthTarget, connectionId: string, challenge: Challenge, why: string): void {
    const steps = this.flowSteps(target, connectionId)
    sayChallenge(steps, challenge, true)
    steps.decision('step-up', 'no step-up', why, true, true)
  }

  /** A resource server asked for its DPoP nonce in the proof (RFC 9449 §9): the request goes again with it. */
  sayDpopNonce(target: AuthTarget, connectionId: string, origin: string, nonce: string): void {
    this.flowSteps(target, connectionId).decision(
      'token',
      'request sent again with the server’s DPoP nonce',
      `${origin} answered use_dpop_nonce with a nonce ("${nonce}") its proofs must carry (RFC 9449 §9)`,
      undefined,
      true,
    )
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
      (grant.refreshable || grant.grantType === 'client_credentials' || grant.grantType === 'jwt_bearer')
    ) {
      await this.authorizeQuietly(target, connectionId, undefined)
      return (await this.credentialsOf(target)).tokens?.access_token
    }
    return tokens.access_token
  }

  /**
   * Starts a person's sign-in: done at once when no person is needed, else waiting for the browser at the URL
   * returned. With a step-up waiting for the person, it is that step-up: the scopes held and those the server
   * asked for, in the flow that asked (a second begin while its browser is out gives the same sign-in back).
   */
  async begin(target: AuthTarget, options: { connectionId?: string; scope?: string; headless?: boolean } = {}): Promise<AuthBeginResult> {
    const ask = this.stateOf(target.id).moreAccess
    const asked = ask && this.flows.get(ask.steps.flowId)
    if (ask && asked?.pending && asked.signIn.authorizationUrl)
      return {
        flowId: ask.steps.flowId,
        state: 'waiting',
        authorizationUrl: asked.signIn.authorizationUrl,
        redirectUri: asked.signIn.redirectUri,
      }
    const steps = ask?.steps ?? this.flowSteps(target, options.connectionId)
    const phase = ask ? 'step-up' : 'authorization'
    const settings = { ...target.oauth, ...(options.headless !== undefined && { headless: options.headless }) }
    const given = (answer: StepUpAnswer) => ask?.settle(answer)
    const signIn = await this.newSignIn({ ...target, oauth: settings }, steps, await this.credentialsOf(target), {
      settings,
      person: true,
      ...(ask && { challenge: ask.challenge, held: ask.held }),
      ...(options.scope && { askedScope: options.scope }),
    })
    const flow: Flow = { signIn, target, pending: true, done: Promise.resolve() }
    this.flows.set(steps.flowId, flow)
    let started: 'authorized' | 'waiting'
    try {
      started = await signIn.start()
    } catch (error) {
      flow.pending = false
      steps.failed(phase, error)
      given({ granted: false, why: `signing in again failed: ${errorMessage(error)}` })
      throw error
    }
    if (started === 'authorized') {
      flow.pending = false
      await this.keep(target, signIn.credentials)
      given({ granted: true })
      return { flowId: steps.flowId, state: 'authorized' }
    }
    flow.done = signIn
      .finish()
      .then(() => this.keep(target, signIn.credentials))
      .then(() => given({ granted: true }))
      .catch((error: unknown) => {
        steps.failed(phase, error)
        given({ granted: false, why: `signing in again failed: ${errorMessage(error)}` })
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

  /** Stops a sign-in waiting for the browser; or declines a step-up the person was asked for (the request that waited fails saying so). */
  cancel(flowId: string): boolean {
    const flow = this.flows.get(flowId)
    if (flow?.pending) {
      flow.signIn.cancel('cancelled: the sign-in was stopped before the browser came back')
      return true
    }
    const ask = [...this.states.values()].find((s) => s.moreAccess?.steps.flowId === flowId)?.moreAccess
    if (!ask) return false
    const why = 'you chose not to sign in again'
    ask.steps.failed('step-up', new Error(why))
    ask.settle({ granted: false, why })
    return true
  }

  /** Ends what waits for a person (sign-ins, step-ups): the engine is closing. */
  close(): void {
    for (const [flowId, flow] of this.flows) if (flow.pending) this.cancel(flowId)
    for (const state of this.states.values()) state.moreAccess?.settle({ granted: false, why: 'Parallax closed' })
  }

  /** Forgets what was kept for a target: tokens and registration, and its client secret unless `keepClient`. */
  async signOut(target: AuthTarget, keepClient = false): Promise<AuthStatus & { cleared: string[] }> {
    for (const [flowId, flow] of this.flows) if (flow.target.id === target.id) this.cancel(flowId)
    this.states.get(target.id)?.moreAccess?.settle({ granted: false, why: 'you signed out' })
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
    const ask = this.states.get(target.id)?.moreAccess
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
      ...(ask && { moreAccess: { flowId: ask.steps.flowId, scopes: ask.scopes, missing: ask.missing, for: ask.for } }),
      store: this.storeKind,
    }
  }
}

const NOBODY_TO_ASK =
  'nobody is here to sign in again: do it where a browser can open, or sign in first asking for those scopes (the Auth tab’s Scopes, --scope on the command line)'

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
