import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import {
  describeSpec,
  redactArgs,
  redactText,
  type ConnectionOptions,
  type FailureCause,
  type LogEvent,
  type McpHandshakeEvent,
  type TargetSpec,
  type TransportKind,
} from '../contract'
import type { ConnectionAuth } from '../auth/connectionAuth'
import { ConnectFailure, errorMessage, networkCause, networkFailure, networkPhrase } from '../runtime/errors'
import { AnswerWatch } from '../runtime/httpAnswers'
import { pipeLines } from '../runtime/lines'
import { only2026HintInBody } from './eraWire'
import { loadedEra2026, loadEra2026 } from './loadEra2026'
import { ServerProcessTransport } from './stdioTransport'
import { TapTransport, type FrameObserver } from './tapTransport'

type StdioSpec = Extract<TargetSpec, { kind: 'mcp-stdio' }>
type HttpSpec = Extract<TargetSpec, { kind: 'mcp-http' }>

/** Why a session is on legacy SSE, when `auto` fell back to it (the handshake says so). */
export type Fallback = McpHandshakeEvent['fallback']

/** What the transports need of their connection. */
export interface TransportHost {
  readonly options: ConnectionOptions
  readonly auth: ConnectionAuth | undefined
  /** The connection's generation now: a transport's callbacks from an older one are ignored. */
  generation(): number
  logLine(level: LogEvent['level'], text: string, source?: 'engine' | 'transport' | 'stderr'): void
  /** A transport of this kind is about to carry a session: what is kept per session starts over. */
  carries(kind: TransportKind): void
  /** Each message across a transport opened in `generation`, as the frame tap records it: its frame's number. */
  frame(generation: number, ...seen: Parameters<FrameObserver>): number | undefined
  /** What Parallax changes in a message it sends (./eraSession.ts). */
  rewrite(message: JSONRPCMessage): JSONRPCMessage
  /** Over streamable HTTP: the `Mcp-Param-*` headers a message's request carries; throws to refuse it (./paramHeaders.ts). */
  paramHeaders(message: JSONRPCMessage): Record<string, string> | undefined
  /** Ends the session and closes every transport: before legacy SSE is tried after streamable HTTP. */
  closeSession(): Promise<void>
}

/** How a session is negotiated on a transport these open, era by era (./eraSession.ts). */
export interface SessionOpener {
  /** Whether `server/discover` is offered first. */
  readonly tries2026: boolean
  /** Whether a server that does not take the 2026 era is a failure (no fallback to initialize). */
  readonly only2026: boolean
  readonly version2026: string
  /** Whether the server declined the 2026 era on this attempt. */
  readonly declined2026: boolean
  /** True when the server took the 2026 era (the session is settled); false when the 2025 era is next. */
  offer2026(kind: TransportKind, tapped: TapTransport, answers?: AnswerWatch): Promise<boolean>
  /** `initialize` on the tapped transport; `fallback` says why the transport is legacy SSE, when it is. */
  open2025(kind: TransportKind, tapped: TapTransport, fallback?: Fallback): Promise<void>
}

/** How many of a stdio server's last stderr lines a failure names. */
const STDERR_TAIL = 5

/**
 * The transports of one MCP connection: the stdio server's process (its stderr, how it ended), streamable
 * HTTP and its fallback to legacy SSE, each wrapped in the frame tap; and, when a transport fails, the
 * failure that says why — the command line and the process's last words, or what the server answered over
 * HTTP. Which era is spoken on a transport is the opener's to decide.
 */
export class McpTransports {
  private stdio: ServerProcessTransport | undefined
  /**
   * Every transport opened since the last teardown, whatever became of it: a session's, and one an era
   * probe left without a session (a refused 2026 offer). Teardown closes them all, so no server process
   * or socket outlives the connection.
   */
  private readonly open = new Set<TapTransport>()
  /** The stdio server's last lines on stderr and how its process ended: part of saying why it failed. */
  private stderrTail: string[] = []
  private exited: { code: number | null; signal: string | null } | undefined

  constructor(
    private readonly spec: TargetSpec,
    private readonly host: TransportHost,
  ) {}

  /** The stdio server's process id. */
  get pid(): number | undefined {
    return this.stdio?.pid ?? undefined
  }

  /** How the stdio server's process ended, in words, once it has. */
  get processEnd(): string | undefined {
    return this.exited && `the server process ${exitPhrase(this.exited)}`
  }

