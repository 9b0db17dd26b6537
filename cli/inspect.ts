import { parseArgs } from 'node:util'
import { visibleText, type EngineEvent } from '../shared/contract'
import { describeSpec } from '../shared/contract'
import { buildReport, formatReport } from './inspectReport'
import { cliHost, connectOrExplain, wholeNumber, type CliHost } from './connect'
import { resolveTarget } from './resolveTarget'
import { UsageError } from './usage'

/** `parallax inspect <target>`: connect, discover, probe, report, disconnect. */
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
    },
  })
  if (positionals.length !== 1) throw new UsageError('inspect takes exactly one target, e.g. parallax inspect demo:prompts')
  const probes = wholeNumber(values.probes, '--probes', 0, 1000)
  const intervalMs = wholeNumber(values.interval, '--interval', 100)
  const requestTimeoutMs = wholeNumber(values.timeout, '--timeout', 100)
  const target = await resolveTarget(positionals[0], values.config)

  // One connection, no reconnects: inspect reports what it saw rather than retrying for minutes.
  const host = cliHost({
    yes: values.yes,
    configFile: values.config,
    defaults: { keepaliveIntervalMs: intervalMs, requestTimeoutMs, reconnectAttempts: 0 },
  })
  const events: EngineEvent[] = []
  host.onEvents((batch) => events.push(...batch))
  const progress = (text: string) => {
    if (!values.json) process.stderr.write(`${visibleText(text)}\n`)
  }
  try {
    progress(`connecting to ${target.origin === 'demo' ? target.name : describeSpec(target.spec)} …`)
    const connectionId = await connectOrExplain(host, target)
    if (probes > 0) await runProbes(host, connectionId, probes, events)
  } finally {
    await host.close()
  }

  const report = buildReport(target, events, intervalMs, values.frames)
  if (values.json) process.stdout.write(`${JSON.stringify(report)}\n`)
  else process.stdout.write(visibleText(formatReport(report)))
  return 0
}

/** The first probe runs at once; the rest follow the keepalive loop at the chosen interval. */
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
