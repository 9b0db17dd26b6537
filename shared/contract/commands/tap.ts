import { z } from 'zod'
import { ConnectionRef } from './refs'

/** The longest a tap may hold a message (a forgotten hold must not hang a host for ever): the tap keeps the same bound. */
export const MAX_HOLD_MS = 10 * 60_000

export const TapBreakpointsSchema = z
  .object({
    on: z.boolean(),
    /** Methods to hold (none: any, unless tools are named). */
    methods: z.array(z.string().min(1).max(200)).max(100).default([]),
    /** Tools whose `tools/call` is held. */
    tools: z.array(z.string().min(1).max(200)).max(100).default([]),
    directions: z
      .array(z.enum(['out', 'in']))
      .min(1, 'hold the host’s messages, the server’s, or both')
      .max(2)
      .default(['out', 'in']),
    timeoutMs: z.number().int().min(100).max(MAX_HOLD_MS).default(30_000),
  })
  .strict()

/**
 * Hold in flight on an observed connection (opt-in): the engine hands each decision to the tap that relays the
 * session, which holds, releases and drops; what it did comes back as `hold` events.
 */
export const tapInputs = {
  /** What the tap holds from now on; off releases whatever it holds. */
  'tap.breakpoints': ConnectionRef.extend({ breakpoints: TapBreakpointsSchema }),
  /** A held message: sent on as it was, or as edited (`message`, its JSON), or dropped. */
  'tap.decide': ConnectionRef.extend({
    holdId: z.number().int().min(1),
    action: z.enum(['release', 'drop']),
    message: z.unknown().optional(),
  }).refine((input) => input.action === 'release' || input.message === undefined, {
    message: 'only a released message can be edited',
    path: ['message'],
  }),
} as const

export interface TapOutputs {
  'tap.breakpoints': { sent: true }
  'tap.decide': { sent: true }
}