  /** Opens a session on the target's transport, each era as `opener` decides; a failure says what the transport met. */
  async connect(opener: SessionOpener): Promise<void> {
    const spec = this.spec
    if (spec.kind === 'a2a' || spec.kind === 'acp')
      throw new Error(`an ${spec.kind.toUpperCase()} target cannot be opened as an MCP connection`)
    if (spec.kind === 'mcp-stdio') {
      try {
        return await this.connectStdio(spec, opener)
      } catch (error) {
        throw await this.stdioFailure(spec, error)
      }
    }
    if (opener.tries2026) {
      if (spec.transport === 'sse') {
        if (opener.only2026)
          throw new ConnectFailure(
            `MCP ${opener.version2026} has no HTTP+SSE transport, and this target is set to legacy SSE: set its transport to "auto" or "streamable-http", or connect under a profile that asks for the 2025 era`,
            { transport: 'sse' },
          )
      } else {
        let probeFailure: ConnectFailure | undefined
        try {
          if (await this.connectHttp2026(spec, opener)) return
        } catch (error) {
          probeFailure = error as ConnectFailure
        }
        // A 2026-only profile's refusal stands as it is; any other failure of the probe is the HTTP attempt's.
        if (probeFailure) throw spec.transport === 'auto' && !opener.declined2026 ? sseNotTried(probeFailure) : probeFailure
      }
    }
    if (spec.transport !== 'auto') return this.connectHttp(spec.transport, spec, opener)
    let first: ConnectFailure
    try {
      return await this.connectHttp('streamable-http', spec, opener)
    } catch (error) {
      first = error as ConnectFailure
    }
    // Legacy SSE only where the MCP spec's backwards compatibility points to it (docs/architecture.md): a
    // 404 or 405 to the first POST. Any other answer is the server's own word on this request, shown as it is.
    const status = first.failure.status
    if (status !== 404 && status !== 405) throw sseNotTried(first)
    const why = `the first POST answered HTTP ${status}, which the MCP spec (backwards compatibility) takes as a server that may speak only legacy HTTP+SSE`
    this.host.logLine('info', `streamable HTTP answered initialize with HTTP ${status}; falling back to legacy SSE: ${why}`, 'transport')
    await this.host.closeSession()
    try {
      await this.connectHttp('sse', spec, opener, { from: 'streamable-http', why, first: first.failure })
    } catch (error) {
      const sse = error as ConnectFailure
      throw new ConnectFailure(`${first.message}; then, tried because of the ${status}, ${sse.message}`, {
        ...sse.failure,
        fallback: { tried: true, why, first: first.failure },
      })
    }
  }

  /** The transport closed under a session: over stdio, how the process ended. */
  closedReason(kind: TransportKind): { reason: string; cause?: FailureCause } {
    const spec = this.spec
    if (kind !== 'stdio' || spec.kind !== 'mcp-stdio') return { reason: 'server closed the connection' }
    return { reason: this.exited ? `server process ${exitPhrase(this.exited)}` : 'server process exited', cause: this.stdioCause(spec) }
  }

  /** Closes every transport opened since the last time. */
  async closeAll(): Promise<void> {
    this.stdio = undefined
    const transports = [...this.open]
    this.open.clear()
    await Promise.all(transports.map((transport) => transport.close().catch(() => {})))
  }

  /**
   * Over stdio the 2026 probe runs in place, on the pipe the session then uses, so its frames are tapped
   * like any other; a server that exits on it (some stop at any request before initialize) is started
   * again for the 2025 era.
   */
  private async connectStdio(spec: StdioSpec, opener: SessionOpener): Promise<void> {
    if (opener.tries2026) {
      const tapped = this.tapped('stdio', this.stdioTransport(spec))
      if (await opener.offer2026('stdio', tapped)) return
      if (!this.exited) return opener.open2025('stdio', tapped)
      this.host.logLine(
        'info',
        `the server process ${exitPhrase(this.exited)} on server/discover; starting it again for the 2025 era`,
        'transport',
      )
      await tapped.close().catch(() => {})
    }
    await opener.open2025('stdio', this.tapped('stdio', this.stdioTransport(spec)))
  }

