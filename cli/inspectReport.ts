import type {
  AcpHandshakeEvent,
  A2aHandshakeEvent,
  ConnectionEvent,
  DiscoveryEvent,
  EngineEvent,
  FrameEvent,
  KeepaliveEvent,
  LogEvent,
  McpHandshakeEvent,
  SavedTarget,
  SkillEntry,
  SkillLoad,
  TargetSpec,
} from '../shared/contract'
import { causeLines, eraLabel, handshakeEra, paramHeaderProblem, redactArgs, redactMap, redactText } from '../shared/contract'
import type { LogLevelOutcome } from './connect'

export const INSPECT_FORMAT = 'parallax.inspect/1'

const ofType = <T extends EngineEvent['type']>(events: EngineEvent[], type: T) =>
  events.filter((e) => e.type === type) as Extract<EngineEvent, { type: T }>[]

export interface ReportOptions {
  intervalMs: number
  /** How many probes were asked for (`--probes`). */
  probes: number
  withFrames: boolean
  logLevel?: LogLevelOutcome
  /** Skills loaded (`--skill`): each file read and checked against the skill's entry. */
  skillLoads?: SkillLoad[]
}

/**
 * The `parallax.inspect/1` object: what the connection negotiated, discovered and probed, and its
 * findings — a server that went down while it was inspected, probes that failed — which make exit 1.
 */
