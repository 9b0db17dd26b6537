import type { ConversationEvent, FrameEvent } from '../../../shared/contract'

/** A request of the user's waiting for its answer (a tool call, a prompt got, a resource read …) and what the server said of its progress. */
export interface InFlight {
  requestId: string | number
  /** The progress token it carried, when it asked for progress: each progress notification for it restarts the timeout. */
  progressToken?: string | number
  /** How long the connection waits for its answer (from when it was sent, or from the last progress report), as the engine said. */
  timeoutMs?: number
  method: string
  /** What it is about: the tool called, the prompt, the resource. */
  subject?: string
  startedAt: number
  /** The server's latest `notifications/progress` for it, as sent. */
  progress?: { progress: number; total?: number; message?: string; at: number; count: number }
  /** Cancel was sent (`notifications/cancelled`): its answer is no longer awaited. */
  cancelling?: boolean
}

/** A resource subscription, as the frames tell it, and the updates the server sent for it. */
export interface Subscription {
  uri: string
  state: 'subscribing' | 'subscribed' | 'unsubscribing'
  updates: number
  lastUpdate?: number
}

/** One request of the user's (by method, not a tool call): what was asked, and the answer once it came. */
export interface Exchange {
  asked: ConversationEvent
  answer?: ConversationEvent
}

/** What the UI knows of a connection's requests: those in flight, the exchanges, the subscriptions. All folded in O(1) per event. */
export interface RequestsView {
  inFlight: Record<string, InFlight>
  /** Each request by method the user made, by request id; `latest` names the newest per method and subject. */
  exchanges: Record<string, Exchange>
  latest: Record<string, string>
  subscriptions: Record<string, Subscription>
  /** Progress tokens of the requests in flight, to the request's key. */
  progressOf: Record<string, string>
}

export function newRequestsView(): RequestsView {
  return { inFlight: {}, exchanges: {}, latest: {}, subscriptions: {}, progressOf: {} }
}

/** The key an exchange is found by: its method and what it is about (`prompts/get media_brief`, `resources/read media://formats`). */
export function exchangeKey(method: string, subject: string | undefined): string {
  return `${method}\u0000${subject ?? ''}`
}

/** The newest exchange of a method about a subject, if the user made one. */
export function latestExchange(view: RequestsView, method: string, subject: string | undefined): Exchange | undefined {
  const id = view.latest[exchangeKey(method, subject)]
  return id === undefined ? undefined : view.exchanges[id]
}

/** A conversation message: a request of the user's goes in flight (and, when by method, is an exchange); its answer ends it. */
export function foldRequestMessage(view: RequestsView, event: ConversationEvent): void {
  const meta = event.message.metadata
  const requestId = meta?.requestId
  if (typeof requestId !== 'string' && typeof requestId !== 'number') return
  const key = String(requestId)
  if (event.message.role === 'user' && (meta?.kind === 'call' || meta?.kind === 'request')) {
    const method = typeof meta.method === 'string' ? meta.method : 'tools/call'
    const subject =
      typeof meta.subject === 'string' ? meta.subject : meta.kind === 'call' ? (meta.data as { tool?: string })?.tool : undefined
    const token = meta.progressToken
    view.inFlight[key] = {
      requestId,
      method,
      ...(subject !== undefined && { subject }),
      ...((typeof token === 'string' || typeof token === 'number') && { progressToken: token }),
      ...(typeof meta.timeoutMs === 'number' && { timeoutMs: meta.timeoutMs }),
      startedAt: event.ts,
    }
    if (typeof token === 'string' || typeof token === 'number') view.progressOf[String(token)] = key
    if (meta.kind === 'request') {
      view.exchanges[key] = { asked: event }
      view.latest[exchangeKey(method, subject)] = key
    }
    return
  }
  if (event.message.role !== 'agent') return
  const flying = view.inFlight[key]
  if (flying) {
    delete view.inFlight[key]
    if (flying.progressToken !== undefined) delete view.progressOf[String(flying.progressToken)]
  }
  const exchange = view.exchanges[key]
  if (exchange && !exchange.answer) view.exchanges[key] = { ...exchange, answer: event }
}

/** A frame: progress for a request in flight, a cancel sent, a subscription made or ended, a resource updated. */
export function foldRequestFrame(view: RequestsView, frame: FrameEvent): void {
  const method = frame.method
  if (!method || frame.probe) return
  const params = (frame.payload as { params?: Record<string, unknown> } | undefined)?.params ?? {}
  if (frame.kind === 'notification') {
    if (method === 'notifications/progress' && frame.direction === 'in') {
      const key = view.progressOf[String(params.progressToken)]
      const flying = key === undefined ? undefined : view.inFlight[key]
      if (flying && typeof params.progress === 'number')
        view.inFlight[key] = {
          ...flying,
          progress: {
            progress: params.progress,
            ...(typeof params.total === 'number' && { total: params.total }),
            ...(typeof params.message === 'string' && { message: params.message }),
            at: frame.ts,
            count: (flying.progress?.count ?? 0) + 1,
          },
        }
    } else if (method === 'notifications/cancelled' && frame.direction === 'out') {
      const key = String(params.requestId)
      if (view.inFlight[key]) view.inFlight[key] = { ...view.inFlight[key], cancelling: true }
    } else if (method === 'notifications/resources/updated' && frame.direction === 'in' && typeof params.uri === 'string') {
      const known = view.subscriptions[params.uri]
      if (known) view.subscriptions[params.uri] = { ...known, updates: known.updates + 1, lastUpdate: frame.ts }
    }
    return
  }
  if (method !== 'resources/subscribe' && method !== 'resources/unsubscribe') return
  const uri = frame.subject
  if (uri === undefined) return
  const known = view.subscriptions[uri]
  if (frame.kind === 'request' && frame.direction === 'out') {
    const state = method === 'resources/subscribe' ? 'subscribing' : 'unsubscribing'
    view.subscriptions[uri] = { uri, updates: known?.updates ?? 0, ...(known?.lastUpdate && { lastUpdate: known.lastUpdate }), state }
  } else if (frame.direction === 'in' && known) {
    const subscribed = method === 'resources/subscribe' ? frame.kind === 'response' : frame.kind === 'error'
    if (subscribed) view.subscriptions[uri] = { ...known, state: 'subscribed' }
    else delete view.subscriptions[uri]
  }
}
