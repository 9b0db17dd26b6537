import { turnFailure, type CallReport, type Protocol } from '../contract'
import { errorMessage } from '../runtime/errors'
import { now } from '../runtime/clock'
import type { CallEndpoint } from '../runtime/supervisedConnection'
import type { AdcpCall } from '../adcp/adcpCall'
import { checkContextEcho, CONTEXT_FIELDS, type ContextFields } from './contextEcho'
import { diffArguments } from './diff'
import { applyHook, type Args, type HookSet } from './hooks'
import { DEFAULT_PROTOCOL_FIELDS, lintProtocolFields, type LintRules } from './lint'
import type { SchemaValidator } from './validator'

/** A tool or skill as a connection offers it for an inspected call (see CallEndpoint), named, with its protocol. */
export interface CallTarget extends CallEndpoint {
  protocol: Protocol
  tool: string
}

/**
 * Runs one call the way docs/architecture.md describes: snapshot the raw arguments, run the hook on a copy (a hook
 * that throws sends nothing), validate raw and hooked against the input schema, lint for protocol
 * fields, send the hooked arguments, then check the context echo and the output schema. To an AdCP agent
 * (`adcp`), the protocol fields and the context object are AdCP's, and the task's request and response are
 * checked against AdCP's schemas too.
 */
export async function inspectCall(
  target: CallTarget,
  args: Args,
  hooks: HookSet | undefined,
  validator: SchemaValidator,
  protocolFields: readonly string[] | undefined = undefined,
  adcp?: AdcpCall,
): Promise<CallReport> {
  const outcome = await applyHook(hooks, target.tool, args)
  const lint = dedupe([
    ...lintCall(outcome.raw, target.inputSchema, protocolFields, adcp),
    ...lintCall(outcome.hooked, undefined, protocolFields, adcp),
  ])
  const report: CallReport = {
    protocol: target.protocol,
    tool: target.tool,
    raw: outcome.raw,
    hooked: outcome.hooked,
    diff: outcome.error ? [] : diffArguments(outcome.raw, outcome.hooked),
    ...(outcome.hookName && hooks && { hook: { name: outcome.hookName, source: hooks.source } }),
    validation: {
      raw: validator.validate(target.inputSchema, outcome.raw),
      hooked: validator.validate(target.inputSchema, outcome.hooked),
    },
    sent: false,
    lint,
    ...(adcp && { adcp: adcp.report([]) }),
  }
  if (outcome.error) return { ...report, hookError: { code: -32600, message: outcome.error } }
  if (report.adcp && adcp) report.adcp.findings.push(...adcp.check('request', outcome.hooked))

  const started = now()
  try {
    const { response, data, structured, task, turn } = await target.send(outcome.hooked)
    report.sent = true
    report.response = response
    if (turn !== undefined) report.turn = turn
    if (task) report.task = task
    report.durationMs = now() - started
    if (target.outputSchema && structured !== undefined) report.outputValidation = validator.validate(target.outputSchema, structured)
    // The AdCP task's response: over MCP the structured content, over A2A the artifact's data part.
    const adcpResponse = target.protocol === 'mcp' ? structured : data
    if (report.adcp && adcp && adcpResponse !== undefined) report.adcp.findings.push(...adcp.check('response', adcpResponse))
    const context = contextFieldsOf(adcp)
    if (context && report.raw[context.request] !== undefined)
      report.contextEcho = checkContextEcho(outcome.raw, outcome.hooked, data, context)
  } catch (error) {
    report.sent = true
    report.durationMs = now() - started
    report.error = errorMessage(error)
  }
  return report
}

/** Whether a report holds a finding: the CLI's exit 1. */
export function callFindings(report: CallReport): string[] {
  const findings: string[] = []
  if (report.hookError) findings.push(report.hookError.message)
  if (report.validation.hooked.valid === false)
    findings.push(`hooked arguments are invalid: ${report.validation.hooked.errors.map((e) => `${e.path} ${e.message}`).join('; ')}`)
  if (report.contextEcho?.present && !report.contextEcho.matchesRaw) {
    findings.push(
      report.contextEcho.echoed
        ? `the response's context is not the raw context${report.contextEcho.matchesHooked ? ' (it echoes the hooked one)' : ''}`
        : 'the response did not echo the context',
    )
  }
  if (report.outputValidation?.valid === false) findings.push('structuredContent does not match the output schema')
  for (const f of report.adcp?.findings ?? []) findings.push(adcpFindingText(report.adcp!.release, report.adcp!.task, f))
  if (report.error) findings.push(report.error)
  // A call answered with a failure is a failed turn, as in a conversation (one definition: the contract's turnFailure).
  else if (report.sent) {
    const failure = turnFailure(report.response)
    if (failure) findings.push(failure)
  }
  return findings
}

/** One AdCP finding as a line: the release, the task, where in its request or response, and which rule of which schema. */
export function adcpFindingText(release: string, task: string, f: NonNullable<CallReport['adcp']>['findings'][number]): string {
  return `AdCP ${release} ${task} ${f.phase}: ${f.instancePath} ${f.message} (${f.schema}, schema path ${f.schemaPath})`
}

/**
 * The protocol-field lint of a call's arguments (and its tool's input schema): to an AdCP agent AdCP's envelope
 * replaces the list written by hand, and fields the user named (`protocolFields`) are flagged too, as anywhere.
 */
export function lintCall(value: unknown, schema: unknown, protocolFields: readonly string[] | undefined, adcp: AdcpCall | undefined) {
  if (!adcp) return lintProtocolFields(value, schema, protocolFields ?? DEFAULT_PROTOCOL_FIELDS)
  return [
    ...lintProtocolFields(value, schema, adcp.protocolFields, adcpLint(adcp)),
    ...(protocolFields ? lintProtocolFields(value, schema, protocolFields) : []),
  ]
}

function adcpLint(adcp: AdcpCall): LintRules {
  return {
    topLevelOnly: true,
    source: `AdCP ${adcp.release}'s protocol envelope${adcp.known ? `; ${adcp.task}'s request does not define it` : ''}`,
  }
}

/** Where the context goes and comes back: AdCP's schemas say for an AdCP task (none: no context to echo). */
export function contextFieldsOf(adcp: AdcpCall | undefined): ContextFields | undefined {
  if (!adcp) return CONTEXT_FIELDS
  const { request, response } = adcp.context
  return request && response ? { request, response } : undefined
}

function dedupe<T extends { where: string; path: string }>(items: T[]): T[] {
  const seen = new Set<string>()
  return items.filter((i) => !seen.has(`${i.where}${i.path}`) && (seen.add(`${i.where}${i.path}`), true))
}