export function buildReport(
  target: SavedTarget,
  events: EngineEvent[],
  { intervalMs, probes: requested, withFrames, logLevel, skillLoads = [] }: ReportOptions,
) {
  const handshake = ofType(events, 'handshake').at(-1)
  const discovery = ofType(events, 'discovery')
  const probes = ofType(events, 'keepalive')
  const life = liveness(ofType(events, 'connection'), probes, requested)
  const spec = redactedSpec(target.spec)
  const lastProbe = probes.at(-1)
  const common = {
    format: INSPECT_FORMAT,
    target: { name: target.name, spec },
    transport: handshake?.transport,
    keepalive: {
      probe: lastProbe?.probe ?? defaultProbe(handshake),
      /** Why that probe: the protocol era's rule (MCP: never ping in the 2026 era). */
      ...(keepaliveRule(lastProbe, handshake) && { rule: keepaliveRule(lastProbe, handshake) }),
      intervalMs,
      requested,
      state: life.state,
      probes: probes.map(({ probe, ok, rttMs, error, note, rule }) => ({
        probe,
        ok,
        rttMs,
        ...(error && { error }),
        ...(note && { note }),
        ...(rule && { rule }),
      })),
    },
    connection: ofType(events, 'connection').map(({ state, reason, attempt, maxAttempts, cause }: ConnectionEvent) => ({
      state,
      reason,
      attempt,
      maxAttempts,
      ...(cause && { cause }),
    })),
    /** What made this inspection a finding (exit 1): the server went down, probes failed. */
    findings: life.findings,
    ...(life.lost && { lost: life.lost }),
    ...(logLevel && { logLevel }),
    /** Each authorization step (discovery, registration, the authorization URL, the token exchange, decisions and why), secrets redacted. */
    ...(ofType(events, 'auth').length && {
      auth: ofType(events, 'auth').map(({ seq: _seq, type: _type, connectionId: _connection, ...step }) => step),
    }),
    /** The server's own log messages (MCP notifications/message), as it sent them. */
    serverLog: ofType(events, 'log')
      .filter((e: LogEvent) => e.source === 'server')
      .map((e) => ({ level: e.server?.level ?? e.level, ...(e.server?.logger && { logger: e.server.logger }), text: e.text })),
    ...(withFrames && {
      frames: ofType(events, 'frame').map(({ ts, direction, kind, method, id, payload, bytes, latencyMs, http, grpc }: FrameEvent) => ({
        ts,
        direction,
        kind,
        method,
        id,
        payload,
        bytes,
        latencyMs,
        ...(http && { http }),
        ...(grpc && { grpc }),
      })),
    }),
  }
  if (handshake?.protocol === 'a2a' || target.spec.kind === 'a2a') {
    const h = handshake as A2aHandshakeEvent | undefined
    const extended = discovery.findLast((d) => d.method === 'extended-agent-card')
    return {
      ...common,
      protocol: 'a2a' as const,
      agentCard: h?.agentCard,
      cardUrl: h?.cardUrl,
      generation: h?.generation,
      generationReason: h?.generationReason,
      protocolVersion: h?.protocolVersion,
      interface: h?.chosenInterface,
      interfaceReason: h?.interfaceReason,
      interfaces: h?.interfaces,
      capabilities: h?.capabilities,
      skills: h?.skills ?? [],
      warnings: h?.warnings ?? [],
      discovery: discovery.map(discoveryStep),
      /** The authenticated extended card: fetched (the card, and how it differs from the public one), or why not. */
      ...(extended && {
        extendedCard: {
          status: extended.status,
          reason: extended.reason,
          ...(extended.extendedCard && { card: extended.extendedCard.card, differences: extended.extendedCard.differences }),
        },
      }),
    }
  }
  if (handshake?.protocol === 'acp' || target.spec.kind === 'acp') {
    const h = handshake as AcpHandshakeEvent | undefined
    return {
      ...common,
      protocol: 'acp' as const,
      handshake: h && {
        requestedProtocolVersion: h.requestedProtocolVersion,
        protocolVersion: h.protocolVersion,
        clientInfo: h.clientInfo,
        clientCapabilities: h.clientCapabilities,
        ...(h.hint && { hint: h.hint }),
        ...(h.notOffered && { notOffered: h.notOffered }),
        agentInfo: h.agentInfo,
        agentCapabilities: h.agentCapabilities,
        authMethods: h.authMethods,
        session: h.session,
        keepalive: h.keepalive,
      },
      discovery: discovery.map(discoveryStep),
      commands: discovery.findLast((d) => d.method === 'available_commands' && d.items)?.items ?? [],
      stderr: ofType(events, 'log')
        .filter((e: LogEvent) => e.source === 'stderr')
        .map((e) => e.text),
    }
  }
  const h = handshake as McpHandshakeEvent | undefined
  const catalog = (method: DiscoveryEvent['method']) => discovery.findLast((d) => d.method === method && d.items)?.items ?? []
  return {
    ...common,
    findings: [
      ...common.findings,
      ...paramHeaderFindings(catalog('tools/list')),
      ...skillLoads.filter((l) => !l.verified).map((l) => `skill ${l.uri} not loaded: ${l.problem}`),
    ],
    protocol: 'mcp' as const,
    handshake: h && {
      /** The MCP era reached (2025: initialize; 2026: 2026-07-28 through server/discover) and how: each offer and answer. */
      era: handshakeEra(h),
      ...(h.negotiation && { negotiation: h.negotiation }),
      ...(h.rules && { rules: h.rules }),
      requestedProtocolVersion: h.requestedProtocolVersion,
      protocolVersion: h.protocolVersion,
      clientInfo: h.clientInfo,
      clientCapabilities: h.clientCapabilities,
      serverCapabilities: h.serverCapabilities,
      serverInfo: h.serverInfo,
      instructions: h.instructions,
      ...(h.fallback && { fallback: h.fallback }),
    },
    discovery: discovery.map(discoveryStep),
    tools: catalog('tools/list'),
    prompts: catalog('prompts/list'),
    resources: catalog('resources/list'),
    resourceTemplates: catalog('resources/templates/list'),
    /** Skills (SEP-2640, where the server offers the extension): as listed; none of their files read unless loaded (`--skill`). */
    ...(discovery.some((d) => d.method === 'skills/list') && { skills: catalog('skills/list') }),
    ...(skillLoads.length && { skillLoads }),
    stderr: ofType(events, 'log')
      .filter((e: LogEvent) => e.source === 'stderr')
      .map((e) => e.text),
  }
}

/** A listed skill as the text report shows it: its name, what activates it (its description), its URI and files. */
function skillLine(skill: SkillEntry): { name: string; description: string } {
  const name = typeof skill.frontmatter?.name === 'string' ? skill.frontmatter.name : skill.uri
  const description = typeof skill.frontmatter?.description === 'string' ? skill.frontmatter.description : ''
  return { name, description: `${description} — ${skill.uri}, ${skill.resources?.length ?? 0} file(s)` }
}

/** Tools whose `x-mcp-header` declarations break SEP-2243: a client on streamable HTTP must exclude them. */
function paramHeaderFindings(tools: unknown[]): string[] {
  return tools.flatMap((tool) => {
    const problem = paramHeaderProblem(tool)
    const name = (tool as { name?: unknown }).name
    return problem
      ? [`tool ${JSON.stringify(name)} has an invalid x-mcp-header (${problem}): a client on streamable HTTP excludes it (SEP-2243)`]
      : []
  })
}