  /** Why a stdio server could not be reached: the whole command line, how its process ended, its last words on stderr. */
  private async stdioFailure(spec: StdioSpec, error: unknown): Promise<ConnectFailure> {
    await new Promise((resolve) => setImmediate(resolve)) // stderr's last lines, still in the pipe
    const cause = this.stdioCause(spec)
    const code = (error as { code?: unknown } | undefined)?.code
    if (typeof code === 'string') cause.code = code
    cause.error = errorMessage(error)
    const said = cause.stderr?.length ? `; stderr: ${cause.stderr.at(-1)}` : ''
    const message =
      typeof code === 'string'
        ? `cannot run ${cause.command}: ${cause.error}`
        : this.exited
          ? `the server process ${exitPhrase(this.exited)} before the handshake completed (${cause.command})${said}`
          : `${cause.error} (${cause.command})${said}`
    return new ConnectFailure(message, cause)
  }

  private stdioCause(spec: StdioSpec): FailureCause {
    return {
      transport: 'stdio',
      command: describeSpec({ ...spec, args: redactArgs(spec.args) }),
      ...(this.exited && { exit: this.exited }),
      ...(this.stderrTail.length && { stderr: [...this.stderrTail] }),
    }
  }

  private stdioTransport(spec: StdioSpec): Transport {
    const generation = this.host.generation()
    this.stderrTail = []
    this.exited = undefined
    const transport = new ServerProcessTransport({
      command: spec.command,
      args: spec.args,
      env: spec.env,
      cwd: spec.cwd,
      maxMessageBytes: this.host.options.maxMessageBytes,
      exitGraceMs: this.host.options.exitGraceMs,
      onExit: (exit) => {
        if (generation === this.host.generation()) this.exited = exit
      },
    })
    if (transport.stderr) {
      pipeLines(transport.stderr, (line) => {
        if (generation !== this.host.generation()) return
        this.stderrTail = [...this.stderrTail.slice(-(STDERR_TAIL - 1)), line]
        this.host.logLine('info', line, 'stderr')
      })
    }
    this.stdio = transport
    return transport
  }

  /** Connects over one HTTP transport in the 2025 era; a failure says what the server answered (status, its words, its challenge) or where it could not be reached. */
  private async connectHttp(kind: 'streamable-http' | 'sse', spec: HttpSpec, opener: SessionOpener, fallback?: Fallback): Promise<void> {
    const answers = new AnswerWatch()
    const fetch = this.httpFetch(answers)
    try {
      const transport = kind === 'sse' ? sseTransport(spec, fetch) : streamableTransport(spec, fetch)
      await opener.open2025(kind, this.tapped(kind, transport), fallback)
    } catch (error) {
      throw await this.httpConnectFailure(kind, spec.url, error, answers)
    }
  }

  /**
   * Offers the 2026 era over HTTP: a POST of `server/discover` through the 2.x transport (the era's headers,
   * no session). True when the server took it; false when it gave no 2026 evidence (a 2025 server, met
   * next by the 2025 path, which says what it answers); a failure that says nothing about the era (a
   * sign-in wall, an outage) is the connection's failure.
   */
  private async connectHttp2026(spec: HttpSpec, opener: SessionOpener): Promise<boolean> {
    const answers = new AnswerWatch()
    const { ModernHttpTransport } = await loadEra2026()
    const transport = new ModernHttpTransport(new URL(spec.url), { requestInit: { headers: spec.headers }, fetch: this.httpFetch(answers) })
    const tapped = this.tapped('streamable-http', transport as unknown as Transport)
    let taken: boolean
    try {
      taken = await opener.offer2026('streamable-http', tapped, answers)
    } catch (error) {
      throw error instanceof ConnectFailure && error.failure.transport
        ? error
        : await this.httpConnectFailure('streamable-http', spec.url, error, answers)
    }
    if (!taken) await tapped.close().catch(() => {})
    return taken
  }

  private httpFetch(answers: AnswerWatch): typeof globalThis.fetch {
    const auth = this.host.auth
    return auth ? auth.wrap(answers.fetch) : answers.fetch
  }

