import { parseArgs } from 'node:util'
import type { ConnectionEvent, DiscoveryEvent, EngineEvent, FrameEvent, HandshakeEvent, KeepaliveEvent, LogEvent } from '../shared/contract'
import { describeSpec } from '../shared/contract'
import { Engine } from '../shared/engine/engine'
import { redactMap } from '../shared/contract'
import { resolveTarget } from './resolveTarget'
import { UsageError } from './usage'

const FORMAT = 'parallax.inspect/1'

/** `parallax inspect <target>`: connect, discover, probe, report, disconnect. */
export async function inspect(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      config: { type: 'string' },
      json: { type: 'boolean', default: false },
      frames: { type: 'boolean', default: false },
      probes: { type: 'string', default: '1' },
      interval: { type: 'string', default: '1000' },
      timeout: { type: 'string', default: '10000' },
    },
  })
  if (positionals.length !== 1) throw new UsageError('inspect takes exactly one target, e.g. parallax inspect demo:prompts')
  const probes = integer(values.probes, '--probes', 0, 1000)
  const intervalMs = integer(values.interval, '--interval', 100, 3_600_000)
  const requestTimeoutMs = integer(values.timeout, '--timeout', 100, 3_600_000)
  const target = await resolveTarget(positionals[0], values.config)

  // One connection, no reconnects: inspect reports what it saw rather than retrying for minutes.
  const engine = new Engine({ host: 'cli', defaults: { keepaliveIntervalMs: intervalMs, requestTimeoutMs, reconnectAttempts: 0 } })
  const events: EngineEvent[] = []
  engine.events.subscribe((event) => events.push(event))
  const progress = (text: string) => {
    if (!values.json) process.stderr.write(`${text}\n`)
  }
  const connection = engine.createConnection(target)
  try {
    progress(`connecting to ${describeSpec(target.spec)} …`)
    if (!(await connection.open())) {
      const failed = events.findLast((e): e is ConnectionEvent => e.type === 'connection' && e.state === 'failed')
      const stderr = events.filter((e): e is LogEvent => e.type === 'log' && e.source === 'stderr').slice(-3)
      const hint = stderr.length ? ` (server stderr: ${stderr.map((e) => e.text).join(' | ')})` : ''
      process.stderr.write(`parallax: cannot connect to ${target.name}: ${failed?.reason ?? 'unknown error'}${hint}\n`)
      return 2
    }
    if (probes > 0) await runProbes(connection, probes, events)
  } finally {
    await engine.dispose()
  }

  const report = buildReport(target, events, intervalMs, values.frames)
  if (values.json) process.stdout.write(`${JSON.stringify(report)}\n`)
  else process.stdout.write(formatReport(report))
  return 0
}

/** The first probe runs at once; the rest follow the keepalive loop at the chosen interval. */
async function runProbes(connection: ReturnType<Engine['createConnection']>, count: number, events: EngineEvent[]): Promise<void> {
  const probesSoFar = () => events.filter((e) => e.type === 'keepalive').length
  await connection.probeNow()
  while (probesSoFar() < count && connection.isLive) {
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

function integer(text: string | undefined, flag: string, min: number, max: number): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}`)
  return n
}

type Report = ReturnType<typeof buildReport>

function buildReport(target: Awaited<ReturnType<typeof resolveTarget>>, events: EngineEvent[], intervalMs: number, withFrames: boolean) {
  const handshake = events.findLast((e): e is HandshakeEvent => e.type === 'handshake')
  const discovery = events.filter((e): e is DiscoveryEvent => e.type === 'discovery')
  const probes = events.filter((e): e is KeepaliveEvent => e.type === 'keepalive')
  const connection = events.filter((e): e is ConnectionEvent => e.type === 'connection')
  const catalog = (method: DiscoveryEvent['method']) => discovery.findLast((d) => d.method === method && d.items)?.items ?? []
  const spec = target.spec.kind === 'mcp-stdio' ? { ...target.spec, env: redactMap(target.spec.env) } : { ...target.spec, headers: redactMap(target.spec.headers) }
  const lastProbe = probes.at(-1)
  return {
    format: FORMAT,
    protocol: 'mcp' as const,
    target: { name: target.name, spec },
    transport: handshake?.transport,
    handshake: handshake && {
      requestedProtocolVersion: handshake.requestedProtocolVersion,
      protocolVersion: handshake.protocolVersion,
      clientInfo: handshake.clientInfo,
      clientCapabilities: handshake.clientCapabilities,
      serverCapabilities: handshake.serverCapabilities,
      serverInfo: handshake.serverInfo,
      instructions: handshake.instructions,
    },
    discovery: discovery.map(({ method, status, reason, count, durationMs, errorCode, trigger, oddity }) => ({
      method,
      status,
      reason,
      count,
      durationMs,
      ...(errorCode !== undefined && { errorCode }),
      ...(trigger !== 'initial' && { trigger }),
      ...(oddity && { oddity }),
    })),
    tools: catalog('tools/list'),
    prompts: catalog('prompts/list'),
    resources: catalog('resources/list'),
    resourceTemplates: catalog('resources/templates/list'),
    keepalive: {
      probe: lastProbe?.probe ?? (handshake?.serverCapabilities.tools ? 'tools/list' : 'ping'),
      intervalMs,
      state: lastProbe?.health ?? 'healthy',
      probes: probes.map(({ probe, ok, rttMs, error, note }) => ({ probe, ok, rttMs, ...(error && { error }), ...(note && { note }) })),
    },
    connection: connection.map(({ state, reason, attempt, maxAttempts }) => ({ state, reason, attempt, maxAttempts })),
    stderr: events.filter((e): e is LogEvent => e.type === 'log' && e.source === 'stderr').map((e) => e.text),
    ...(withFrames && {
      frames: events
        .filter((e): e is FrameEvent => e.type === 'frame')
        .map(({ ts, direction, kind, method, id, payload, bytes, latencyMs }) => ({ ts, direction, kind, method, id, payload, bytes, latencyMs })),
    }),
  }
}

function formatReport(report: Report): string {
  const lines: string[] = []
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
      const name = item.name ?? item.uri ?? item.uriTemplate ?? '?'
      lines.push(`  ${name}${item.description ? ` — ${item.description}` : ''}`)
    }
  }
  const k = report.keepalive
  lines.push(`keepalive by ${k.probe} every ${k.intervalMs} ms: ${k.state}`)
  for (const p of k.probes) lines.push(`  ${p.ok ? 'ok  ' : 'FAIL'} ${p.probe} ${p.rttMs.toFixed(2)} ms${p.error ? `  ${p.error}` : ''}${p.note ? `  (${p.note})` : ''}`)
  return `${lines.join('\n')}\n`
}
