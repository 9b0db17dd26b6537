import type { z } from 'zod'
import { appInputs, type AppOutputs } from './app'
import { approvalInputs, type ApprovalOutputs } from './approvals'
import { appViewInputs, type AppViewOutputs } from './apps'
import { authInputs, type AuthOutputs } from './auth'
import { callInputs, type CallOutputs } from './calls'
import { cardInputs, type CardOutputs } from './cards'
import { compareInputs, type CompareOutputs } from './compare'
import { connectionInputs, type ConnectionOutputs } from './connections'
import { conversationInputs, type ConversationOutputs } from './conversation'
import { eventInputs, type EventOutputs } from './events'
import { pushInputs, type PushOutputs } from './push'
import { recordingInputs, type RecordingOutputs } from './recordings'
import { requestInputs, type RequestOutputs } from './requests'
import { serverRequestInputs, type ServerRequestOutputs } from './serverRequests'
import { sessionInputs, type SessionOutputs } from './sessions'
import { tapInputs, type TapOutputs } from './tap'
import { targetInputs, type TargetOutputs } from './targets'
import { timelineInputs, type TimelineOutputs } from './timeline'

export type { AppInfo } from './app'
export type { HooksFiles } from './calls'
export type { CompareResult, CompareSideResult } from './compare'
export type { ConnectionOutcome, RequestAnswer } from './connections'
export { TurnSchema, type TurnResult } from './conversation'
export type { RecordingHeader, RecordingInfo } from './recordings'
export { TargetRef, UnsavedTarget } from './refs'
export type { ResendResult } from './requests'
export type { SessionSearchHit } from './sessions'
export { MAX_HOLD_MS, TapBreakpointsSchema } from './tap'
export type { ImportEntry, ImportResult } from './targets'

/**
 * Every command a host can send to the engine, with its runtime input schema, one module per domain (as
 * the engine's handlers are: shared/engine/commands/), each with its commands' output types beside their
 * inputs. The engine validates each input against these (Engine.execute); hosts only check who is calling.
 */
export const CommandInputs = {
  ...appInputs,
  ...targetInputs,
  ...connectionInputs,
  ...requestInputs,
  ...serverRequestInputs,
  ...conversationInputs,
  ...pushInputs,
  ...callInputs,
  ...recordingInputs,
  ...eventInputs,
  ...approvalInputs,
  ...compareInputs,
  ...authInputs,
  ...appViewInputs,
  ...sessionInputs,
  ...tapInputs,
  ...timelineInputs,
  ...cardInputs,
} as const

/** Every command's output type. */
export interface CommandOutputs
  extends
    AppOutputs,
    TargetOutputs,
    ConnectionOutputs,
    RequestOutputs,
    ServerRequestOutputs,
    ConversationOutputs,
    PushOutputs,
    CallOutputs,
    RecordingOutputs,
    EventOutputs,
    ApprovalOutputs,
    CompareOutputs,
    AuthOutputs,
    AppViewOutputs,
    SessionOutputs,
    TapOutputs,
    TimelineOutputs,
    CardOutputs {}

// Every command has an input schema and an output type, and nothing else has either: a command missing from
// one side stops this compiling.
type NoneLeft<Names extends never> = Names
type _EveryInputHasAnOutput = NoneLeft<Exclude<keyof typeof CommandInputs, keyof CommandOutputs>>
type _EveryOutputHasAnInput = NoneLeft<Exclude<keyof CommandOutputs, keyof typeof CommandInputs>>

export type CommandName = keyof typeof CommandInputs
/** A command's input as a caller sends it (defaults may be left out). */
export type CommandInput<C extends CommandName> = z.input<(typeof CommandInputs)[C]>
/** A command's input as its handler receives it: parsed, defaults filled. */
export type ParsedCommandInput<C extends CommandName> = z.output<(typeof CommandInputs)[C]>
export type CommandOutput<C extends CommandName> = CommandOutputs[C]

export function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && Object.hasOwn(CommandInputs, name)
}

/** A command's failure: its code (and details a host can act on) are carried across hosts. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly code: CommandErrorCode = 'failed',
    /** Structured detail a host can act on (for `approval-required`: the ApprovalRequest to confirm). */
    readonly details?: unknown,
  ) {
    super(message)
    this.name = 'CommandError'
  }
}

export type CommandErrorCode = 'invalid-input' | 'unknown-command' | 'not-found' | 'failed' | 'approval-required'

/** Parses a command's input against its schema, with a message a person can act on. */
export function parseCommandInput<C extends CommandName>(command: C, input: unknown): ParsedCommandInput<C> {
  const result = CommandInputs[command].safeParse(input ?? {})
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')
    throw new CommandError(`invalid input for ${command}: ${issues}`, 'invalid-input')
  }
  return result.data as ParsedCommandInput<C>
}