  /** What an HTTP attempt met, and a sign-in where a challenge needs a person. */
  private async httpConnectFailure(
    kind: 'streamable-http' | 'sse',
    url: string,
    error: unknown,
    answers: AnswerWatch,
  ): Promise<ConnectFailure> {
    const failure = await httpFailure(kind, url, error, answers)
    const refused = only2026HintInBody(failure.failure.body)
    if (refused) return new ConnectFailure(`${failure.message}${refused}`, failure.failure)
    // A challenge Parallax could not answer without a person: the failure says a sign-in is needed, and why.
    const required = this.host.auth?.required
    const status = failure.failure.status
    if (required && (status === 401 || status === 403))
      return new ConnectFailure(`${failure.message}; sign-in: ${required.why}`, { ...failure.failure, auth: required })
    return failure
  }

  /** A transport with the frame tap around it, for this generation of the connection. */
  private tapped(kind: TransportKind, transport: Transport): TapTransport {
    const generation = this.host.generation()
    this.host.carries(kind)
    const tapped = new TapTransport(
      transport,
      (direction, message, ts, refused, headers) => this.host.frame(generation, direction, message, ts, refused, headers),
      (message) => this.host.rewrite(message),
      (note) => {
        if (generation === this.host.generation()) this.host.logLine('warn', note, 'transport')
      },
      kind === 'streamable-http' ? (message) => this.host.paramHeaders(message) : undefined,
    )
    this.open.add(tapped)
    return tapped
  }
}

/** An HTTP failure where `auto` did not try legacy SSE, with why. */
function sseNotTried(failure: ConnectFailure): ConnectFailure {
  const why = noFallback(failure.failure.status)
  return new ConnectFailure(`${failure.message} (legacy SSE not tried: ${why})`, { ...failure.failure, fallback: { tried: false, why } })
}

function streamableTransport(spec: HttpSpec, fetch: typeof globalThis.fetch): Transport {
  return new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers }, fetch })
}

function sseTransport(spec: HttpSpec, fetch: typeof globalThis.fetch): Transport {
  // requestInit headers apply to the event stream too
  return new SSEClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers }, fetch })
}

function exitPhrase(exit: { code: number | null; signal: string | null }): string {
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`
}

/** Why `auto` did not try legacy SSE after streamable HTTP failed. */
function noFallback(status: number | undefined): string {
  if (status === undefined) return 'no HTTP answer came, and legacy SSE at the same address would meet the same'
  if (status === 401 || status === 403) return `HTTP ${status} is about credentials, and legacy SSE would be refused the same way`
  return `only a 404 or 405 to the first POST suggests a legacy server (MCP spec, backwards compatibility), and HTTP ${status} is this server's answer to the request (set the target's transport to "sse" to force legacy SSE)`
}

/** What an HTTP transport met: the server's answer (status, its words, its challenge), else the network's (refused host:port), else the error. */
async function httpFailure(kind: 'streamable-http' | 'sse', url: string, error: unknown, answers: AnswerWatch): Promise<ConnectFailure> {
  const status = error instanceof StreamableHTTPError || error instanceof SseError ? error.code : loadedEra2026()?.sdkHttpStatus(error)
  const answer = status !== undefined && status > 0 ? await answers.lastFailure() : undefined
  const seen = answer?.status === status ? answer : undefined
  const request = { method: seen?.request.method ?? (kind === 'sse' ? 'GET' : 'POST'), url: redactText(seen?.request.url ?? url) }
  const cause: FailureCause = { transport: kind, request, error: errorMessage(error) }
  const label = kind === 'sse' ? 'legacy SSE' : 'streamable HTTP'
  if (status !== undefined && status > 0) {
    Object.assign(cause, {
      status,
      ...(seen?.statusText && { statusText: seen.statusText }),
      ...(seen?.challenge && { challenge: seen.challenge }),
      ...(seen?.message && { message: seen.message }),
      ...(seen?.body && { body: seen.body }),
    })
    const words = seen?.message ? `: ${seen.message}` : ''
    const challenge = seen?.challenge ? ` (WWW-Authenticate: ${seen.challenge})` : ''
    return new ConnectFailure(
      `${label} ${request.method} ${request.url} answered HTTP ${status}${seen?.statusText ? ` ${seen.statusText}` : ''}${words}${challenge}`,
      cause,
    )
  }
  const network = networkFailure(error, url)
  if (network) {
    Object.assign(cause, networkCause(network))
    return new ConnectFailure(`${label}: ${networkPhrase(network)} for ${request.method} ${request.url}`, cause)
  }
  return new ConnectFailure(`${label} ${request.url}: ${cause.error}`, cause)
}
