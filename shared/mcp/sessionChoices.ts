import { EmptyResultSchema } from '@modelcontextprotocol/sdk/types.js'
import { CommandError, LOG_LEVELS, type LogEvent, type LogLevel, type McpEra } from '../contract'
import { errorMessage } from '../runtime/errors'
import { LOG_LEVEL_KEY } from './eraWire'
import { requestOptions, type McpSession } from './session'

/** What the user's choices need of their connection. */
export interface ChoicesHost {
  /** The session, while the connection is live. */
  liveSession(): McpSession | undefined
  /** The connection's state, for saying why there is no session. */
  state(): string
  capabilities(): Record<string, unknown>
  timeoutMs(): number
  logLine(level: LogEvent['level'], text: string): void
}

/**
 * What the user chose of the session, kept across reconnects (a new session starts with none of it): the
 * resources subscribed to, and the log level asked for — with the one the server last agreed to, this session.
 */
export class SessionChoices {
  /** The resources the user subscribed to: subscribed again after a reconnect. */
  private readonly subscriptions = new Set<string>()
  /** The log level the user asked for (asked again after a reconnect), and the one the server last agreed to this session. */
  private asked: LogLevel | undefined
  private agreed: LogLevel | undefined

  constructor(private readonly host: ChoicesHost) {}

  get logLevel(): LogLevel | undefined {
    return this.asked
  }

  get agreedLogLevel(): LogLevel | undefined {
    return this.agreed
  }

  subscribed(uri: string): boolean {
    return this.subscriptions.has(uri)
  }

  /** A new session on a new transport: it has agreed to no log level yet. */
  newSession(): void {
    this.agreed = undefined
  }

  /** What a request the user made changed of the session: subscriptions (kept for reconnects), the log level agreed. */
  answered(method: string, params: Record<string, unknown> | undefined): void {
    const value = (key: string) => (typeof params?.[key] === 'string' ? (params[key] as string) : undefined)
    if (method === 'resources/subscribe' && value('uri')) this.subscriptions.add(value('uri')!)
    else if (method === 'resources/unsubscribe' && value('uri')) this.subscriptions.delete(value('uri')!)
    else if (method === 'logging/setLevel' && (LOG_LEVELS as readonly string[]).includes(value('level') ?? '')) {
      this.asked = this.agreed = value('level') as LogLevel
    }
  }

  /** Asks the server for its log messages at `level` and above (`logging/setLevel`); kept for reconnects. */
  async setLogLevel(level: LogLevel): Promise<void> {
    const session = this.host.liveSession()
    if (!session) throw new CommandError(`not connected (${this.host.state()})`, 'failed')
    if (session.era === '2026') {
      // The 2026 era has no logging/setLevel: the level rides each request, and a request without one gets no log messages.
      this.asked = this.agreed = level
      this.host.logLine(
        'info',
        `asking for log messages at "${level}" and above on each request from now on (_meta ${LOG_LEVEL_KEY}: the 2026 era has no logging/setLevel)`,
      )
      return
    }
    if (!this.host.capabilities().logging)
      throw new CommandError(
        'this server did not advertise the "logging" capability, so it offers no logging/setLevel (its log messages, if any, still show)',
        'invalid-input',
      )
    try {
      await this.askLogLevel(session, level)
    } catch (error) {
      throw new CommandError(`the server refused logging/setLevel "${level}": ${errorMessage(error)}`, 'failed', undefined)
    }
    this.asked = level
  }

  /** After the handshake: what the user chose before a reconnect, asked of the new session (the 2026 era's log level rides each request). */
  async restore(session: McpSession, era: McpEra): Promise<void> {
    if (era === '2026') {
      if (this.asked)
        this.host.logLine('info', `asking for log messages at "${this.asked}" and above on each request, as before reconnecting (2026 era)`)
      return
    }
    await this.subscribeAgain(session)
    if (this.asked && this.host.capabilities().logging) {
      // A new session starts at the server's default: ask again for what the user chose.
      await this.askLogLevel(session, this.asked, ' again, as before reconnecting,').catch((error: unknown) =>
        this.host.logLine('warn', `could not ask the server again for log level "${this.asked}": ${errorMessage(error)}`),
      )
    }
  }

  /** After a reconnect: the user's subscriptions again (a new session, a new process over stdio, starts with none). */
  private async subscribeAgain(session: McpSession): Promise<void> {
    if (this.subscriptions.size === 0) return
    const uris = [...this.subscriptions]
    if (!(this.host.capabilities().resources as { subscribe?: unknown } | undefined)?.subscribe) {
      this.subscriptions.clear()
      this.host.logLine(
        'warn',
        `the server no longer advertises resources.subscribe: ${uris.length} subscription(s) dropped (${uris.join(', ')})`,
      )
      return
    }
    for (const uri of uris) {
      try {
        await session.request('resources/subscribe', { uri }, requestOptions(this.host.timeoutMs()), EmptyResultSchema)
      } catch (error) {
        this.subscriptions.delete(uri)
        this.host.logLine('warn', `could not subscribe again to ${uri}: ${errorMessage(error)}`)
      }
    }
    if (this.subscriptions.size)
      this.host.logLine('info', `subscribed again, as before reconnecting, to ${[...this.subscriptions].join(', ')} (resources/subscribe)`)
  }

  private async askLogLevel(session: McpSession, level: LogLevel, how = ''): Promise<void> {
    await session.request('logging/setLevel', { level }, requestOptions(this.host.timeoutMs()), EmptyResultSchema)
    this.agreed = level
    this.host.logLine('info', `asked the server${how} for log messages at "${level}" and above (logging/setLevel)`)
  }
}
