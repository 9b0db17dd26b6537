import { LOG_LEVELS, type LogEvent } from '../contract'
import { detachedCut, safeStringify } from '../runtime/safeJson'

/** The longest text a server's log message is shown with; the whole message stays in its frame. */
const LOG_TEXT_LIMIT = 4_000
/** Answered requests whose tokens are remembered, so progress that comes after the answer is known for what it is. */
const ANSWERED_KEPT = 1_000

type RequestId = string | number

/** What one `notifications/progress` from the server is, as far as the protocol goes. */
export type ProgressVerdict =
  /** For a request still waiting: as it should be. */
  | { kind: 'ok' }
  /** For a request already answered (or given up on): it came after the answer; nothing waits for it any more. */
  | { kind: 'late'; requestId: RequestId; method: string; first: boolean }
  /** For a token Parallax never gave this server. */
  | { kind: 'unknown'; token: string }
  /** The progress went down: the spec says it must increase with each notification. */
  | { kind: 'backwards'; requestId: RequestId; method: string; from: number; to: number }

interface Given {
  requestId: RequestId
  method: string
  last?: number
  lateSeen?: boolean
}

/**
 * The progress tokens Parallax gave the server (in the requests that ask for progress, see
 * `requestOptions` in ./session.ts) and what became of each request, judged in wire order.
 *
 * The SDK cannot be asked: it hands a notification to its handler a microtask later but settles a
 * response at once, so when a call's last progress and its answer arrive in one read (the usual end of a
 * long call over stdio) the answer wins, the SDK forgets the token, and then reports the progress as "a
 * progress notification for an unknown token". That is plumbing, and so is progress that really comes
 * after the answer or after Parallax stopped waiting; progress for a token the server was never given,
 * or going backwards, is the server's fault.
 */
export class ProgressTokens {
  private readonly open = new Map<string, Given>()
  private readonly answered = new Map<string, Given>()
  private readonly tokenOf = new Map<RequestId, string>()

  /** A request went out carrying `token`. */
  given(token: unknown, requestId: RequestId, method: string): void {
    const key = tokenKey(token)
    if (key === undefined) return
    this.answered.delete(key)
    this.open.set(key, { requestId, method })
    this.tokenOf.set(requestId, key)
  }

  /** The request `requestId` was answered (a result or an error), or Parallax stopped waiting for it. */
  finished(requestId: RequestId): void {
    const key = this.tokenOf.get(requestId)
    if (key === undefined) return
    this.tokenOf.delete(requestId)
    const given = this.open.get(key)
    if (!given) return
    this.open.delete(key)
    this.answered.set(key, given)
    if (this.answered.size > ANSWERED_KEPT) this.answered.delete(this.answered.keys().next().value!)
  }

  /** Judges one `notifications/progress` by its params. */
  progress(params: unknown): ProgressVerdict {
    const { progressToken, progress } = (params ?? {}) as { progressToken?: unknown; progress?: unknown }
    const key = tokenKey(progressToken) ?? String(progressToken)
    const open = this.open.get(key)
    if (open) {
      const value = typeof progress === 'number' ? progress : undefined
      const last = open.last
      if (value !== undefined) open.last = value
      if (value !== undefined && last !== undefined && value < last)
        return { kind: 'backwards', requestId: open.requestId, method: open.method, from: last, to: value }
      return { kind: 'ok' }
    }
    const answered = this.answered.get(key)
    if (answered) {
      const first = !answered.lateSeen
      answered.lateSeen = true
      return { kind: 'late', requestId: answered.requestId, method: answered.method, first }
    }
    return { kind: 'unknown', token: detachedCut(safeStringify(progressToken), 100) }
  }

  /** A new session: request ids (and so tokens) start again. */
  reset(): void {
    this.open.clear()
    this.answered.clear()
    this.tokenOf.clear()
  }
}

/** A token as the SDK matches it (it reads `"6"` and `6` alike); undefined for what cannot be a token. */
function tokenKey(token: unknown): string | undefined {
  return typeof token === 'string' || typeof token === 'number' ? String(token) : undefined
}

/** A server's log message (`notifications/message`) as a log line; `offLevel` is set when its level is none of the spec's. */
export function serverLogLine(params: unknown): {
  level: LogEvent['level']
  text: string
  server: { level: string; logger?: string }
  offLevel?: string
} {
  const { level, logger, data } = (params ?? {}) as { level?: unknown; logger?: unknown; data?: unknown }
  const sent = typeof level === 'string' ? detachedCut(level, 100) : detachedCut(safeStringify(level), 100)
  const known = (LOG_LEVELS as readonly string[]).includes(sent)
  const whole = typeof data === 'string' ? data : data === undefined ? '(no data)' : safeStringify(data)
  const text = whole.length > LOG_TEXT_LIMIT ? `${detachedCut(whole, LOG_TEXT_LIMIT)}…` : whole
  return {
    level: known ? SEVERITY[sent as (typeof LOG_LEVELS)[number]] : 'info',
    text,
    server: { level: sent, ...(typeof logger === 'string' && { logger: detachedCut(logger, 200) }) },
    ...(!known && { offLevel: sent }),
  }
}

/** Each of the spec's levels on the log's one scale. */
const SEVERITY: Record<(typeof LOG_LEVELS)[number], LogEvent['level']> = {
  debug: 'debug',
  info: 'info',
  notice: 'info',
  warning: 'warn',
  error: 'error',
  critical: 'error',
  alert: 'error',
  emergency: 'error',
}
