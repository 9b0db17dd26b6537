// What a server says about authorization before any sign-in: its challenge, or an A2A card's scheme. Read on
// every refused request, so it loads with the connection; discovery and the sign-in load when one starts.

/** What the server's challenge said (RFC 6750 §3, RFC 9728 §5.1). */
export interface Challenge {
  status: number
  header?: string
  resourceMetadata?: string
  scope?: string
  error?: string
  errorDescription?: string
}

/** Where an A2A card says to authorize (an OAuth 2 or OpenID Connect security scheme), for agents without resource metadata. */
export interface CardAuthorization {
  scheme: string
  authorizationUrl?: string
  tokenUrl?: string
  openIdConnectUrl?: string
  /** The card offers the client-credentials flow (at `tokenUrl`). */
  clientCredentials?: boolean
  scopes: string[]
}

/** Reads a `WWW-Authenticate` challenge's parameters (quoted or not). */
export function parseChallenge(status: number, header: string | null): Challenge {
  const field = (name: string) => (header ? new RegExp(`(?:^|[\\s,])${name}=(?:"([^"]*)"|([^\\s,]+))`).exec(header) : null)
  const value = (name: string) => {
    const match = field(name)
    return match ? (match[1] ?? match[2]) : undefined
  }
  const resourceMetadata = value('resource_metadata')
  return {
    status,
    ...(header && { header }),
    ...(resourceMetadata && URL.canParse(resourceMetadata) && { resourceMetadata }),
    ...(value('scope') && { scope: value('scope') }),
    ...(value('error') && { error: value('error') }),
    ...(value('error_description') && { errorDescription: value('error_description') }),
  }
}
