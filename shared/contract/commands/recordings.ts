import { z } from 'zod'
import type { ConnectionPurpose, ReplaySummary, TurnParity } from '../events'
import type { ClientProfile } from '../profiles'
import type { SavedTarget } from '../targets'
import { ConnectionRef, TargetId, TargetRef } from './refs'

const RecordingName = z.string().min(1).max(120)

/** The recordings library (and recording a connection into it, or into a file), and replays of recordings. */
export const recordingInputs = {
  'recordings.list': z.object({}),
  /**
   * Starts recording a connection's events into the library (name defaults to target and time); or, with
   * `file`, into that file (appended to), on hosts that let their user name files (the CLI's --out).
   */
  'recordings.start': ConnectionRef.extend({ name: RecordingName.optional(), file: z.string().min(1).max(4096).optional() }).refine(
    (r) => !(r.name && r.file),
    {
      message: 'give a name (in the library) or a file, not both',
      path: ['file'],
    },
  ),
  'recordings.stop': ConnectionRef,
  'recordings.rename': z.object({ name: RecordingName, to: RecordingName }),
  'recordings.delete': z.object({ name: RecordingName }),
  'recordings.import': z.object({ name: RecordingName, text: z.string().max(200_000_000) }),
  'recordings.export': z.object({ name: RecordingName }),
  /** A recording's header, its turns, and every line that could not be read. */
  'recordings.load': z.object({ name: RecordingName }),
  /**
   * Prepares a replay of a recording — one in the library by name, or one given whole as `{label, text}`
   * (a file the library does not hold) — against one target (vs the recording) or two (A vs B): saved
   * ones by `targetIds`, or any by `targets`.
   */
  'replay.start': z
    .object({
      recording: z.union([RecordingName, z.object({ label: z.string().min(1).max(4096), text: z.string().max(200_000_000) })]),
      targetIds: z.array(TargetId).min(1).max(2).optional(),
      targets: z.array(TargetRef).min(1).max(2).optional(),
      ignore: z.array(z.string().max(500)).max(100).default([]),
      /** Keep the replay's connections open when it ends, to inspect them (they are closed with connections.close). */
      keep: z.boolean().default(false),
    })
    .refine((r) => (r.targetIds === undefined) !== (r.targets === undefined), {
      message: 'give either targetIds or targets',
      path: ['targetIds'],
    }),
  'replay.step': z.object({ replayId: z.string().min(1).max(100) }),
  'replay.run': z.object({ replayId: z.string().min(1).max(100) }),
  'replay.stop': z.object({ replayId: z.string().min(1).max(100) }),
  /** A replay's parity as one self-contained HTML file (redacted): its turns so far, with their badges, diffs and outcomes. */
  'replay.report': z.object({ replayId: z.string().min(1).max(100) }),
} as const

export interface RecordingOutputs {
  'recordings.list': RecordingInfo[]
  'recordings.start': { name: string }
  /** `events`: written, the context at the top included; `turns`: conversation turns among them. */
  'recordings.stop': { name: string; lines: number; events: number; turns: number }
  'recordings.rename': { name: string }
  'recordings.delete': { deleted: boolean }
  'recordings.import': { name: string; problems: { line: number; message: string }[] }
  'recordings.export': { text: string }
  'recordings.load': {
    header: RecordingHeader | undefined
    problems: { line: number; message: string }[]
    events: number
    turns: { index: number; turn: TurnParity['turn'] }[]
  }
  'replay.start': { replayId: string; total: number }
  'replay.step': TurnParity | null
  'replay.run': ReplaySummary
  'replay.stop': { stopped: boolean }
  'replay.report': { html: string }
}

/** A recording's first line: what recorded it, when, which targets, and how turns map between protocols. */
export interface RecordingHeader {
  format: 'parallax.recording/1'
  app: { name: 'Parallax'; version: string }
  startedAt: string
  /** The demo targets' specs are internal (and machine-local), so only their id and name are kept. */
  targets: (Pick<SavedTarget, 'id' | 'name'> & Partial<Pick<SavedTarget, 'spec'>>)[]
  /** How turns map between protocols on replay: an MCP call of tool X with arguments A ↔ an A2A data part {skill: X, input: A}. */
  mapping: { skillField: string; inputField: string }
  profile?: ClientProfile
  /** The connection recorded: its id, what it was for and when it opened. */
  connection?: { id: string; purpose: ConnectionPurpose; startedAt: number }
  /**
   * How many events, right after this line, are context rather than what happened while recording: the
   * connection's state when recording began (its latest connection state, handshake, hooks, and the latest
   * discovery step of each list, with the catalog), as they were then, with their own `seq` and `ts`. A
   * replay learns from them what it talks to; turns come only from what follows.
   */
  context?: number
}

export interface RecordingInfo {
  name: string
  bytes: number
  modifiedAt: number
  /** A checked summary of the header line (capped), never the header itself. */
  header?: { format: string; startedAt: string; targets: { id: string; name: string }[] }
  /** Why the file is not a usable recording (unreadable, or its first line is not a Parallax header); it can still be removed. */
  damaged?: string
}
