import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { adcpCall } from '../adcp/adcpCall'
import type { CallReport, ConversationMessage, DiscoveryMethod, EngineEvent, FrameEvent } from '../contract'
import { adcpFindingText, contextFieldsOf, lintCall } from '../hooks/callInspector'
import { checkContextEcho } from '../hooks/contextEcho'
import { mcpCallMessage, mcpErrorMessage, mcpResultMessage } from '../mcp/conversationTurns'
import { DISCOVERY_STEPS, LIST_CHANGED } from '../mcp/discovery'
import { serverLogLine } from '../mcp/serverVoice'
import { errorOf, hostAnswer, infoOf, objectOr, type AnalysisContext, type Fields, type Message, type ProtocolAnalysis } from './messages'

/** A request on its way, by its id as text and who sent it. */
interface Asked {
  method: string
  params: Fields
  ts: number
  frameSeq: number
  turn?: number
}

/** How long after a `list_changed` a host that has not listed again is said to ignore it (when it asks for something else). */
const LIST_CHANGED_GRACE_MS = 5_000
/** Items of a list kept across its pages (a server that pages forever is cut off here). */
const MAX_ITEMS = 100_000

/**
 * MCP as a host speaks it, read from the wire: the handshake the host offered and the server answered,
 * the host's discovery (and whether the server's capabilities allowed each list), list changes and
 * whether the host listed again, pings (whose, and their round trips), each tool call's arguments
 * validated against the schema the server listed (and linted for protocol fields, and its context echo
 * checked), the conversation, the server's log messages and its requests of the host.
 */
export class ObservedMcp implements ProtocolAnalysis {
  private readonly asked = { out: new Map<string, Asked>(), in: new Map<string, Asked>() }
  private initialize: Asked | undefined
  private capabilities: Fields | undefined
  private readonly tools = new Map<string, { inputSchema?: unknown; outputSchema?: unknown }>()
  private toolsListed = false
  /** The host's latest whole tools/list, as said: what makes the server an AdCP agent, or not. */
  private toolListing: EngineEvent | undefined
  /** Lists the server said changed and the host has not listed since: when it said so. */
  private readonly stale = new Map<DiscoveryMethod, number>()
  /** Lists the host went on using after they changed, already said. */
  private readonly staleCalls = new Set<DiscoveryMethod>()
  /** Pages of a list being read: its items so far. */
  private readonly paging = new Map<DiscoveryMethod, { items: unknown[]; pages: number; started: number }>()
  /** The lists the host has read whole at least once. */
  private readonly listed = new Set<DiscoveryMethod>()
  private readonly lastPing = { out: 0, in: 0 }
  private readonly pingFailures = { out: 0, in: 0 }
  private turn = 0

  constructor(private readonly ctx: AnalysisContext) {}

  seen(direction: 'out' | 'in', message: Message, frame: FrameEvent): void {
    const id = typeof message.id === 'string' || typeof message.id === 'number' ? String(message.id) : undefined
    if (typeof message.method === 'string') {
      const params = (message.params && typeof message.params === 'object' ? message.params : {}) as Fields
      if (id === undefined) return this.notification(direction, message.method, params, frame)
      const asked: Asked = { method: message.method, params, ts: frame.ts, frameSeq: frame.seq }
      this.asked[direction].set(id, asked)
      if (direction === 'out') this.hostAsked(id, asked)
      else this.serverAsked(id, asked, message)
      return
    }
    if (id === undefined) return
    const asked = this.asked[direction === 'in' ? 'out' : 'in'].get(id)
    if (!asked) return
    this.asked[direction === 'in' ? 'out' : 'in'].delete(id)
    if (direction === 'in') this.serverAnswered(id, asked, message, frame)
    else this.hostAnswered(id, asked, message, frame)
  }

  finish(ts: number): void {
    for (const [method, since] of this.stale)
      this.ctx.finding(
        'host',
        `the host never listed ${listName(method)} again after the server said they changed (${ago(ts - since)})`,
        ts,
      )
  }

