import { parseArgs } from 'node:util'
import { describeSpec, visibleText, type DiscoveryEvent, type EngineEvent, type SkillEntry, type SkillLoad } from '../shared/contract'
import { buildReport, formatReport, redactedSpec } from './inspectReport'
import { applyLogLevel, cliHost, connectOrExplain, logLevelFlag, wholeNumber, type CliHost, type LogLevelOutcome } from './connect'
import { printJson } from './failure'
import { AUTH_OPTIONS, withAuthFlags } from './authFlags'
import { profileFlag } from './clientFlags'
import { resolveTarget } from './resolveTarget'
import { UsageError } from './usage'
import { inspectCard } from './inspectCard'

/** `parallax inspect <target>`: connect, discover, probe, report, disconnect. Exit 1 when the report holds a finding (a dead server, failed probes). */
export async function inspect(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      config: { type: 'string' },
      yes: { type: 'boolean', short: 'y', default: false },
      json: { type: 'boolean', default: false },
      frames: { type: 'boolean', default: false },
      probes: { type: 'string', default: '1' },
      interval: { type: 'string', default: '1000' },
      timeout: { type: 'string', default: '10000' },
      'log-level': { type: 'string' },
      profile: { type: 'string' },
      ...AUTH_OPTIONS,
      binding: { type: 'string' },
      skill: { type: 'string', multiple: true, default: [] },
      card: { type: 'string' },
    },
  })
  if (values.card !== undefined) {
    if (positionals.length > 1) throw new UsageError("inspect --card URL takes at most one target (else the card's own endpoint)")
    const timeout = wholeNumber(values.timeout, '--timeout', 100)
    return inspectCard({ ...values, card: values.card, timeout }, positionals[0])
  }
  if (positionals.length !== 1) throw new UsageError('inspect takes exactly one target, e.g. parallax inspect demo:prompts')
  const probes = wholeNumber(values.probes, '--probes', 0, 1000)
  const intervalMs = wholeNumber(values.interval, '--interval', 100)
  const requestTimeoutMs = wholeNumber(values.timeout, '--timeout', 100)
  const logLevel = logLevelFlag(values['log-level'])
  // The client profile to connect under: e.g. mcp-2025 or mcp-2026 for one MCP era only (the default negotiates).
  const profile = values.profile === undefined ? undefined : await profileFlag(values.profile)
  const target = withAuthFlags(await resolveTarget(positionals[0], values.config, values.binding), values)

  // One connection, no reconnects: inspect reports what it saw rather than retrying for minutes.
  const host = cliHost({
    progress: (line) => {
      if (!values.json) process.stderr.write(`${visibleText(line)}\n`)
    },
    yes: values.yes,
    configFile: values.config,
    defaults: { keepaliveIntervalMs: intervalMs, requestTimeoutMs, reconnectAttempts: 0 },
  })
  const events: EngineEvent[] = []
  host.onEvents((batch) => events.push(...batch))
  const progress = (text: string) => {
    if (!values.json) process.stderr.write(`${visibleText(text)}\n`)
  }
  let logLevelOutcome: LogLevelOutcome | undefined
  try {
    progress(`connecting to ${target.origin === 'demo' ? target.name : describeSpec(redactedSpec(target.spec))} …`)
    const connectionId = await connectOrExplain(host, target, 'session', profile).catch((error: unknown) => {
      // The agent answered the handshake, then refused to go on (an ACP agent that wants a sign-in first):
      // what it said is the report, and its refusal a finding.
      if (events.some((e) => e.type === 'handshake')) return undefined
      throw error
    })
    if (connectionId && logLevel) logLevelOutcome = await applyLogLevel(host, connectionId, logLevel, progress)
    if (connectionId && probes > 0) await runProbes(host, connectionId, probes, events)
    const skillLoads = connectionId ? await loadSkills(host, connectionId, values.skill, events) : []
    // The report is out as soon as it is known; the server is then given its time to exit.
    const report = buildReport(target, events, { intervalMs, probes, withFrames: values.frames, logLevel: logLevelOutcome, skillLoads })
    if (values.json) printJson(report)
    else process.stdout.write(visibleText(formatReport(report)))
    return report.findings.length ? 1 : 0
  } finally {
    await host.close()
  }
}

/** Loads each skill asked for (`--skill`, by its name or its URI), as a host loads one it activates: its files read and checked. */
async function loadSkills(host: CliHost, connectionId: string, wanted: string[], events: EngineEvent[]): Promise<SkillLoad[]> {
  if (!wanted.length) return []
  const listed =
    (events.findLast((e) => e.type === 'discovery' && e.method === 'skills/list' && e.items) as DiscoveryEvent | undefined)?.items ?? []
  const loads: SkillLoad[] = []
  for (const name of wanted) {
    const entry = (listed as SkillEntry[]).find((s) => s.uri === name || s.frontmatter?.name === name)
    if (!entry) throw new UsageError(`--skill ${JSON.stringify(name)}: the server lists no such skill (${listed.length} listed)`)
    loads.push(await host.invoke('connections.loadSkill', { connectionId, uri: entry.uri }))
  }
  return loads
}

/** The first probe runs at once; the rest follow the keepalive loop at the chosen interval, while the connection lives. */
async function runProbes(host: CliHost, connectionId: string, count: number, events: EngineEvent[]): Promise<void> {
  const probesSoFar = () => events.filter((e) => e.type === 'keepalive').length
  const isLive = () => {
    const last = events.findLast((e) => e.type === 'connection' && e.connectionId === connectionId)
    return last?.type === 'connection' && (last.state === 'connected' || last.state === 'degraded')
  }
  await host.invoke('connections.probe', { connectionId })
  while (probesSoFar() < count && isLive()) {
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
