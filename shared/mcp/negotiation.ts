import { MCP_2026_VERSION, type McpEra, type McpNegotiation, type McpNegotiationStep, type McpVersionAsk } from '../contract'

/**
 * How one connection reaches its era (shared/contract/mcpEra.ts): what the profile asked, then each offer —
 * `server/discover` with 2026-07-28, `initialize` with a 2025 version — and what the server answered.
 */
export class NegotiationRecord {
  readonly steps: McpNegotiationStep[] = []

  constructor(
    readonly ask: McpVersionAsk,
    private readonly profile: string | undefined,
    /** Why this server is known to be a 2025 server (it answered so when this connection was first made): a reconnect does not ask again. */
    private readonly known2025?: string,
  ) {}

  /** Whether `server/discover` is offered first. */
  get tries2026(): boolean {
    return this.ask.mode === '2026-only' || (this.ask.mode === 'negotiate' && !this.known2025)
  }

  /** Whether a server that does not take 2026-07-28 is a failure (no fallback to initialize). */
  get only2026(): boolean {
    return this.ask.mode === '2026-only'
  }

  /** The version `server/discover` offers. */
  get version2026(): string {
    return this.ask.mode === '2026-only' ? this.ask.version : MCP_2026_VERSION
  }

  add(step: McpNegotiationStep): void {
    this.steps.push(step)
  }

  /** What a declined `server/discover` answered, for the reconnects that follow. */
  get declined2026(): string | undefined {
    return this.steps.find((s) => s.method === 'server/discover' && !s.accepted)?.answer
  }

  /** The record for the handshake, with one line saying how the era was reached. */
  result(era: McpEra, version: string | undefined): McpNegotiation {
    return { ask: this.ask.mode, steps: [...this.steps], summary: this.summary(era, version) }
  }

  private summary(era: McpEra, version: string | undefined): string {
    const under = this.profile ? ` (profile "${this.profile}")` : ''
    const discover = this.steps.find((s) => s.method === 'server/discover')
    if (this.ask.mode === '2025-only')
      return `the 2025 era only${under}: initialize asked for ${this.ask.version}, no server/discover first; the server answered ${version ?? 'nothing readable'}`
    if (this.ask.mode === '2026-only')
      return `the 2026 era only${under}: server/discover offered ${this.ask.version}; the server ${discover?.answer ?? 'answered'}`
    if (era === '2026')
      return `negotiated ${version}: server/discover offered ${MCP_2026_VERSION} and the server ${discover?.answer ?? 'took it'}`
    if (this.known2025)
      return `the 2025 era, as when this connection was first made (server/discover: ${this.known2025}): a reconnect does not offer 2026-07-28 again; initialize settled on ${version ?? 'no version'}`
    return `fell back to the 2025 era: server/discover offered ${MCP_2026_VERSION} (${discover?.answer ?? 'no 2026 answer'}); initialize then settled on ${version ?? 'no version'}`
  }
}

/** Where discovery's capabilities came from, and the gate every list call keeps. */
export function discoveryRule(era: McpEra): string {
  return era === '2026'
    ? 'capabilities from server/discover (2026 era); each list is called only when its capability is advertised'
    : 'capabilities from initialize (2025 era); each list is called only when its capability is advertised'
}

/** How list changes arrive in the 2025 era. */
export const LIST_CHANGED_2025 =
  'unsolicited notifications/…/list_changed (2025 era); each refreshes only a list whose capability the server advertised'

/** Why the keepalive probes with this method: the era's rule (never `ping` where the era has none). */
export function keepaliveRule(era: McpEra, probe: string, note?: string): string {
  const why =
    era === '2026'
      ? probe === 'tools/list'
        ? 'the server advertises tools, and the 2026 era has no ping'
        : 'the 2026 era has no ping, and the server advertises no tools: server/discover, the one request every 2026 server answers'
      : probe === 'tools/list'
        ? 'the server advertises tools: tools/list proves what it offers still answers (2025 era)'
        : 'the server advertises no tools: ping (2025 era)'
  return `${probe}: ${note ?? why}`
}
