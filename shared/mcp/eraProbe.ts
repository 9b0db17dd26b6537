import {
  Client as ModernClient,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  type Transport as ModernTransport,
} from '@modelcontextprotocol/client'
import { MCP_2026_VERSION } from '../contract'
import type { TapTransport } from './tapTransport'

export interface ProbeSettings {
  clientInfo: { name: string; version: string }
  capabilities: Record<string, unknown>
  /** How long to wait for `server/discover` to be answered. */
  timeoutMs: number
  /** A stdio pipe: a server that stays silent, or exits, on the probe is a 2025 server (the SDK's rule for pipes). */
  stdio: boolean
}

/**
 * What the `server/discover` probe came to: the 2026 era (the 2.x client, connected); a server that did not
 * take it (no 2026 evidence: a 2025 server), with the SDK's verdict; or a failure that says nothing about
 * the era (a sign-in wall, an unreachable or silent HTTP server) — the connection's failure as it is.
 */
export type ProbeResult =
  | { kind: 'modern'; client: ModernClient; lease: ProbeLease }
  | { kind: 'declined'; verdict: string }
  | { kind: 'failed'; error: unknown; status?: number }

/**
 * Offers MCP 2026-07-28 through the 2.x client's own negotiation (`server/discover`), in place on the
 * tapped transport so the frame tap sees the probe and its answer. The client is told it supports 2026-07-28
 * alone, so a server without 2026 evidence makes it stop before `initialize`: the 2025 era then belongs to
 * the 1.x client, on the same pipe (stdio) or a fresh exchange (HTTP).
 */
export async function probe2026(transport: TapTransport, settings: ProbeSettings): Promise<ProbeResult> {
  const client = new ModernClient(settings.clientInfo, {
    capabilities: settings.capabilities,
    versionNegotiation: { mode: 'auto', probe: { timeoutMs: settings.timeoutMs } },
    supportedProtocolVersions: [MCP_2026_VERSION],
  })
  const lease = new ProbeLease(transport, settings.stdio)
  try {
    await client.connect(lease as unknown as ModernTransport, { timeout: settings.timeoutMs })
  } catch (error) {
    if (isEraVerdict(error)) return { kind: 'declined', verdict: error.message }
    const status = sdkHttpStatus(error)
    // A network failure the SDK wrapped: the failure is the network's own (refused host:port), as on any other request.
    const cause = error instanceof SdkError ? (error.data as { cause?: unknown } | undefined)?.cause : undefined
    return { kind: 'failed', error: cause ?? error, ...(status !== undefined && { status }) }
  }
  lease.release()
  return { kind: 'modern', client, lease }
}

/** The HTTP status the 2.x transport was answered with, when that is what failed. */
export function sdkHttpStatus(error: unknown): number | undefined {
  return error instanceof SdkHttpError ? (error.data as { status?: number } | undefined)?.status : undefined
}

/** The SDK's "no 2026 evidence" (a 2025 server), as opposed to a network failure it wraps in the same code (with its cause) or an HTTP status. */
function isEraVerdict(error: unknown): error is SdkError {
  if (!(error instanceof SdkError) || error instanceof SdkHttpError || error.code !== SdkErrorCode.EraNegotiationFailed) return false
  return (error.data as { cause?: unknown } | undefined)?.cause === undefined
}

/**
 * The tapped transport as lent to the 2.x client for the probe: started once (the 1.x client may start it
 * again), and not closed when the probe finds no 2026 era (the SDK closes what it probed; the pipe is the
 * 1.x client's next). On a pipe it looks like the SDK's own stdio transport to the probe's judgement
 * (`stderr`, `pid`), so silence or an exit means a 2025 server rather than an outage.
 */
export class ProbeLease {
  private holding = true

  constructor(
    private readonly tap: TapTransport,
    stdio: boolean,
  ) {
    if (stdio) Object.assign(this, { stderr: null, pid: null })
  }

  /** The 2026 session owns the transport from now on: closing it closes it. */
  release(): void {
    this.holding = false
  }

  start(): Promise<void> {
    return this.tap.start()
  }

  send(...args: Parameters<TapTransport['send']>): Promise<void> {
    return this.tap.send(...args)
  }

  close(): Promise<void> {
    return this.holding ? Promise.resolve() : this.tap.close()
  }

  get onmessage() {
    return this.tap.onmessage
  }
  set onmessage(handler) {
    this.tap.onmessage = handler
  }
  get onclose() {
    return this.tap.onclose
  }
  set onclose(handler) {
    this.tap.onclose = handler
  }
  get onerror() {
    return this.tap.onerror
  }
  set onerror(handler) {
    this.tap.onerror = handler
  }
  get sessionId() {
    return this.tap.sessionId
  }
  get hasPerRequestStream() {
    return this.tap.hasPerRequestStream
  }
  setProtocolVersion(version: string): void {
    this.tap.setProtocolVersion(version)
  }
}
