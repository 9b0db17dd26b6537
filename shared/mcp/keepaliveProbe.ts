import { EmptyResultSchema, ErrorCode, ListToolsResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js'
import type { McpEra } from '../contract'
import { errorMessage } from '../runtime/errors'
import { ProbeError, type ProbeOutcome } from '../runtime/supervisedConnection'
import { keepaliveRule } from './negotiation'
import type { McpSession } from './session'

type ProbeMethod = 'tools/list' | 'ping' | 'server/discover'

/** What the keepalive probe needs of its connection. */
export interface ProbeHost {
  session(): McpSession | undefined
  timeoutMs(): number
  /** Marks the probe's frames, so the Frames view can set probes apart. */
  expectProbe(method: string): void
}

/**
 * The era's keepalive rule (docs/architecture.md, "The protocol rules the code keeps"): tools/list for a tool
 * server; else ping in the 2025 era and server/discover in the 2026 era, which has no ping.
 */
export class KeepaliveProbe {
  private method: ProbeMethod = 'ping'
  /** Why the probe changed from the era's first choice, once it did. */
  private change: string | undefined

  constructor(private readonly host: ProbeHost) {}

  /** The probe for a new session: the rule it keeps, in words. */
  choose(era: McpEra, capabilities: Record<string, unknown>): string {
    this.method = capabilities.tools ? 'tools/list' : era === '2026' ? 'server/discover' : 'ping'
    this.change = undefined
    return keepaliveRule(era, this.method)
  }

  /** The rule in force, with why it changed once it did. */
  rule(): string {
    return keepaliveRule(this.host.session()?.era ?? '2025', this.method, this.change)
  }

  async once(): Promise<ProbeOutcome> {
    const session = this.host.session()
    if (!session) throw new ProbeError(this.method, 'not connected')
    const probe = this.method
    // A probe is a plain request: no progress token, just the timeout.
    const options = { timeout: this.host.timeoutMs() }
    this.host.expectProbe(probe)
    try {
      await session.request(
        probe,
        probe === 'tools/list' ? {} : undefined,
        options,
        probe === 'tools/list' ? ListToolsResultSchema : EmptyResultSchema,
      )
      return { probe }
    } catch (error) {
      if (probe === 'tools/list' && error instanceof McpError && error.code === ErrorCode.MethodNotFound) {
        // The server is alive (it answered); it just lied about `tools`. Never tear it down for that.
        this.method = session.era === '2026' ? 'server/discover' : 'ping'
        this.change = `the server advertises tools but answered tools/list -32601, so ${this.method} (${session.era === '2026' ? 'the 2026 era has no ping' : '2025 era'})`
        return { probe, note: `server advertises tools but answered -32601; probing with ${this.method} from now on` }
      }
      throw new ProbeError(probe, errorMessage(error))
    }
  }
}
