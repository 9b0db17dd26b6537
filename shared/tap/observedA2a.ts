import { DefaultAgentCardResolver } from '@a2a-js/sdk/client'
import type { A2aGeneration, A2aInterface, FrameEvent, TransportKind } from '../contract'
import { cardOffer, checkCard, detectGeneration, listInterfaces } from '../a2a/agentCard'
import { StreamProjection } from '../a2a/streamProjection'
import { answerOf, methodGeneration, sentMessageOf, streamResponseOf, v1Method } from './a2aWire'
import { objectOr, type AnalysisContext, type Fields, type Message, type ProtocolAnalysis } from './messages'

type Task = NonNullable<ReturnType<typeof answerOf>>

const resolver = new DefaultAgentCardResolver({ legacyCompat: { enabled: true } })

/** The binding an interface names, as the frame's transport calls it. */
const BINDINGS: Partial<Record<TransportKind, string>> = { jsonrpc: 'JSONRPC', rest: 'HTTP+JSON' }

/** The card the host fetched, until the host's first request says which interface it uses. */
interface CardSeen {
  frame: FrameEvent
  card: Fields
  generation: A2aGeneration
  reason: string
  interfaces: A2aInterface[]
  durationMs: number
}

/**
 * A2A as a host speaks it with an agent, read from the HTTP exchanges the tap relayed (frames built per
 * JSON-RPC message, REST exchange and stream event): the card the host fetched (the handshake, observed:
 * its generation, interfaces, capabilities and skills, and the interface the host then used), the
 * conversation (the host's messages, the agent's answers, tasks and stream events, with task states),
 * and findings about the host: a binding or path the card does not offer, an `A2A-Version` header that
 * does not match what it called, a stream the card does not allow.
 */
export class ObservedA2a implements ProtocolAnalysis {
  private card: CardSeen | undefined
  private cardAskedAt = 0
  private handshook = false
  private streaming: boolean | undefined
  private turn = 0
  private clock = 0
  /** What each stream (by its request's frame) has described so far. */
  private readonly streams = new Map<number, Task | undefined>()
  private readonly said = new Set<string>()
  private readonly projection = new StreamProjection(
    (message) => this.ctx.emit({ type: 'conversation', connectionId: this.ctx.connectionId, message, ts: this.clock }),
    () => this.clock,
  )

  constructor(private readonly ctx: AnalysisContext) {}

  seen(direction: 'out' | 'in', message: Message, frame: FrameEvent): void {
    this.clock = frame.ts
    const method = v1Method(frame.method ?? '')
    if (direction === 'out') return this.asked(method, message, frame)
    if (method === 'agent-card') return this.cardAnswered(frame)
    if (frame.kind === 'error') return
    const body = frame.transport === 'jsonrpc' ? message.result : frame.payload
    if (method === 'GetExtendedAgentCard') return this.extendedCard(body, frame)
    if (frame.kind === 'stream-event') {
      const event = streamResponseOf(body)
      if (!event) return
      const key = frame.requestSeq ?? -1
      this.streams.set(key, this.projection.fold(event, this.streams.get(key), this.turn))
      return
    }
    const answer = answerOf(body)
    if (answer) this.projection.answer(answer, this.turn)
  }

  finish(): void {
    if (this.card && !this.handshook) this.handshake(undefined)
  }

  private asked(method: string, message: Message, frame: FrameEvent): void {
    if (method === 'agent-card') {
      this.cardAskedAt = frame.ts
      return
    }
    const used = this.interfaceUsed(frame)
    if (!this.handshook) this.handshake(used)
    this.checkHost(method, frame, used)
    if (method !== 'SendMessage' && method !== 'SendStreamingMessage') return
    if (method === 'SendStreamingMessage' && this.streaming === false)
      this.find(`the host asked for a stream (${frame.method}), though the agent's card says it does not stream`, frame.ts)
    const params = frame.transport === 'jsonrpc' ? message.params : frame.payload
    const sent = sentMessageOf(params)
    this.turn++
    if (sent) this.projection.sent(sent, this.turn)
  }

  private cardAnswered(frame: FrameEvent): void {
    const status = frame.http?.status ?? 200
    if (status >= 400 || !frame.payload || typeof frame.payload !== 'object') {
      this.find(`the host fetched the agent card and got HTTP ${status}`, frame.ts)
      return
    }
    if (this.handshook) return
    const card = frame.payload as Fields
    const { generation, reason } = detectGeneration(card)
    const interfaces = listInterfaces(card, generation)
    this.card = { frame, card, generation, reason, interfaces, durationMs: frame.latencyMs ?? frame.ts - this.cardAskedAt }
    this.streaming = objectOr(card.capabilities).streaming === true
  }