/** A target's spec as reports show it: secret-looking arguments, environment values, URL parts and headers redacted. */
export function redactedSpec(spec: TargetSpec): TargetSpec {
  return spec.kind === 'mcp-stdio' || spec.kind === 'acp'
    ? { ...spec, args: redactArgs(spec.args), env: redactMap(spec.env) }
    : { ...spec, url: redactText(spec.url), headers: redactMap(spec.headers) }
}

/**
 * What happened to the connection while it was inspected: its keepalive state at the end, and the
 * findings. The last `closed` is inspect's own; a `reconnecting` or `failed` after `connected` is the
 * server going down (over stdio, its process exiting), whatever the probes said before.
 */
function liveness(lifecycle: ConnectionEvent[], probes: KeepaliveEvent[], requested: number) {
  const connected = lifecycle.findIndex((e) => e.state === 'connected')
  const after = connected === -1 ? [] : lifecycle.slice(connected + 1)
  const down = after.find((e) => e.state === 'reconnecting' || e.state === 'failed')
  const last = after.findLast((e) => e.state !== 'closed')
  const back = down && last?.state === 'connected'
  const findings: string[] = []
  const ran = probes.filter((p) => down === undefined || p.seq < down.seq).length
  if (down) {
    const why = (down.reason ?? 'unknown reason').replace(/^down: /, '')
    const when = requested > 0 ? ` after ${ran} of ${requested} probe(s)` : ''
    findings.push(`the server went down${when}: ${why}${back ? `; keepalive reconnected it (${last.reason ?? 'reconnected'})` : ''}`)
  }
  const refused = connected === -1 ? lifecycle.find((e) => e.state === 'failed') : undefined
  if (refused) findings.push(`it did not connect: ${refused.reason ?? 'unknown reason'}`)
  const failed = probes.filter((p) => !p.ok)
  if (failed.length) findings.push(`${failed.length} of ${probes.length} probe(s) failed: ${failed[0].error ?? 'no answer'}`)
  const state = refused || (down && !back) ? 'down' : (probes.at(-1)?.health ?? 'healthy')
  const lost = down && {
    state: down.state,
    reason: (down.reason ?? 'unknown reason').replace(/^down: /, ''),
    ...(down.cause && { cause: down.cause }),
    ...(back && { reconnected: last.reason }),
  }
  return { state, findings, lost }
}

function defaultProbe(handshake: EngineEvent | undefined): string {
  if (!handshake || handshake.type !== 'handshake') return 'ping'
  if (handshake.protocol === 'a2a') return 'agent-card'
  if (handshake.protocol === 'acp') return 'process'
  if (handshake.serverCapabilities.tools) return 'tools/list'
  return handshakeEra(handshake) === '2026' ? 'server/discover' : 'ping'
}

/** The rule behind the keepalive probe: the last probe's, else the one the MCP handshake announced. */
function keepaliveRule(lastProbe: KeepaliveEvent | undefined, handshake: EngineEvent | undefined): string | undefined {
  if (lastProbe?.rule) return lastProbe.rule
  return handshake?.type === 'handshake' && handshake.protocol === 'mcp' ? handshake.rules?.keepalive : undefined
}

function discoveryStep({ method, status, reason, count, durationMs, errorCode, trigger, oddity }: DiscoveryEvent) {
  return {
    method,
    status,
    reason,
    count,
    durationMs,
    ...(errorCode !== undefined && { errorCode }),
    ...(trigger !== 'initial' && { trigger }),
    ...(oddity && { oddity }),
  }
}

type Report = ReturnType<typeof buildReport>

/**
 * One entry of a list (a tool, a skill, a command, a sign-in method) and its description. A description of
 * several lines keeps the list's layout: its later lines are indented under its first (blank ones dropped),
 * never starting at the left margin as entries of their own.
 */
function entry(name: string, description?: string | null): string {
  const head = `  ${name}`
  const text = typeof description === 'string' ? description.trim() : ''
  if (!text) return head
  const [first, ...rest] = text.split(/\r?\n/)
  const indent = ' '.repeat(head.length + 3 <= 40 ? head.length + 3 : 6)
  return [`${head} — ${first.trimEnd()}`, ...rest.filter((line) => line.trim()).map((line) => `${indent}${line.trimEnd()}`)].join('\n')
}

