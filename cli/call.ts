import { visibleText, type CallReport } from '../shared/contract'
import { parseArgs } from 'node:util'
import { callFindings } from '../shared/hooks/callInspector'
import { applyLogLevel, cliHost, connectOrExplain, listenToServer, logLevelFlag, wholeNumber, type LogLevelOutcome } from './connect'
import { printJson } from './failure'
import { AUTH_OPTIONS, withAuthFlags } from './authFlags'
import { resolveTarget } from './resolveTarget'
import { CLIENT_OPTIONS, clientFlags, listenToServerRequests, withClientFlags } from './clientFlags'
import { UsageError } from './usage'

export const CALL_FORMAT = 'parallax.call/1'

/**
 * `parallax call <target> <tool> --args JSON [--hooks FILE]`: one inspected call, raw vs hooked. Exit 1 for
 * a finding: invalid hooked arguments, a context not echoed, a call answered with a failure (a failed turn).
 */
export async function call(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      args: { type: 'string', default: '{}' },
      hooks: { type: 'string' },
      config: { type: 'string' },
      yes: { type: 'boolean', short: 'y', default: false },
      json: { type: 'boolean', default: false },
      timeout: { type: 'string', default: '30000' },
      'protocol-fields': { type: 'string' },
      'log-level': { type: 'string' },
      binding: { type: 'string' },
      task: { type: 'boolean', default: false },
      'task-deadline': { type: 'string', default: '600' },
      ...CLIENT_OPTIONS,
      ...AUTH_OPTIONS,
    },
  })
  if (positionals.length !== 2)
    throw new UsageError(
      'call takes a target and a tool, e.g. parallax call demo:tools create_media_buy --args \'{"product_id": "prod_mobile_run"}\'',
    )
  const [targetText, tool] = positionals
  let args: unknown
  try {
    args = JSON.parse(values.args)
  } catch (error) {
    throw new UsageError(`--args is not valid JSON: ${(error as Error).message}`)
  }
  if (!args || typeof args !== 'object' || Array.isArray(args)) throw new UsageError('--args must be a JSON object')
  const timeout = wholeNumber(values.timeout, '--timeout', 100)
  const taskDeadlineMs = wholeNumber(values['task-deadline'], '--task-deadline', 1, 86_400) * 1000
  const logLevel = logLevelFlag(values['log-level'])
  const client = await clientFlags(values)
  const target = withAuthFlags(withClientFlags(await resolveTarget(targetText, values.config, values.binding), client), values)

  const protocolFields = values['protocol-fields']
    ?.split(',')
    .map((f) => f.trim())
    .filter(Boolean)
  const host = cliHost({
    progress: (line) => {
      if (!values.json) process.stderr.write(`${visibleText(line)}\n`)
    },
    yes: values.yes,
    configFile: values.config,
    protocolFields,
    defaults: { requestTimeoutMs: timeout, taskDeadlineMs, reconnectAttempts: 0, keepaliveIntervalMs: 3_600_000 },
  })
  const progress = (line: string) => {
    if (!values.json) process.stderr.write(`${visibleText(line)}\n`)
  }
  const serverLog = listenToServer(host, progress)
  const serverRequests = listenToServerRequests(host, progress)
  let logLevelOutcome: LogLevelOutcome | undefined
  try {
    const connectionId = await connectOrExplain(host, target, 'session', client.profile)
    if (logLevel) logLevelOutcome = await applyLogLevel(host, connectionId, logLevel, progress)
    if (values.hooks) {
      try {
        await host.invoke('hooks.load', { connectionId, path: values.hooks })
      } catch (error) {
        throw new UsageError((error as Error).message)
      }
    }
    const report = await host.invoke('tools.call', { connectionId, tool, arguments: args as Record<string, unknown>, task: values.task })
    const findings = callFindings(report)
    if (values.json)
      printJson({
        format: CALL_FORMAT,
        ...report,
        findings,
        ...(logLevelOutcome && { logLevel: logLevelOutcome }),
        serverLog: serverLog(),
        serverRequests: serverRequests(),
      })
    else process.stdout.write(visibleText(formatCall(report, findings)))
    return findings.length ? 1 : 0
  } finally {
    await host.close()
  }
}

function formatCall(report: CallReport, findings: string[]): string {
  const lines = [`${report.tool} (${report.protocol})${report.hook ? ` with hook "${report.hook.name}" from ${report.hook.source}` : ''}`]
  lines.push(`  raw     ${JSON.stringify(report.raw)}`)
  lines.push(`  hooked  ${JSON.stringify(report.hooked)}`)
  for (const change of report.diff)
    lines.push(
      `    ${change.op.padEnd(7)} ${change.path}${'from' in change ? ` ${JSON.stringify(change.from)}` : ''}${'to' in change ? ` → ${JSON.stringify(change.to)}` : ''}`,
    )
  const verdict = (v: typeof report.validation.raw) =>
    v.valid === null ? 'no schema' : v.valid ? 'valid' : `invalid: ${v.errors.map((e) => `${e.path} ${e.message}`).join('; ')}`
  lines.push(`  raw is ${verdict(report.validation.raw)}`, `  hooked is ${verdict(report.validation.hooked)}`)
  if (report.hookError) lines.push(`  hook error (${report.hookError.code}): ${report.hookError.message}; nothing was sent`)
  if (report.contextEcho)
    lines.push(
      `  context echo: ${report.contextEcho.matchesRaw ? 'the raw context came back' : report.contextEcho.echoed ? 'a different context came back' : 'not echoed'}`,
    )
  for (const l of report.lint) lines.push(`  lint: ${l.message}`)
  if (report.task)
    lines.push(`  task    ${report.task.id}: ${report.task.status} (the call went through as an MCP task, followed to its end)`)
  if (report.sent) lines.push(`  response ${JSON.stringify(report.response ?? report.error).slice(0, 400)}`)
  lines.push(findings.length ? `${findings.length} finding(s):` : 'no findings')
  for (const f of findings) lines.push(`  - ${f}`)
  return `${lines.join('\n')}\n`
}
