import { z } from 'zod'
import type { CallReport } from '../events'
import { ConnectionRef } from './refs'

/** Inspected calls (a tool, or an A2A skill), and the pre-validation hooks they run through. */
export const callInputs = {
  /** A call inspected end to end: raw and hooked arguments, validation, context echo, lint. */
  'tools.call': ConnectionRef.extend({
    tool: z.string().min(1).max(500),
    arguments: z.record(z.string(), z.unknown()).default({}),
    /** MCP: make the call as a task (2025-11-25), for a server that advertises tasks for tool calls; followed to its result. */
    task: z.boolean().default(false),
  }),
  /** Loads (or reloads) a hooks file for the connection's target; its hooks run on every tools.call. */
  'hooks.load': ConnectionRef.extend({ path: z.string().min(1).max(4096) }),
  'hooks.clear': ConnectionRef,
  /** Hooks files to pick from: the examples that ship with Parallax, the ones loaded lately, whether `hooks.browse` is there. */
  'hooks.files': z.object({}),
  /** The host's own file dialog (the desktop app's), for a hooks file; refused by a host that has none (the web host). */
  'hooks.browse': z.object({}),
} as const

export interface CallOutputs {
  'tools.call': CallReport
  'hooks.load': { source: string; kind: 'module' | 'declarative'; tools: string[] }
  'hooks.clear': { cleared: boolean }
  'hooks.files': HooksFiles
  /** The file chosen, or null when the dialog was dismissed. */
  'hooks.browse': { path: string | null }
}

/** Hooks files a user can pick without typing a path: what the engine has on this machine. */
export interface HooksFiles {
  /** The examples that ship with Parallax, by their real path where it runs (a checkout or an installed package). */
  builtIn: { name: string; path: string }[]
  /** Files loaded lately (newest first) that still exist; none without a data folder. */
  recent: string[]
  /** Whether the host has a file dialog of its own (`hooks.browse`): the desktop app; a web page cannot read a path from its browser's file picker. */
  browse: boolean
}