  private hostAsked(id: string, asked: Asked): void {
    const { method, params, ts } = asked
    if (method === 'initialize') this.initialize = asked
    for (const [list, since] of this.stale)
      if (ts - since > LIST_CHANGED_GRACE_MS && method !== list && !method.endsWith('/list')) {
        this.ctx.finding('host', `the host ignored the server's list change: it went on without listing ${listName(list)} again`, ts)
        this.stale.delete(list)
      }
    if (method !== 'tools/call') return
    const tool = typeof params.name === 'string' ? params.name : ''
    asked.turn = ++this.turn
    const args = argumentsOf(params)
    this.say(mcpCallMessage(tool, args, ts, asked.turn, { requestId: numericOr(id) }), ts)
    if (this.toolsListed && !this.tools.has(tool))
      this.ctx.finding('host', `the host called the tool "${tool}", which the server did not list`, ts)
    if (this.stale.has('tools/list') && !this.staleCalls.has('tools/list')) {
      this.staleCalls.add('tools/list') // once for each change the host did not follow
      this.ctx.finding('host', `the host called "${tool}" from a tool list the server had said was out of date`, ts)
    }
  }

  private serverAnswered(id: string, asked: Asked, message: Message, frame: FrameEvent): void {
    const { method, params } = asked
    const result = message.result as Fields | undefined
    const error = errorOf(message)
    const tookMs = frame.ts - asked.ts
    if (method === 'initialize' && result) return this.handshake(asked, result, tookMs)
    if (method === 'ping') return this.ping('out', !error, tookMs, frame.ts, error)
    const step = DISCOVERY_STEPS.find((s) => s.method === method)
    if (step) return this.list(step, params, result, error, frame.ts, tookMs)
    if (method === 'tools/call') return this.called(asked, result, error, frame.ts, tookMs, id)
  }

  private handshake(asked: Asked, result: Fields, durationMs: number): void {
    const offered = asked.params
    const clientInfo = infoOf(offered.clientInfo)
    this.capabilities = objectOr(result.capabilities)
    this.ctx.emit({
      type: 'handshake',
      connectionId: this.ctx.connectionId,
      protocol: 'mcp',
      transport: this.ctx.transport,
      ...(typeof offered.protocolVersion === 'string' && { requestedProtocolVersion: offered.protocolVersion }),
      ...(typeof result.protocolVersion === 'string' && { protocolVersion: result.protocolVersion }),
      clientInfo: clientInfo ?? { name: '(the host did not say)', version: '' },
      clientCapabilities: objectOr(offered.capabilities),
      serverCapabilities: this.capabilities,
      ...(result.serverInfo !== undefined && { serverInfo: infoOf(result.serverInfo) }),
      ...(typeof result.instructions === 'string' && { instructions: result.instructions }),
      durationMs,
      observed: true,
    })
    this.ctx.connected(clientInfo)
  }

