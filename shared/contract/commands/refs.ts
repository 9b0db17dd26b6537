import { z } from 'zod'
import { SavedTarget } from '../targets'

// What commands name: a connection, a target (saved, or unsaved and given whole), a client profile.

export const ConnectionRef = z.object({ connectionId: z.string().min(1).max(300) })
export const TargetId = z.string().min(1).max(200)

/**
 * A target that is not saved, given whole (a command line's, a config file's entry): opened for one use.
 * Consent applies as to a saved target; it can never pass for a demo, nor take a saved target's id.
 */
export const UnsavedTarget = SavedTarget.extend({
  // Named by what the user typed (a URL, a command line), which may be long.
  name: z.string().min(1, 'name is required').max(10_000),
  origin: z.enum(['user', 'import']).default('user'),
})
export type UnsavedTarget = z.infer<typeof UnsavedTarget>

/** A saved target by `targetId`, or an unsaved one given whole as `target`: exactly one of the two. */
export const targetRefShape = { targetId: TargetId.optional(), target: UnsavedTarget.optional() }
export const oneTarget = (ref: { targetId?: string; target?: unknown }) => (ref.targetId === undefined) !== (ref.target === undefined)
export const ONE_TARGET = { message: 'give either targetId (a saved target) or target (an unsaved one)', path: ['targetId'] }
export const TargetRef = z.object(targetRefShape).refine(oneTarget, ONE_TARGET)
export type TargetRef = z.output<typeof TargetRef>

/** A client profile by name, or given whole (validated against the profile schema before anything is sent). */
export const ProfileRef = z.union([z.string().min(1).max(100), z.record(z.string(), z.unknown())])