export function formatReport(report: Report): string {
  const lines: string[] = []
  if (report.protocol === 'a2a') {
    const card = (report.agentCard ?? {}) as { name?: string; version?: string }
    lines.push(`${card.name ?? 'agent'} ${card.version ?? ''} — A2A v${report.generation} card at ${report.cardUrl}`)
    lines.push(`  generation  ${report.generationReason}`)
    lines.push(
      `  interface   ${report.interface?.protocolBinding} ${report.interface?.protocolVersion} ${report.interface?.url}${report.transport ? ` (frames: ${report.transport})` : ''}`,
    )
    lines.push(`              ${report.interfaceReason}`)
    const caps = report.capabilities
    if (caps)
      lines.push(
        `  capabilities streaming ${caps.streaming ? 'yes' : 'no'}, push ${caps.pushNotifications ? 'yes' : 'no'}, extended card ${caps.extendedAgentCard ? 'yes' : 'no'}, ${caps.extensions.length} extension(s)`,
      )
    lines.push(`skills (${report.skills.length})`)
    for (const skill of report.skills) lines.push(entry(skill.id, skill.description))
    const extended = report.extendedCard
    if (extended?.status === 'called') {
      const differences = extended.differences ?? []
      lines.push(
        `extended card: ${differences.length ? `${differences.length} difference(s) from the public card` : 'the same as the public card'}`,
      )
      for (const d of differences)
        lines.push(
          `  ${d.op === 'add' ? '+' : d.op === 'remove' ? '-' : '~'} ${d.path} ${d.op === 'add' ? JSON.stringify(d.to) : d.op === 'remove' ? JSON.stringify(d.from) : `${JSON.stringify(d.from)} → ${JSON.stringify(d.to)}`}`,
        )
    } else if (extended) lines.push(`extended card: ${extended.status}: ${extended.reason}`)
    if (report.warnings.length) {
      lines.push(`warnings (${report.warnings.length})`)
      for (const w of report.warnings) lines.push(`  ${w}`)
    }
  } else if (report.protocol === 'acp') {
    const h = report.handshake
    lines.push(`${h?.agentInfo ? `${h.agentInfo.title ?? h.agentInfo.name} ${h.agentInfo.version}` : 'unknown agent'} — ACP over stdio`)
    if (h) {
      lines.push(`  protocol    asked ${h.requestedProtocolVersion}, negotiated ${h.protocolVersion ?? '—'}`)
      const fs = (h.clientCapabilities as { fs?: { readTextFile?: boolean; writeTextFile?: boolean } }).fs
      lines.push(
        `  offered     fs ${fs?.readTextFile || fs?.writeTextFile ? [fs.readTextFile && 'read', fs.writeTextFile && 'write'].filter(Boolean).join('+') : 'no'}, terminal ${(h.clientCapabilities as { terminal?: boolean }).terminal ? 'yes' : 'no'}${h.hint ? `, tool categories ${h.hint.categories.join(', ')} (as ${h.hint.via.join(' and ')})` : ''}`,
      )
      for (const note of h.notOffered ?? []) lines.push(`  not offered ${note}`)
      const caps = h.agentCapabilities as {
        loadSession?: boolean
        promptCapabilities?: Record<string, boolean>
        mcpCapabilities?: Record<string, boolean>
      }
      const kinds = Object.entries(caps.promptCapabilities ?? {})
        .filter(([, on]) => on === true)
        .map(([k]) => k)
      const mcp = Object.entries(caps.mcpCapabilities ?? {})
        .filter(([, on]) => on === true)
        .map(([k]) => k)
      lines.push(
        `  agent       session/load ${caps.loadSession ? 'yes' : 'no'}; prompts: text${kinds.length ? `, ${kinds.join(', ')}` : ''}; MCP servers: stdio${mcp.length ? `, ${mcp.join(', ')}` : ''}`,
      )
      if (h.session) lines.push(`  session     ${h.session.sessionId} (session/${h.session.how}) in ${h.session.cwd}`)
      lines.push(`  keepalive   ${h.keepalive}`)
    }
    // How a person signs in to the agent (ACP's authMethods: Parallax calls none of them; the agent's own tool does).
    const signIn = h?.authMethods ?? []
    lines.push(signIn.length ? `sign-in methods (${signIn.length})` : 'sign-in methods: none (the agent asks for no sign-in)')
    for (const m of signIn) lines.push(entry(m.id, [m.name !== m.id && m.name, m.description].filter(Boolean).join(': ')))
    lines.push(`commands (${report.commands.length})`)
    for (const c of report.commands as { name: string; description?: string }[]) lines.push(entry(`/${c.name}`, c.description))
  } else {
    const h = report.handshake
    const server = h?.serverInfo ? `${h.serverInfo.name} ${h.serverInfo.version}` : 'unknown server'
    lines.push(`${server} over ${report.transport}`)
    if (h) {
      const same = h.requestedProtocolVersion === h.protocolVersion
      lines.push(`  era         ${eraLabel(h.era)}${h.negotiation ? ` — ${h.negotiation.summary}` : ''}`)
      for (const step of h.negotiation?.steps ?? [])
        lines.push(`  offered     ${step.method} ${step.offered.join(', ')} → ${step.answer}${step.accepted ? '' : '  (not taken)'}`)
      lines.push(`  protocol    asked ${h.requestedProtocolVersion}, negotiated ${h.protocolVersion}${same ? '' : '  (differs)'}`)
      if (h.fallback)
        lines.push(
          `  transport   legacy SSE, after streamable HTTP failed: ${h.fallback.why}`,
          ...causeLines(h.fallback.first, '                '),
        )
      lines.push(`  server caps ${Object.keys(h.serverCapabilities).join(', ') || '(none)'}`)
      if (h.instructions) lines.push(`  instructions ${h.instructions}`)
    }
    lines.push(h?.rules ? `discovery   ${h.rules.discovery}` : 'discovery')
    for (const d of report.discovery) {
      const detail = d.status === 'called' ? `${d.count} item(s) in ${d.durationMs?.toFixed(1)} ms` : d.reason
      // A step run again is labelled with what made it run (a list_changed notification, a refresh).
      const again = !d.trigger ? '' : d.status === 'skipped' ? `  [on ${d.trigger}]` : `  [re-discovery after ${d.trigger}]`
      lines.push(`  ${d.status.padEnd(7)} ${d.method.padEnd(25)} ${detail}${again}${d.oddity ? '  [oddity]' : ''}`)
    }
    if (h?.rules) lines.push(`list changes ${h.rules.listChanged}`)
    const catalog: [string, unknown[]][] = [
      ['tools', report.tools],
      ['prompts', report.prompts],
      ['resources', report.resources],
      ['templates', report.resourceTemplates],
      ['skills', (report.skills ?? []).map((s) => skillLine(s as SkillEntry))],
    ]
    for (const [label, items] of catalog) {
      if (items.length === 0) continue
      lines.push(`${label} (${items.length})`)
      for (const item of items as { name?: string; uri?: string; uriTemplate?: string; description?: string }[])
        lines.push(entry(item.name ?? item.uri ?? item.uriTemplate ?? '?', item.description))
    }
    for (const load of report.skillLoads ?? [])
      lines.push(
        `skill loaded ${load.uri}: ${load.verified ? `${load.files.length} file(s), each matching its entry` : `refused: ${load.problem}`}`,
      )
  }
  const k = report.keepalive
  lines.push(
    `keepalive by ${k.probe} every ${k.intervalMs} ms: ${k.state}${k.probes.length < k.requested ? ` (${k.probes.length} of ${k.requested} probe(s) ran)` : ''}`,
  )
  if (k.rule) lines.push(`  rule      ${k.rule}`)
  for (const p of k.probes as KeepaliveEvent[])
    lines.push(
      `  ${p.ok ? 'ok  ' : 'FAIL'} ${p.probe} ${p.rttMs.toFixed(2)} ms${p.error ? `  ${p.error}` : ''}${p.note ? `  (${p.note})` : ''}`,
    )
  if (report.lost) {
    lines.push(`connection lost: ${report.lost.reason ?? 'unknown reason'}`)
    if (report.lost.cause) lines.push(...causeLines(report.lost.cause))
    if (report.lost.reconnected) lines.push(`  then     ${report.lost.reconnected}`)
  }
  if (report.logLevel)
    lines.push(
      `log level ${report.logLevel.level}: ${report.logLevel.sent ? `asked (logging/setLevel)${report.logLevel.error ? `, refused: ${report.logLevel.error}` : ''}` : `skipped: ${report.logLevel.skipped}`}`,
    )
  if (report.serverLog.length) {
    lines.push(`server log (${report.serverLog.length})`)
    for (const l of report.serverLog) lines.push(`  ${l.level.padEnd(9)} ${l.logger ? `[${l.logger}] ` : ''}${l.text}`)
  }
  lines.push(report.findings.length ? `${report.findings.length} finding(s):` : 'no findings')
  for (const f of report.findings) lines.push(`  - ${f}`)
  return `${lines.join('\n')}\n`
}