  private list(
    step: (typeof DISCOVERY_STEPS)[number],
    params: Fields,
    result: Fields | undefined,
    error: { code?: number; message: string } | undefined,
    ts: number,
    tookMs: number,
  ): void {
    const advertised = this.capabilities === undefined || this.capabilities[step.capability] !== undefined
    const trigger = this.stale.has(step.method) ? 'list_changed' : this.listed.has(step.method) ? 'refresh' : 'initial'
    const base = {
      type: 'discovery' as const,
      connectionId: this.ctx.connectionId,
      method: step.method,
      trigger,
      durationMs: tookMs,
      ...(!advertised && { oddity: true }),
    } as const
    const unasked = `the host called ${step.method} though the server did not advertise \`${step.capability}\``
    if (!advertised) this.ctx.finding('host', unasked, ts)
    if (error || !result) {
      this.paging.delete(step.method)
      this.ctx.emit({
        ...base,
        status: 'failed',
        reason: advertised ? `the host asked; the server answered with an error: ${error?.message ?? 'no result'}` : unasked,
        ...(error?.code !== undefined && { errorCode: error.code }),
        ts,
      })
      return
    }
    const page = Array.isArray(result[step.key]) ? (result[step.key] as unknown[]) : []
    const sofar = params.cursor !== undefined ? this.paging.get(step.method) : undefined
    const list = sofar ?? { items: [], pages: 0, started: ts - tookMs }
    for (const item of page) if (list.items.length < MAX_ITEMS) list.items.push(item)
    list.pages++
    if (typeof result.nextCursor === 'string') {
      this.paging.set(step.method, list)
      return
    }
    this.paging.delete(step.method)
    this.listed.add(step.method)
    this.stale.delete(step.method)
    this.staleCalls.delete(step.method)
    if (step.method === 'tools/list') {
      this.toolsListed = true
      this.tools.clear()
      for (const tool of list.items as { name?: unknown; inputSchema?: unknown; outputSchema?: unknown }[])
        if (typeof tool?.name === 'string') this.tools.set(tool.name, { inputSchema: tool.inputSchema, outputSchema: tool.outputSchema })
    }
    const listing = this.ctx.emit({
      ...base,
      status: 'called',
      reason: advertised ? `the host asked, and the server advertises \`${step.capability}\`` : unasked,
      count: list.items.length,
      pages: list.pages,
      items: list.items,
      durationMs: ts - list.started,
      ts,
    })
    if (step.method === 'tools/list') this.toolListing = listing
  }

  private called(
    asked: Asked,
    result: Fields | undefined,
    error: { code?: number; message: string } | undefined,
    ts: number,
    durationMs: number,
    requestId: string,
  ): void {
    const tool = typeof asked.params.name === 'string' ? asked.params.name : ''
    const args = argumentsOf(asked.params)
    const schema = this.tools.get(tool)
    const validation = this.ctx.validator.validate(schema?.inputSchema, args)
    // The same reading as a call Parallax makes (shared/hooks/callInspector.ts), AdCP's terms for an AdCP agent.
    const adcp = adcpCall(this.toolListing ? [this.toolListing] : [], tool)
    const lint = lintCall(args, schema?.inputSchema, this.ctx.protocolFields, adcp)
    for (const finding of lint.filter((l) => l.where === 'arguments'))
      this.ctx.finding('host', `the host's call of "${tool}": ${finding.message}`, asked.ts)
    const structured = result?.structuredContent
    const context = contextFieldsOf(adcp)
    const report: CallReport = {
      protocol: 'mcp',
      tool,
      raw: args,
      hooked: args,
      diff: [],
      validation: { raw: validation, hooked: validation },
      sent: true,
      lint,
      durationMs,
      ...(result && { response: result }),
      ...(error && { error: error.message }),
      ...(schema?.outputSchema !== undefined &&
        structured !== undefined && { outputValidation: this.ctx.validator.validate(schema.outputSchema, structured) }),
      ...(context &&
        args[context.request] !== undefined &&
        result && { contextEcho: checkContextEcho(args, args, dataOf(result), context) }),
      ...(adcp && {
        adcp: adcp.report([...adcp.check('request', args), ...(structured === undefined ? [] : adcp.check('response', structured))]),
      }),
    }
    this.ctx.emit({ type: 'call', connectionId: this.ctx.connectionId, ...report, ts })
    const checked = report.adcp
    if (checked?.findings.length) {
      const { release, task, findings } = checked
      this.ctx.emit({
        type: 'adcp',
        connectionId: this.ctx.connectionId,
        release,
        task,
        findings,
        ...(asked.turn && { turn: asked.turn }),
        ts,
      })
      // A request that breaks the release is the host's doing; a response, the server's.
      for (const f of findings) this.ctx.finding(f.phase === 'request' ? 'host' : 'server', adcpFindingText(release, task, f), ts)
    }
    const turn = asked.turn ?? 0
    const id = numericOr(requestId)
    this.say(
      result
        ? mcpResultMessage(result as unknown as CallToolResult, ts, turn, { requestId: id })
        : mcpErrorMessage(error?.message ?? 'no result', ts, { turn, requestId: id, code: error?.code }),
      ts,
    )
  }