  /** The handshake, as the host had it: the card it fetched and the interface it then used. */
  private handshake(used: A2aInterface | undefined): void {
    this.handshook = true
    const seen = this.card
    if (!seen) return this.ctx.connected(undefined)
    const cardUrl = seen.frame.http?.url ?? ''
    const warnings = URL.canParse(cardUrl) ? checkCard(seen.card, seen.generation, cardUrl) : []
    const chosen = used ?? seen.interfaces[0]
    let normalized: ReturnType<typeof resolver.normalizeAgentCard> | undefined
    try {
      normalized = resolver.normalizeAgentCard(seen.card)
    } catch (error) {
      warnings.push(`the card could not be read as an A2A card: ${(error as Error).message}`)
    }
    const skills = normalized?.skills ?? []
    this.ctx.emit({
      type: 'handshake',
      connectionId: this.ctx.connectionId,
      protocol: 'a2a',
      transport: transportOf(chosen?.protocolBinding),
      agentCard: seen.card,
      cardUrl,
      generation: seen.generation,
      generationReason: seen.reason,
      protocolVersion: chosen?.protocolVersion ?? '',
      interfaces: seen.interfaces,
      ...(chosen && { chosenInterface: chosen }),
      interfaceReason: used
        ? `the host used ${used.protocolBinding} at ${used.url}`
        : chosen
          ? 'the host made no request after fetching the card: its first interface is shown'
          : 'the card offers no interface',
      ...cardOffer(normalized),
      warnings,
      durationMs: seen.durationMs,
      observed: true,
      ts: seen.frame.ts,
    })
    this.ctx.emit({
      type: 'discovery',
      connectionId: this.ctx.connectionId,
      method: 'agent-card',
      status: 'called',
      trigger: 'initial',
      reason: `the host fetched ${cardUrl}`,
      count: skills.length,
      durationMs: seen.durationMs,
      items: skills,
      ts: seen.frame.ts,
    })
    this.ctx.connected(undefined)
  }

  private extendedCard(body: unknown, frame: FrameEvent): void {
    const card = objectOr(body)
    const skills = Array.isArray(card.skills) ? card.skills : []
    this.ctx.emit({
      type: 'discovery',
      connectionId: this.ctx.connectionId,
      method: 'extended-agent-card',
      status: 'called',
      trigger: 'initial',
      reason: 'the host fetched the authenticated extended card',
      count: skills.length,
      ...(frame.latencyMs !== undefined && { durationMs: frame.latencyMs }),
      items: skills,
      extendedCard: { card, differences: [] },
      ts: frame.ts,
    })
  }

  /** The card's interface the request went to (same binding, its URL's path a prefix of the request's). */
  private interfaceUsed(frame: FrameEvent): A2aInterface | undefined {
    const binding = BINDINGS[frame.transport as TransportKind]
    const url = frame.http?.url
    if (!this.card || !binding || !url || !URL.canParse(url)) return undefined
    const path = new URL(url).pathname
    const matches = this.card.interfaces.filter((i) => {
      if (i.protocolBinding.toUpperCase() !== binding || !URL.canParse(i.url)) return false
      const base = new URL(i.url).pathname.replace(/\/+$/, '')
      return binding === 'JSONRPC' ? path.replace(/\/+$/, '') === base : path === base || path.startsWith(`${base}/`)
    })
    const version = headerOf(frame, 'a2a-version')
    return matches.find((i) => i.protocolVersion === version) ?? matches.find((i) => i.protocolVersion.startsWith('1')) ?? matches[0]
  }

  private checkHost(method: string, frame: FrameEvent, used: A2aInterface | undefined): void {
    const binding = BINDINGS[frame.transport as TransportKind] ?? frame.transport
    const path = frame.http?.url && URL.canParse(frame.http.url) ? new URL(frame.http.url).pathname : '?'
    if (this.card && !used) {
      const offered = this.card.interfaces.map((i) => `${i.protocolBinding} ${i.url}`).join(', ') || 'none'
      this.find(
        `the host called ${method} over ${binding} at ${path}, which the agent's card does not offer (it offers ${offered})`,
        frame.ts,
      )
    }
    const header = headerOf(frame, 'a2a-version')
    const expected = frame.transport === 'jsonrpc' ? methodGeneration(frame.method ?? '') : used && generationOf(used.protocolVersion)
    if (!expected) return
    if (header === undefined && expected === '1.0')
      this.find(`the host called ${frame.method} (v1.0) without an A2A-Version header (an agent takes that as 0.3)`, frame.ts)
    else if (header !== undefined && generationOf(header) !== expected)
      this.find(
        `the host sent A2A-Version ${header} with ${frame.transport === 'jsonrpc' ? `the v${expected} method ${frame.method}` : `a call to a v${expected} interface (${path})`}`,
        frame.ts,
      )
  }

  /** A finding about the host, said once. */
  private find(text: string, ts: number): void {
    if (this.said.has(text)) return
    this.said.add(text)
    this.ctx.finding('host', text, ts)
  }
}

function headerOf(frame: FrameEvent, name: string): string | undefined {
  const headers = frame.http?.headers ?? {}
  const found = Object.keys(headers).find((key) => key.toLowerCase() === name)
  return found === undefined ? undefined : headers[found]
}

function generationOf(version: string): A2aGeneration {
  return version.trim().startsWith('0.') ? '0.3' : '1.0'
}

function transportOf(binding: string | undefined): TransportKind {
  const name = (binding ?? '').toUpperCase()
  return name === 'HTTP+JSON' ? 'rest' : name === 'GRPC' ? 'grpc' : 'jsonrpc'
}
