import { z } from 'zod'

/**
 * Authorization (OAuth 2.1 as the MCP authorization spec profiles it, and A2A's security schemes): the
 * settings a target carries, the steps a sign-in goes through (each an `auth` event), and the state a UI
 * shows. No token and no client secret ever appears in any of these; secrets live in the engine's secret store.
 */

/** An HTTP target's OAuth settings (beside its headers). Every field is optional: discovery and registration fill in the rest. */
export const OAuthSettings = z.object({
  /** A client id registered with the authorization server beforehand (pre-registration). */
  clientId: z.string().min(1).max(2000).optional(),
  /**
   * The pre-registered client's secret. Accepted here (a config file, a CLI flag); a saved target keeps it
   * in the secret store instead of its own file.
   */
  clientSecret: z.string().min(1).max(10_000).optional(),
  /** A PEM (PKCS #8) private key file: the client authenticates with a signed JWT (`private_key_jwt`). */
  clientKeyFile: z.string().min(1).max(4096).optional(),
  /** An https URL that is the client's id: a Client ID Metadata Document, used where the server supports them. */
  clientMetadataUrl: z.url({ protocol: /^https$/, error: 'clientMetadataUrl must be an https URL' }).optional(),
  /** The scopes to ask for (space-separated) when the server's challenge names none. */
  scope: z.string().max(2000).optional(),
  /**
   * A file holding a workload identity token (a JWT its platform issues, as Kubernetes or a cloud does):
   * Parallax exchanges it for an access token with the JWT bearer grant (RFC 7523, SEP-1933), read anew at each sign-in.
   */
  assertionFile: z.string().min(1).max(4096).optional(),
  /**
   * Enterprise-managed authorization (SEP-990, cross-app access): a file holding the person's ID token from
   * their enterprise identity provider, exchanged at `idpTokenEndpoint` (RFC 8693) for an identity assertion
   * grant (ID-JAG), which the JWT bearer grant then trades for an access token. Read anew at each sign-in.
   */
  idTokenFile: z.string().min(1).max(4096).optional(),
  idpTokenEndpoint: z.url().optional(),
  /** The client id Parallax is known by at the identity provider. */
  idpClientId: z.string().min(1).max(2000).optional(),
  /**
   * `client_credentials` for a machine client (no person); `jwt_bearer` for a workload identity token
   * (`assertionFile`); `auto` chooses from what the server supports and the credentials given.
   */
  grant: z.enum(['auto', 'authorization_code', 'client_credentials', 'jwt_bearer']).optional(),
  /** Follow the authorization redirect without a browser (for servers that approve without a person, as test servers do). */
  headless: z.boolean().optional(),
})
export type OAuthSettings = z.infer<typeof OAuthSettings>

/** Which part of the flow a step belongs to (the MCP authorization spec's order). */
export type AuthPhase =
  | 'challenge'
  | 'resource-metadata'
  | 'authorization-server-metadata'
  | 'registration'
  | 'authorization'
  | 'token'
  | 'refresh'
  | 'step-up'
  | 'credentials'
  | 'sign-out'

/**
 * What a step is: an HTTP exchange made while authorizing (`request`), a choice Parallax made and why
 * (`decision`), the server's challenge (`challenge`), the person asked to sign in again because the server
 * wants more scopes than the token has (`more-access`), the authorization URL handed to a browser
 * (`authorize`), the redirect back (`callback`), the grant obtained (`granted`), the flow's end in failure
 * (`failed`) or a sign-out (`signed-out`).
 */
export type AuthStepKind =
  'challenge' | 'request' | 'decision' | 'more-access' | 'authorize' | 'callback' | 'granted' | 'failed' | 'signed-out'

/** A step-up waiting for a person: the scopes the server's 403 insufficient_scope asks for, those the token lacks, and the request that met it. */
export interface MoreAccess {
  scopes: string[]
  missing: string[]
  /** The request sent again once signed in (`tools/call place_order`). */
  for: string
}

/** One HTTP exchange of a sign-in, secrets redacted (authorization headers, codes, verifiers, secrets, assertions, tokens). */
export interface AuthHttpExchange {
  request: { method: string; url: string; headers: Record<string, string>; body?: unknown }
  /** Absent when no answer came (`error` says why). */
  response?: { status: number; statusText?: string; headers: Record<string, string>; body?: unknown }
  error?: string
  durationMs: number
}

