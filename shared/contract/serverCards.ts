// MCP server cards (SEP-2127, draft) and the registry's server.json, as read and as diffed against a server.

export interface ServerCardRemote {
  type: string
  url: string
  supportedProtocolVersions?: string[]
  authentication?: { required?: boolean; schemes?: string[] }
}

/** A card (or server.json) as read: what it claims, and what in it does not follow the draft. */
export interface ServerCardRead {
  /** The URL the document came from (a base URL is looked up at its well-known path). */
  url: string
  kind: 'server-card' | 'server.json'
  name?: string
  title?: string
  version?: string
  description?: string
  remotes: ServerCardRemote[]
  capabilities?: Record<string, unknown>
  tools?: Record<string, unknown>[]
  prompts?: Record<string, unknown>[]
  resources?: Record<string, unknown>[]
  /** What it runs as a local package (server.json), which Parallax does not install: each package's identifier. */
  packages: string[]
  /** Each way the document departs from the draft, said plainly. */
  problems: string[]
}

/** Compare's vocabulary, from the card's side: what only the card claims, what only the server has. */
export type DriftState = 'same' | 'only in card' | 'only on server' | 'changed'

/** One claim of the card beside what the server answered: its version, a capability, the protocol version. */
export interface ClaimRow {
  field: string
  state: DriftState
  card?: unknown
  server?: unknown
}

/** A primitive of the card beside the server's; `dynamic`: its list may change at runtime (the card says listChanged), so presence alone is not drift. */
export interface PrimitiveRow {
  kind: 'tool' | 'prompt' | 'resource'
  name: string
  state: DriftState
  dynamic: boolean
  changes?: { path: string; kind: string; breaking: boolean; detail: string }[]
}

export interface CardDrift {
  card: ServerCardRead
  connectionId: string
  claims: ClaimRow[]
  primitives: PrimitiveRow[]
  /** Whether the server differs from what its card claims, or the card departs from the draft. */
  drift: boolean
}
