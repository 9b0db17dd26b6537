import { slashCall, type AcpHandshake, type AcpSessionInfo, type FrameEvent } from '../contract'
import { blockText, SessionProjection } from '../acp/sessionProjection'
import { errorOf, hostAnswer, infoOf, objectOr, type AnalysisContext, type Fields, type Message, type ProtocolAnalysis } from './messages'

interface Asked {
  method: string
  params: Fields
  ts: number
  frameSeq: number
}

/**
 * ACP as a host (an editor) speaks it with an agent, read from the wire: the handshake (the editor's
 * capabilities and the agent's), the session it opened, each prompt turn as the conversation (message and
 * thought chunks, tool calls, plans, how the turn stopped), the agent's requests of the editor (permissions,
 * files, terminals) and how the editor answered them, the slash commands the agent announced.
 */
export class ObservedAcp implements ProtocolAnalysis {
  private readonly asked = { out: new Map<string, Asked>(), in: new Map<string, Asked>() }
  private handshake: Omit<AcpHandshake, 'session'> | undefined
  private turn = 0
  private clock = 0
  private readonly projection = new SessionProjection(
    (message) => this.ctx.emit({ type: 'conversation', connectionId: this.ctx.connectionId, message, ts: this.clock }),
    () => this.clock,
  )

  constructor(private readonly ctx: AnalysisContext) {}

  seen(direction: 'out' | 'in', message: Message, frame: FrameEvent): void {
    this.clock = frame.ts
    const id = typeof message.id === 'string' || typeof message.id === 'number' ? String(message.id) : undefined
    if (typeof message.method === 'string') {
      const params = (message.params && typeof message.params === 'object' ? message.params : {}) as Fields
      if (id === undefined) {
        if (direction === 'in' && message.method === 'session/update') this.update(params)
        return
      }
      const asked = { method: message.method, params, ts: frame.ts, frameSeq: frame.seq }
      this.asked[direction].set(id, asked)
      if (direction === 'out' && asked.method === 'session/prompt') this.prompt(params)
      if (direction === 'in')
        this.ctx.emit({
          type: 'serverRequest',
          connectionId: this.ctx.connectionId,
          id: message.id as string | number,
          method: asked.method,
          state: 'pending',
          params,
          frameSeq: frame.seq,
          ts: frame.ts,
        })
      return
    }
    if (id === undefined) return
    const from = direction === 'in' ? 'out' : 'in'
    const asked = this.asked[from].get(id)
    if (!asked) return
    this.asked[from].delete(id)
    const error = errorOf(message)
    const result = (message.result ?? {}) as Fields
    if (direction === 'out')
      return void this.ctx.emit(hostAnswer(this.ctx.connectionId, asked, message.id as string | number, message, frame.ts, 'the editor'))
    switch (asked.method) {
      case 'initialize':
        return this.initialized(asked, result, frame.ts)
      case 'session/new':
      case 'session/load':
        return this.opened(asked, result, error)
      case 'session/prompt': {
        const sessionId = String(asked.params.sessionId ?? '')
        this.projection.end(sessionId, error ? 'error' : String(result.stopReason ?? 'end_turn'), error)
        return
      }
    }
  }

  finish(): void {
    this.projection.settle()
  }

  private prompt(params: Fields): void {
    const blocks = Array.isArray(params.prompt) ? params.prompt : []
    const text = blocks.map(blockText).join('')
    this.projection.begin(++this.turn, text, slashCall(text))
  }

  private update(params: Fields): void {
    const update = params.update as { sessionUpdate?: unknown; availableCommands?: unknown } | undefined
    if (update?.sessionUpdate === 'available_commands_update' && Array.isArray(update.availableCommands)) {
      this.ctx.emit({
        type: 'discovery',
        connectionId: this.ctx.connectionId,
        method: 'available_commands',
        status: 'called',
        reason: 'the agent announced its slash commands',
        trigger: 'refresh',
        count: update.availableCommands.length,
        items: update.availableCommands,
        ts: this.clock,
      })
      return
    }
    this.projection.update(params)
  }

  private initialized(asked: Asked, result: Fields, ts: number): void {
    const offered = asked.params
    const clientInfo = infoOf(offered.clientInfo)
    this.handshake = {
      transport: 'stdio',
      requestedProtocolVersion: typeof offered.protocolVersion === 'number' ? offered.protocolVersion : 0,
      ...(typeof result.protocolVersion === 'number' && { protocolVersion: result.protocolVersion }),
      clientInfo: clientInfo ?? { name: '(the editor did not say)', version: '' },
      clientCapabilities: objectOr(offered.clientCapabilities),
      agentCapabilities: objectOr(result.agentCapabilities),
      ...(result.agentInfo !== undefined && { agentInfo: infoOf(result.agentInfo) }),
      authMethods: Array.isArray(result.authMethods) ? (result.authMethods as AcpHandshake['authMethods']) : [],
      keepalive: 'ACP has no ping: the tap watches the pipe and the process',
      durationMs: ts - asked.ts,
    }
    this.emitHandshake(undefined, ts)
    this.ctx.connected(clientInfo)
  }

  private opened(asked: Asked, result: Fields, error: { message: string } | undefined): void {
    if (error || !this.handshake) return
    const servers = Array.isArray(asked.params.mcpServers) ? (asked.params.mcpServers as { name?: unknown; type?: unknown }[]) : []
    const session: AcpSessionInfo = {
      sessionId: String(result.sessionId ?? asked.params.sessionId ?? ''),
      how: asked.method === 'session/load' ? 'load' : 'new',
      cwd: String(asked.params.cwd ?? ''),
      mcpServers: servers.map((s) => ({ name: String(s?.name ?? ''), transport: typeof s?.type === 'string' ? s.type : 'stdio' })),
      ...(result.modes !== undefined && { modes: result.modes as AcpSessionInfo['modes'] }),
    }
    this.emitHandshake(session, this.clock)
  }

  private emitHandshake(session: AcpSessionInfo | undefined, ts: number): void {
    this.ctx.emit({
      type: 'handshake',
      connectionId: this.ctx.connectionId,
      protocol: 'acp',
      ...this.handshake!,
      ...(session && { session }),
      observed: true,
      ts,
    })
  }
}
