import { turnFailure, type CallReport, type Protocol } from '../contract'
import { errorMessage } from '../runtime/errors'
import { now } from '../runtime/clock'
import type { CallEndpoint } from '../runtime/supervisedConnection'
import { checkContextEcho } from './contextEcho'
import { diffArguments } from './diff'
import { applyHook, type Args, type HookSet } from './hooks'
import { DEFAULT_PROTOCOL_FIELDS, lintProtocolFields } from './lint'
import type { SchemaValidator } from './validator'

/** A tool or skill as a connection offers it for an inspected call (see CallEndpoint), named, with its protocol. */
export interface CallTarget extends CallEndpoint {
  protocol: Protocol
  tool: string
}

/**
 * Runs one call the way docs/architecture.md describes: snapshot the raw arguments, run the hook on a copy (a hook
 * that throws sends nothing), validate raw and hooked against the input schema, lint for protocol
 * fields, send the hooked arguments, then check the context echo and the output schema.
 */
export async function inspectCall(
  target: CallTarget,
  args: Args,
  hooks: HookSet | undefined,
  validator: SchemaValidator,
  protocolFields: readonly string[] = DEFAULT_PROTOCOL_FIELDS,
): Promise<CallReport> {
  const outcome = await applyHook(hooks, target.tool, args)
  const lint = dedupe([
    ...lintProtocolFields(outcome.raw, target.inputSchema, protocolFields),
    ...lintProtocolFields(outcome.hooked, undefined, protocolFields),
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
  }
  if (outcome.error) return { ...report, hookError: { code: -32600, message: outcome.error } }

  const started = now()
  try {
    const { response, data, structured, task } = await target.send(outcome.hooked)
    report.sent = true
    report.response = response
    if (task) report.task = task
    report.durationMs = now() - started
    if (target.outputSchema && structured !== undefined) report.outputValidation = validator.validate(target.outputSchema, structured)
    if (report.raw.context !== undefined) report.contextEcho = checkContextEcho(outcome.raw, outcome.hooked, data)
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
  if (report.error) findings.push(report.error)
  // A call answered with a failure is a failed turn, as in a conversation (one definition: the contract's turnFailure).
  else if (report.sent) {
    const failure = turnFailure(report.response)
    if (failure) findings.push(failure)
  }
  return findings
}

function dedupe<T extends { where: string; path: string }>(items: T[]): T[] {
  const seen = new Set<string>()
  return items.filter((i) => !seen.has(`${i.where}${i.path}`) && (seen.add(`${i.where}${i.path}`), true))
}