/** How the client identified itself to the authorization server. */
export type ClientRegistrationKind = 'pre-registered' | 'metadata-document' | 'dynamic'

/** What a sign-in obtained: never the token, only what a person checks. */
export interface AuthGrant {
  /** How it was obtained. */
  grantType: 'authorization_code' | 'refresh_token' | 'client_credentials' | 'jwt_bearer'
  tokenType: string
  /** The scopes granted (the token response's `scope`, else those asked for). */
  scopes: string[]
  /** The scopes asked for. */
  requestedScopes: string[]
  /** Epoch ms; absent when the server gave no `expires_in`. */
  expiresAt?: number
  obtainedAt: number
  /** A refresh token came with it (kept in the secret store, never shown). */
  refreshable: boolean
  /** The resource indicator the token is for (RFC 8707), when one was sent. */
  resource?: string
  authorizationServer: string
  /** A DPoP-bound token (RFC 9449): the key it is bound to, by its public thumbprint (the key stays in the secret store). */
  boundKey?: { alg: string; thumbprint: string }
}

/**
 * One step of authorizing a target. Steps of one sign-in share `flowId`; `connectionId` is the connection
 * that met the challenge, or `auth:<targetId>` for a sign-in asked for without one.
 */
export interface AuthStep {
  targetId: string
  flowId: string
  step: AuthStepKind
  phase: AuthPhase
  /** One line a person reads: what happened. */
  summary: string
  http?: AuthHttpExchange
  /**
   * `decision`: what was chosen and why; `refused` when Parallax refused to go on (a resource that does not
   * match); `ends` when it is the whole of its flow (Parallax acted on a server's answer alone, no sign-in follows).
   */
  decision?: { choice: string; why: string; refused?: boolean; ends?: boolean }
  /** `challenge`: the server's answer that asked for authorization. */
  challenge?: { status: number; header?: string; resourceMetadata?: string; scope?: string; error?: string; errorDescription?: string }
  /** `authorize`: the URL a browser opens (or Parallax follows, headless), where it comes back, and until when Parallax waits. */
  authorize?: { url: string; redirectUri: string; mode: 'browser' | 'headless'; waitsUntil?: number }
  /**
   * `callback`: the redirect back: whether `state` matched, the server's error, the issuer it names (`iss`,
   * RFC 9207) and why Parallax refused it although the state matched. The code itself is never shown.
   */
  callback?: { stateMatched: boolean; error?: string; errorDescription?: string; iss?: string; refused?: string }
  /** `more-access`: what the server asks for, and until when Parallax waits for the person (the flow then ends `granted` or `failed`). */
  moreAccess?: MoreAccess & { waitsUntil: number }
  /** `granted`: what was obtained. */
  grant?: AuthGrant
  /** `failed`: why. */
  error?: string
}

/** A target's authorization as it stands: for a UI's Auth view and `auth.status`. */
export interface AuthStatus {
  targetId: string
  /** A token is held for this target (it may be expired and refreshable). */
  signedIn: boolean
  grant?: AuthGrant
  client?: { clientId: string; registration: ClientRegistrationKind; authMethod?: string }
  /** A sign-in under way (waiting for the browser, say). */
  flow?: { flowId: string; state: 'running' | 'waiting'; authorizationUrl?: string }
  /** The last challenge met, when the target needs a sign-in a person must do. */
  required?: { why: string; scope?: string }
  /** The server asked for more scopes than the token has, and a request waits for the person to sign in again (`auth.begin` does it; `auth.cancel` of the flow declines). */
  moreAccess?: MoreAccess & { flowId: string }
  /** Where secrets are kept: the OS keychain (desktop), a 0600 file in the data folder, or memory (nothing persists). */
  store: 'keychain' | 'file' | 'memory'
}

/** How `auth.begin` left a sign-in: done already (no person needed), or waiting for the browser at `authorizationUrl`. */
export interface AuthBeginResult {
  flowId: string
  state: 'authorized' | 'waiting'
  authorizationUrl?: string
  redirectUri?: string
}

/** The securitySchemes of an A2A agent card, as Parallax reads them, and which one it satisfies (shown in the A2A handshake). */
export interface A2aSecuritySummary {
  schemes: { name: string; type: string; detail: string }[]
  /** The card's security requirements, each a set of scheme names (any one set suffices). */
  requirements: string[][]
  /** What Parallax does about them, and why. */
  choice: string
}
