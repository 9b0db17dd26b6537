import type {
  A2aHandshakeEvent,
  ConnectionEvent,
  DiscoveryEvent,
  EngineEvent,
  FrameEvent,
  KeepaliveEvent,
  LogEvent,
  McpHandshakeEvent,
  SavedTarget,
} from '../shared/contract'
import { redactArgs, redactMap, redactText } from '../shared/contract'

export const INSPECT_FORMAT = 'parallax.inspect/1'

const ofType = <T extends EngineEvent['type']>(events: EngineEvent[], type: T) =>
  events.filter((e) => e.type === type) as Extract<EngineEvent, { type: T }>[]

/** The `parallax.inspect/1` object: what the connection negotiated, discovered and probed. */
export function buildReport(target: SavedTarget, events: EngineEvent[], intervalMs: number, withFrames: boolean) {
  const handshake = ofType(events, 'handshake').at(-1)
  const discovery = ofType(events, 'discovery')
  const probes = ofType(events, 'keepalive')
  const spec =
    target.spec.kind === 'mcp-stdio'
      ? { ...target.spec, args: redactArgs(target.spec.args), env: redactMap(target.spec.env) }
      : { ...target.spec, url: redactText(target.spec.url), headers: redactMap(target.spec.headers) }
  const lastProbe = probes.at(-1)
  const common = {
    format: INSPECT_FORMAT,
    target: { name: target.name, spec },
    transport: handshake?.transport,
    keepalive: {
      probe: lastProbe?.probe ?? defaultProbe(handshake),
      intervalMs,
      state: lastProbe?.health ?? 'healthy',
      probes: probes.map(({ probe, ok, rttMs, error, note }) => ({ probe, ok, rttMs, ...(error && { error }), ...(note && { note }) })),
    },
    connection: ofType(events, 'connection').map(({ state, reason, attempt, maxAttempts }: ConnectionEvent) => ({
      state,
      reason,
      attempt,
      maxAttempts,
    })),
    ...(withFrames && {
      frames: ofType(events, 'frame').map(({ ts, direction, kind, method, id, payload, bytes, latencyMs, http }: FrameEvent) => ({
        ts,
        direction,
        kind,
        method,
        id,
        payload,
        bytes,
        latencyMs,
        ...(http && { http }),
      })),
    }),
  }
  if (handshake?.protocol === 'a2a' || target.spec.kind === 'a2a') {
    const h = handshake as A2aHandshakeEvent | undefined
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
    }
  }
  const h = handshake as McpHandshakeEvent | undefined
  const catalog = (method: DiscoveryEvent['method']) => discovery.findLast((d) => d.method === method && d.items)?.items ?? []
  return {
    ...common,
    protocol: 'mcp' as const,
    handshake: h && {
      requestedProtocolVersion: h.requestedProtocolVersion,
      protocolVersion: h.protocolVersion,
      clientInfo: h.clientInfo,
      clientCapabilities: h.clientCapabilities,
      serverCapabilities: h.serverCapabilities,
      serverInfo: h.serverInfo,
      instructions: h.instructions,
    },
    discovery: discovery.map(discoveryStep),
    tools: catalog('tools/list'),
    prompts: catalog('prompts/list'),
    resources: catalog('resources/list'),
    resourceTemplates: catalog('resources/templates/list'),
    stderr: ofType(events, 'log')
      .filter((e: LogEvent) => e.source === 'stderr')
      .map((e) => e.text),
  }
}

function defaultProbe(handshake: EngineEvent | undefined): string {
  if (!handshake || handshake.type !== 'handshake') return 'ping'
  if (handshake.protocol === 'a2a') return 'agent-card'
  return handshake.serverCapabilities.tools ? 'tools/list' : 'ping'
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

export function formatReport(report: Report): string {
  const lines: string[] = []
  if (report.protocol === 'a2a') {
    const card = (report.agentCard ?? {}) as { name?: string; version?: string }
    lines.push(`${card.name ?? 'agent'} ${card.version ?? ''} — A2A v${report.generation} card at ${report.cardUrl}`)
    lines.push(`  generation  ${report.generationReason}`)
    lines.push(`  interface   ${report.interface?.protocolBinding} ${report.interface?.protocolVersion} ${report.interface?.url}`)
    lines.push(`              ${report.interfaceReason}`)
    const caps = report.capabilities
    if (caps)
      lines.push(
        `  capabilities streaming ${caps.streaming ? 'yes' : 'no'}, push ${caps.pushNotifications ? 'yes' : 'no'}, extended card ${caps.extendedAgentCard ? 'yes' : 'no'}, ${caps.extensions.length} extension(s)`,
      )
    lines.push(`skills (${report.skills.length})`)
    for (const skill of report.skills) lines.push(`  ${skill.id} — ${skill.description}`)
    if (report.warnings.length) {
      lines.push(`warnings (${report.warnings.length})`)
      for (const w of report.warnings) lines.push(`  ${w}`)
    }
  } else {
    const h = report.handshake
    const server = h?.serverInfo ? `${h.serverInfo.name} ${h.serverInfo.version}` : 'unknown server'
    lines.push(`${server} over ${report.transport}`)
    if (h) {
      const same = h.requestedProtocolVersion === h.protocolVersion
      lines.push(`  protocol    asked ${h.requestedProtocolVersion}, negotiated ${h.protocolVersion}${same ? '' : '  (differs)'}`)
      lines.push(`  server caps ${Object.keys(h.serverCapabilities).join(', ') || '(none)'}`)
      if (h.instructions) lines.push(`  instructions ${h.instructions}`)
    }
    lines.push('discovery')
    for (const d of report.discovery) {
      const detail = d.status === 'called' ? `${d.count} item(s) in ${d.durationMs?.toFixed(1)} ms` : d.reason
      lines.push(`  ${d.status.padEnd(7)} ${d.method.padEnd(25)} ${detail}${d.oddity ? '  [oddity]' : ''}`)
    }
    const catalog: [string, unknown[]][] = [
      ['tools', report.tools],
      ['prompts', report.prompts],
      ['resources', report.resources],
      ['templates', report.resourceTemplates],
    ]
    for (const [label, items] of catalog) {
      if (items.length === 0) continue
      lines.push(`${label} (${items.length})`)
      for (const item of items as { name?: string; uri?: string; uriTemplate?: string; description?: string }[]) {
        lines.push(`  ${item.name ?? item.uri ?? item.uriTemplate ?? '?'}${item.description ? ` — ${item.description}` : ''}`)
      }
    }
  }
  const k = report.keepalive
  lines.push(`keepalive by ${k.probe} every ${k.intervalMs} ms: ${k.state}`)
  for (const p of k.probes as KeepaliveEvent[])
    lines.push(
      `  ${p.ok ? 'ok  ' : 'FAIL'} ${p.probe} ${p.rttMs.toFixed(2)} ms${p.error ? `  ${p.error}` : ''}${p.note ? `  (${p.note})` : ''}`,
    )
  return `${lines.join('\n')}\n`
}
