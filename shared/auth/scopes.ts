import type { AuthorizationServerMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js'

export const scopeList = (scope: string | undefined): string[] => (scope ?? '').split(' ').filter(Boolean)
const union = (...lists: string[][]) => [...new Set(lists.flat())]

export interface ScopeInputs {
  challengeScope?: string
  settingsScope?: string
  /** `auth.begin`'s own scope: asked for on top. */
  askedScope?: string
  resourceMetadata?: OAuthProtectedResourceMetadata
  metadata?: AuthorizationServerMetadata
  cardScopes?: string[]
  /** Step-up: the scopes already asked for, kept (the new token must do what the old one did). */
  held?: string[]
  /** `offline_access` is for grants a person makes (it asks for a refresh token); never for client credentials. */
  refreshable: boolean
}

/**
 * The scopes to ask for and why (the MCP spec's scope selection strategy): the challenge's `scope`, else the
 * user's, else all of the resource metadata's `scopes_supported`, else none (the parameter is left out);
 * `offline_access` added when the authorization server lists it, to get a refresh token (SEP-2207).
 */
export function chooseScopes(inputs: ScopeInputs): { scopes: string[]; why: string; offlineAccess?: string } {
  const { challengeScope, settingsScope, askedScope, resourceMetadata, metadata, cardScopes, held } = inputs
  let scopes: string[]
  let why: string
  if (held && challengeScope) {
    scopes = union(held, scopeList(challengeScope))
    why = `step-up: the scopes held (${held.join(' ') || 'none'}) and those the challenge asks for (${challengeScope})`
  } else if (challengeScope) {
    scopes = scopeList(challengeScope)
    why = 'the challenge names them (WWW-Authenticate scope)'
  } else if (settingsScope) {
    scopes = scopeList(settingsScope)
    why = 'your settings name them'
  } else if (resourceMetadata?.scopes_supported?.length) {
    scopes = [...resourceMetadata.scopes_supported]
    why = 'the challenge names none: all of the resource metadata’s scopes_supported'
  } else if (cardScopes?.length) {
    scopes = [...cardScopes]
    why = 'the agent card’s security scheme lists them'
  } else {
    scopes = []
    why = 'neither the challenge nor the resource metadata names any, so the scope parameter is left out'
  }
  if (askedScope) {
    scopes = union(scopes, scopeList(askedScope))
    why += `; with ${askedScope}, asked for`
  }
  if (!inputs.refreshable || scopes.includes('offline_access')) return { scopes, why }
  if (metadata?.scopes_supported?.includes('offline_access'))
    return {
      scopes: [...scopes, 'offline_access'],
      why,
      offlineAccess: 'the authorization server lists it: for a refresh token (SEP-2207)',
    }
  return { scopes, why, offlineAccess: 'the authorization server does not list it' }
}
