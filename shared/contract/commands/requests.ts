import { z } from 'zod'
import type { A2aMessage, A2aTask } from '../agentData'
import type { CallReport } from '../events'
import type { RequestCheck } from '../resend'
import type { RequestAnswer } from './connections'
import type { TurnResult } from './conversation'
import { ConnectionRef } from './refs'

/** A request frame of a connection, with params to send in place of its own (checked against the protocol's schema for its method). */
const ResendInput = ConnectionRef.extend({
  seq: z.number().int().min(1),
  params: z.record(z.string(), z.unknown()).optional(),
})

/** Requests seen in Frames, checked and sent again on their connection (as they were, or edited). */
export const requestInputs = {
  /** Checks a request frame, or params in place of its own, against the protocol's schema for its method, without sending anything. */
  'requests.check': ResendInput,
  /**
   * Sends a request seen in Frames again on the same connection, as it was or with `params` in its place
   * (checked first: refused with where and why, nothing sent). The new frames carry `resendOf`. A tool call
   * goes through the inspected call (hooks apply), an A2A message is a turn. One that changes state (a
   * tool call, a message, a cancel) is refused unless `confirmed`: a host asks its user first.
   */
  'requests.resend': ResendInput.extend({ confirmed: z.boolean().default(false) }),
} as const

export interface RequestOutputs {
  'requests.check': RequestCheck
  'requests.resend': ResendResult
}

/** What a resend came to, by what it was: an inspected tool call, any MCP request, an A2A turn, or an A2A task operation. */
export type ResendResult = (
  | { kind: 'call'; report: CallReport }
  | { kind: 'request'; answer: RequestAnswer }
  | { kind: 'turn'; result: TurnResult }
  | { kind: 'task'; task: A2aTask | A2aMessage | null }
  | { kind: 'tasks'; tasks: A2aTask[] }
) & {
  /** The frame (seq) this resend repeats; the new frames carry it as `resendOf`. */
  resendOf: number
  method: string
  /** The new request's frame (seq), once it went out (a hook that threw, say, sends nothing). */
  requestSeq?: number
}
