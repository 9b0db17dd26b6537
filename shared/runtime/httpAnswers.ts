import { setMaxListeners } from 'node:events'

const lifted = new WeakSet<AbortSignal>()

/**
 * The MCP SDK gives every request of a session one signal, and fetch adds a listener to it per request, let
 * go only when that request is collected: without its limit lifted, a long session warns of a leak that is none.
 */
export function liftListenerLimit(signal: AbortSignal | null | undefined): void {
  if (!signal || lifted.has(signal)) return
  setMaxListeners(0, signal)
  lifted.add(signal)
}

/** An HTTP answer that was not a success, as a person needs it to act: status, challenge, the server's own words. */
export interface FailedAnswer {
  request: { method: string; url: string }
  status: number
  statusText?: string
  /** The `WWW-Authenticate` header: the scheme and where to get a token. */
  challenge?: string
  /** The server's own message: a JSON error body's message, else the start of a plain-text body. */
  message?: string
  /** The body as it came, up to `BODY_LIMIT` characters. */
  body?: string
}

const BODY_LIMIT = 2_000
const MESSAGE_LIMIT = 500
/** How long a failure waits for the failed answer's body before saying what it has. */
const BODY_WAIT_MS = 500

/**
 * A fetch for a transport that keeps the last answer that was not a success (4xx, 5xx), whole enough to
 * say why a connection failed: the SDKs' errors keep the status, or only their own wording of it, and
 * never the challenge. The body is read from a copy, bounded, without holding up the transport.
 */
export class AnswerWatch {
  private last: Promise<FailedAnswer> | undefined

  constructor(private readonly base: typeof fetch = (input, init) => fetch(input, init)) {}

  readonly fetch: typeof fetch = async (input, init) => {
    liftListenerLimit(init?.signal)
    const response = await this.base(input, init)
    if (response.status >= 400) {
      const request = {
        method: init?.method ?? (input instanceof Request ? input.method : 'GET'),
        url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      }
      this.last = failedAnswer(response.clone(), request)
    }
    return response
  }

  /** The last answer that was not a success, since the last `reset` (its body if it came within a moment). */
  async lastFailure(): Promise<FailedAnswer | undefined> {
    const last = this.last
    if (!last) return undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), BODY_WAIT_MS)))
    try {
      return await Promise.race([last, late])
    } finally {
      clearTimeout(timer)
    }
  }

  reset(): void {
    this.last = undefined
  }
}

/** An answer that was not a success, read (its body bounded) for what a person needs of it. */
export async function failedAnswer(response: Response, request: FailedAnswer['request']): Promise<FailedAnswer> {
  const challenge = response.headers.get('www-authenticate') ?? undefined
  // A tap may have read the body already and serve its text (shared/a2a/httpTap.ts): then the text is what there is.
  const body = response.body && !response.body.locked ? await readBounded(response) : bounded(await response.text().catch(() => ''))
  const message = body ? ownWords(body, response.headers.get('content-type') ?? '') : undefined
  return {
    request,
    status: response.status,
    ...(response.statusText && { statusText: response.statusText }),
    ...(challenge && { challenge }),
    ...(message && { message }),
    ...(body && { body }),
  }
}

async function readBounded(response: Response): Promise<string> {
  const reader = response.body?.getReader()
  if (!reader) return ''
  const decoder = new TextDecoder()
  let text = ''
  try {
    while (text.length < BODY_LIMIT) {
      const { done, value } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
    }
  } catch {
    // the body broke off: what came is what there is
  } finally {
    void reader.cancel().catch(() => {})
  }
  return bounded(text)
}

function bounded(text: string): string {
  return text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}…` : text
}

/** A JSON error body's message (JSON-RPC `error.message`, OAuth `error_description`, …), else plain text's first line. */
function ownWords(body: string, contentType: string): string | undefined {
  let words: string | undefined
  try {
    const json = JSON.parse(body) as Record<string, unknown>
    const error = json.error as Record<string, unknown> | string | undefined
    const found = [
      typeof error === 'object' ? error?.message : undefined,
      json.error_description,
      json.message,
      typeof error === 'string' ? error : undefined,
      json.detail,
    ].find((w) => typeof w === 'string' && w.trim())
    words = found as string | undefined
  } catch {
    if (!/html/i.test(contentType) && !body.trimStart().startsWith('<')) words = body.trim().split('\n')[0]
  }
  if (!words) return undefined
  words = words.trim()
  return words.length > MESSAGE_LIMIT ? `${words.slice(0, MESSAGE_LIMIT - 1)}…` : words
}