  private notification(direction: 'out' | 'in', method: string, params: Fields, frame: FrameEvent): void {
    if (direction !== 'in') return
    if (method === 'notifications/message') {
      const line = serverLogLine(params)
      this.ctx.emit({
        type: 'log',
        connectionId: this.ctx.connectionId,
        source: 'server',
        level: line.level,
        text: line.text,
        server: { ...line.server, frameSeq: frame.seq },
        ts: frame.ts,
      })
      return
    }
    const changed = LIST_CHANGED[method]
    if (!changed) return
    const capability = this.capabilities?.[changed.capability] as { listChanged?: unknown } | undefined
    if (this.capabilities && (!capability || capability.listChanged !== true))
      this.ctx.finding('server', `the server sent ${method} without advertising \`${changed.capability}.listChanged\``, frame.ts)
    for (const list of changed.methods)
      if (this.listed.has(list)) {
        this.stale.set(list, frame.ts)
        this.staleCalls.delete(list)
      }
  }

  private serverAsked(id: string, asked: Asked, message: Message): void {
    if (asked.method === 'ping') return
    this.ctx.emit({
      type: 'serverRequest',
      connectionId: this.ctx.connectionId,
      id: typeof message.id === 'number' ? message.id : id,
      method: asked.method,
      state: 'pending',
      params: asked.params,
      frameSeq: asked.frameSeq,
      ts: asked.ts,
    })
  }

  private hostAnswered(id: string, asked: Asked, message: Message, frame: FrameEvent): void {
    if (asked.method === 'ping') return this.ping('in', !errorOf(message), frame.ts - asked.ts, frame.ts, errorOf(message))
    this.ctx.emit(hostAnswer(this.ctx.connectionId, asked, numericOr(id), message, frame.ts))
  }

  /** A ping answered (`out`: the host's, answered by the server; `in`: the server's, answered by the host). */
  private ping(by: 'out' | 'in', ok: boolean, rttMs: number, ts: number, error?: { message: string }): void {
    const intervalMs = this.lastPing[by] ? ts - rttMs - this.lastPing[by] : 0
    this.lastPing[by] = ts - rttMs
    this.pingFailures[by] = ok ? 0 : this.pingFailures[by] + 1
    this.ctx.emit({
      type: 'keepalive',
      connectionId: this.ctx.connectionId,
      probe: 'ping',
      ok,
      rttMs,
      health: ok ? 'healthy' : 'degraded',
      intervalMs,
      consecutiveFailures: this.pingFailures[by],
      note: by === 'out' ? 'sent by the host, answered by the server' : 'sent by the server, answered by the host',
      rule: "observed: the host's and the server's own keepalive",
      ...(error && { error: error.message }),
      ts,
    })
  }

  private say(message: ConversationMessage, ts: number): void {
    this.ctx.emit({ type: 'conversation', connectionId: this.ctx.connectionId, message, ts })
  }
}

function argumentsOf(params: Fields): Fields {
  const args = params.arguments
  return args && typeof args === 'object' && !Array.isArray(args) ? (args as Fields) : {}
}

/** A tool result's data: its structured content, else its text read as JSON. */
function dataOf(result: Fields): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent
  const text = (Array.isArray(result.content) ? result.content : [])
    .map((c: { type?: unknown; text?: unknown }) => (c?.type === 'text' ? String(c.text) : ''))
    .join('')
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function numericOr(id: string): string | number {
  return /^\d+$/.test(id) ? Number(id) : id
}

function listName(method: DiscoveryMethod): string {
  return method.replace('/list', '').replace('resources/templates', 'resource templates')
}

function ago(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`
}
