import { z } from 'zod'
import type { ClientProfile } from '../profiles'
import { oneTarget, ONE_TARGET, ProfileRef, targetRefShape } from './refs'

/** A target and the client profile to connect to it under. */
const TargetUnderProfile = z.object({ ...targetRefShape, profile: ProfileRef.optional() }).refine(oneTarget, ONE_TARGET)

/** Where a compared difference was seen: the frame (seq) in each side's connection. */
const FrameLinks = z.object({ a: z.number().int().optional(), b: z.number().int().optional() })
const CatalogEntry = z.object({ kind: z.string().max(100), name: z.string().max(10_000), frames: FrameLinks })
const CompareSide = z.object({
  targetId: z.string().max(10_000),
  targetName: z.string().max(10_000),
  profile: z.string().max(100).optional(),
  connectionId: z.string().max(300),
})
/** A CompareResult handed back to the engine (to make its report). */
const CompareResultSchema = z.object({
  a: CompareSide,
  b: CompareSide,
  handshake: z
    .array(
      z.object({ origin: z.enum(['client', 'agent']), field: z.string().max(10_000), a: z.unknown(), b: z.unknown(), frames: FrameLinks }),
    )
    .max(10_000),
  catalog: z.object({
    added: z.array(CatalogEntry).max(100_000),
    removed: z.array(CatalogEntry).max(100_000),
    same: z.array(CatalogEntry).max(100_000),
    changed: z
      .array(
        CatalogEntry.extend({
          breaking: z.boolean(),
          changes: z
            .array(
              z.object({ path: z.string().max(10_000), kind: z.string().max(100), breaking: z.boolean(), detail: z.string().max(10_000) }),
            )
            .max(10_000),
        }),
      )
      .max(100_000),
  }),
})

/** Compare two sides (one target under two client profiles, or two targets), and the profiles themselves. */
export const compareInputs = {
  'profiles.list': z.object({}),
  /** Validated against the profile schema: an invalid profile is refused with every problem named. */
  'profiles.save': z.object({ profile: z.unknown() }),
  'profiles.remove': z.object({ name: z.string().min(1).max(100) }),
  /** Connects two sides (one target under two profiles, or two targets) and diffs what each exposed. */
  /** `operations`: renames pairing an MCP tool with an A2A skill of another name ({tool: skill}); by default they pair by name. */
  'compare.run': z.object({
    a: TargetUnderProfile,
    b: TargetUnderProfile,
    operations: z.record(z.string().max(500), z.string().max(500)).optional(),
    /** ACP: a prompt sent on each side once it settled, so the compare shows what the agent did (the tools it used) as well as what it exposed. */
    prompt: z.string().min(1).max(10_000).optional(),
  }),
  /** A compare's result (as compare.run gave it) as one self-contained HTML file (redacted). */
  'compare.report': z.object({ result: CompareResultSchema }),
} as const

export interface CompareOutputs {
  'profiles.list': (ClientProfile & { preset: boolean })[]
  'profiles.save': ClientProfile
  'profiles.remove': { removed: boolean }
  'compare.run': CompareResult
  'compare.report': { html: string }
}

export interface CompareSideResult {
  targetId: string
  targetName: string
  profile?: string
  connectionId: string
}

/** The differences between two sides; each difference names the frames (by seq) that showed it. */
export interface CompareResult {
  a: CompareSideResult
  b: CompareSideResult
  handshake: { origin: 'client' | 'agent'; field: string; a: unknown; b: unknown; frames: { a?: number; b?: number } }[]
  catalog: {
    added: { kind: string; name: string; frames: { a?: number; b?: number } }[]
    removed: { kind: string; name: string; frames: { a?: number; b?: number } }[]
    changed: {
      kind: string
      name: string
      breaking: boolean
      frames: { a?: number; b?: number }
      changes: { path: string; kind: string; breaking: boolean; detail: string }[]
    }[]
    /** In both, unchanged (across protocols: an MCP tool and the A2A skill of the same name). */
    same: { kind: string; name: string; frames: { a?: number; b?: number } }[]
  }
}
