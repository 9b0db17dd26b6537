/**
 * MCP's two protocol eras (docs/architecture.md, "The protocol rules the code keeps"):
 * - **2025**: the versions 2024-11-05 … 2025-11-25. `initialize` then `notifications/initialized`, `ping`,
 *   list changes sent unsolicited, `logging/setLevel` for the session.
 * - **2026**: 2026-07-28 on. No `initialize`: `server/discover` says what the server offers; every request
 *   carries the client's version, info and capabilities in `_meta`; no `ping`; list changes come only on a
 *   `subscriptions/listen` stream; a log level rides each request.
 */
export type McpEra = '2025' | '2026'

/** The 2026 era's first version, the one Parallax offers through `server/discover`. */
export const MCP_2026_VERSION = '2026-07-28'

export function mcpEraOf(version: string | undefined): McpEra {
  return version !== undefined && version >= MCP_2026_VERSION ? '2026' : '2025'
}

/**
 * What a client profile's `mcp.protocolVersion` asks for: none — negotiate (offer 2026-07-28 through
 * `server/discover`, fall back to the 2025 `initialize` when the server does not take it); a 2026 version —
 * that era only (no fallback); a 2025 version — the 2025 handshake only, asking for that version (no probe).
 */
export type McpVersionAsk = { mode: 'negotiate' } | { mode: '2026-only'; version: string } | { mode: '2025-only'; version: string }

export function mcpVersionAsk(protocolVersion: string | undefined): McpVersionAsk {
  if (protocolVersion === undefined) return { mode: 'negotiate' }
  return mcpEraOf(protocolVersion) === '2026'
    ? { mode: '2026-only', version: protocolVersion }
    : { mode: '2025-only', version: protocolVersion }
}

/** One offer Parallax made while negotiating, and what the server answered. */
export interface McpNegotiationStep {
  method: 'server/discover' | 'initialize'
  /** The versions offered: the probe's `_meta` version, or initialize's `protocolVersion`. */
  offered: string[]
  /** Whether this offer settled the era. */
  accepted: boolean
  /** What the server answered, in words: its versions, its JSON-RPC error, its HTTP status, its silence, its exit. */
  answer: string
  /** The frame that answered (when the answer was a JSON-RPC message). */
  frameSeq?: number
}

/** How a connection reached its era: what the profile asked, each offer and answer, and one line saying it. */
export interface McpNegotiation {
  ask: McpVersionAsk['mode']
  steps: McpNegotiationStep[]
  summary: string
}

/** Which of the era's rules the connection keeps, in words, for the Handshake, Discovery and Keepalive views and `inspect`. */
export interface McpEraRules {
  /** Where the capabilities came from, and that each list is called only when advertised. */
  discovery: string
  /** How list changes reach Parallax, and which lists it listens for. */
  listChanged: string
  /** The keepalive probe and why (never `ping` in the 2026 era). */
  keepalive: string
}

/** A handshake's era: as recorded, else read from the negotiated version (recordings made before eras were shown). */
export function handshakeEra(handshake: { era?: McpEra; protocolVersion?: string }): McpEra {
  return handshake.era ?? mcpEraOf(handshake.protocolVersion)
}

/** The era as people read it: "2026 era (2026-07-28)". */
export function eraLabel(era: McpEra, version?: string): string {
  return `${era} era${version ? ` (${version})` : ''}`
}
