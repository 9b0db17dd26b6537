import {
  ADCP_RELEASE,
  adcpRequestFields,
  isAdcpTask,
  recogniseAdcp,
  type AdcpFinding,
  type CallReport,
  type EngineEvent,
} from '../contract'
import { checkAdcpTask, contextFields, envelopeFields, type AdcpPhase } from './adcpRelease'

/**
 * One call to an AdCP agent, in AdCP's terms: which fields are the protocol's rather than the task's, where the
 * context object goes and comes back, and the task's request and response against the release's schemas.
 * The call inspector (shared/hooks/callInspector.ts) asks it; it is loaded with the first inspected call.
 */
export interface AdcpCall {
  release: string
  /** Why Parallax takes the agent for an AdCP agent. */
  recognised: string
  task: string
  /** Whether the release defines the task (a tool of the agent's own has no AdCP schema). */
  known: boolean
  /** The protocol envelope's fields (and the legacy status fields) that the task's request does not define. */
  protocolFields: string[]
  /** Where the request carries AdCP's context object, and where the response echoes it (core/context.json). */
  context: { request?: string; response?: string }
  check(phase: AdcpPhase, value: unknown): AdcpFinding[]
  /** The call's AdCP side as a report carries it, with these findings. */
  report(findings: AdcpFinding[]): NonNullable<CallReport['adcp']>
}

/** The AdCP side of a call of `task`, when the connection's state says the agent is an AdCP agent. */
export function adcpCall(state: readonly EngineEvent[], task: string): AdcpCall | undefined {
  const recognised = recogniseAdcp(state)
  if (!recognised) return undefined
  const own = adcpRequestFields(task)
  return {
    release: ADCP_RELEASE,
    recognised,
    task,
    known: isAdcpTask(task),
    protocolFields: envelopeFields().filter((field) => !own.has(field)),
    context: isAdcpTask(task)
      ? { request: contextFields(task, 'request')[0], response: contextFields(task, 'response')[0] }
      : { request: 'context', response: 'context' },
    check: (phase, value) => checkAdcpTask(task, phase, value),
    report: (findings) => ({ release: ADCP_RELEASE, recognised, task, known: isAdcpTask(task), findings }),
  }
}

/**
 * The AdCP task a conversation turn calls, and with what: an MCP tool call, or an A2A data part `{skill, input}`
 * (AdCP's `parameters`, its older clients' name for the input, read the same).
 */
export function turnCall(
  turn: { tool: string; arguments: Record<string, unknown> } | { text: string } | { data: Record<string, unknown> },
  mapping: { skillField: string; inputField: string },
): { task: string; args: unknown } | undefined {
  if ('tool' in turn) return { task: turn.tool, args: turn.arguments }
  if (!('data' in turn)) return undefined
  const skill = turn.data[mapping.skillField]
  return typeof skill === 'string' ? { task: skill, args: turn.data[mapping.inputField] ?? turn.data.parameters ?? {} } : undefined
}

/** An AdCP task's response in a protocol's answer: over MCP the structured content, over A2A the first data part of the task's artifacts. */
export function taskResponse(protocol: string, response: unknown): unknown {
  if (!response || typeof response !== 'object') return undefined
  if (protocol === 'mcp') return (response as { structuredContent?: unknown }).structuredContent
  const artifacts = (response as { artifacts?: { parts?: unknown[] }[] }).artifacts ?? []
  return artifacts
    .flatMap((a) => a.parts ?? [])
    .map((p) => (p && typeof p === 'object' && 'data' in p ? (p as { data: unknown }).data : undefined))
    .find((d) => d !== undefined)
}
