import type { A2aSecuritySummary } from '../contract'
import type { CardAuthorization } from '../auth/challenge'

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v)
const text = (v: unknown) => (typeof v === 'string' ? v : undefined)

interface Scheme {
  name: string
  type: 'oauth2' | 'openIdConnect' | 'apiKey' | 'http' | 'mutualTLS' | 'unknown'
  raw: Json
}

/** A card's schemes in either generation's shape: v1.0's `{oauth2SecurityScheme: {…}}` or v0.3's `{type: 'oauth2', …}`. */
function schemesOf(card: Json): Scheme[] {
  const schemes = isObject(card.securitySchemes) ? card.securitySchemes : {}
  return Object.entries(schemes).flatMap(([name, value]): Scheme[] => {
    if (!isObject(value)) return []
    const v1: [string, Scheme['type']][] = [
      ['oauth2SecurityScheme', 'oauth2'],
      ['openIdConnectSecurityScheme', 'openIdConnect'],
      ['apiKeySecurityScheme', 'apiKey'],
      ['httpAuthSecurityScheme', 'http'],
      ['mtlsSecurityScheme', 'mutualTLS'],
    ]
    for (const [key, type] of v1) if (isObject(value[key])) return [{ name, type, raw: value[key] }]
    const type = text(value.type)
    const known = ['oauth2', 'openIdConnect', 'apiKey', 'http', 'mutualTLS'].includes(type ?? '')
    return [{ name, type: known ? (type as Scheme['type']) : 'unknown', raw: value }]
  })
}

/** The card's requirements: each a set of scheme names, any one set sufficing (v1.0 `securityRequirements`, v0.3 `security`). */
function requirementsOf(card: Json): string[][] {
  const list = Array.isArray(card.securityRequirements) ? card.securityRequirements : Array.isArray(card.security) ? card.security : []
  return list.filter(isObject).map((req) => Object.keys(isObject(req.schemes) ? req.schemes : req))
}

function describe(scheme: Scheme): string {
  const { raw } = scheme
  switch (scheme.type) {
    case 'oauth2': {
      const flows = isObject(raw.flows) ? Object.keys(raw.flows) : []
      return `OAuth 2 (${flows.join(', ') || 'no flows'})`
    }
    case 'openIdConnect':
      return `OpenID Connect (${text(raw.openIdConnectUrl) ?? 'no URL'})`
    case 'apiKey':
      return `API key in ${text(raw.location) ?? text(raw.in) ?? '?'} "${text(raw.name) ?? '?'}"`
    case 'http':
      return `HTTP ${text(raw.scheme) ?? '?'}`
    case 'mutualTLS':
      return 'mutual TLS'
    default:
      return 'a scheme Parallax does not know'
  }
}

/** Where the card's OAuth 2 scheme (or OpenID Connect) says to authorize: the authorization-code flow preferred, client credentials noted. */
function authorizationOf(scheme: Scheme): CardAuthorization | undefined {
  const { raw } = scheme
  if (scheme.type === 'openIdConnect') {
    const url = text(raw.openIdConnectUrl)
    return url ? { scheme: scheme.name, openIdConnectUrl: url, scopes: [] } : undefined
  }
  if (scheme.type !== 'oauth2' || !isObject(raw.flows)) return undefined
  const code = isObject(raw.flows.authorizationCode) ? raw.flows.authorizationCode : undefined
  const credentials = isObject(raw.flows.clientCredentials) ? raw.flows.clientCredentials : undefined
  const scopes = [code, credentials].flatMap((flow) => (flow && isObject(flow.scopes) ? Object.keys(flow.scopes) : []))
  return {
    scheme: scheme.name,
    ...(code && { authorizationUrl: text(code.authorizationUrl) }),
    tokenUrl: text(code?.tokenUrl) ?? text(credentials?.tokenUrl),
    ...(credentials && { clientCredentials: true }),
    scopes: [...new Set(scopes)],
  }
}

/**
 * What an agent card asks of its clients (its security schemes and requirements, as shown in the
 * handshake), what Parallax does about it, and where its OAuth 2 scheme says to authorize.
 */
export function readSecurity(card: Json, headerNames: string[]): { summary: A2aSecuritySummary; authorization?: CardAuthorization } {
  const schemes = schemesOf(card)
  const requirements = requirementsOf(card)
  const has = (name: string) => headerNames.some((h) => h.toLowerCase() === name.toLowerCase())
  const oauth = schemes.find((s) => s.type === 'oauth2' || s.type === 'openIdConnect')
  const authorization = oauth && authorizationOf(oauth)
  const apiKey = schemes.find((s) => s.type === 'apiKey')
  const bearer = schemes.find((s) => s.type === 'http' && /^bearer$/i.test(text(s.raw.scheme) ?? ''))
  let choice: string
  if (!schemes.length) choice = 'the card names no security scheme: nothing to authorize'
  else if (apiKey && has(text(apiKey.raw.name) ?? ''))
    choice = `API key "${apiKey.name}": sent as your header ${text(apiKey.raw.name)}, to this agent's origin only`
  else if (bearer && has('authorization')) choice = `bearer "${bearer.name}": your Authorization header, to this agent's origin only`
  else if (authorization)
    choice = `${oauth.type === 'oauth2' ? 'OAuth 2' : 'OpenID Connect'} "${oauth.name}": Parallax signs in when the agent asks (its token goes to this agent's origin only)`
  else if (apiKey)
    choice = `API key "${apiKey.name}": add a header ${text(apiKey.raw.name)} to this target (${apiKey.raw.location ?? apiKey.raw.in} placement)`
  else if (bearer)
    choice = `bearer "${bearer.name}": add an Authorization header to this target, or sign in where the agent answers with a challenge`
  else choice = `none Parallax can satisfy (${schemes.map(describe).join('; ')})`
  return {
    summary: { schemes: schemes.map((s) => ({ name: s.name, type: s.type, detail: describe(s) })), requirements, choice },
    ...(authorization && { authorization }),
  }
}
