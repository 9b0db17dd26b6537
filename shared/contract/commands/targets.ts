import { z } from 'zod'
import { TargetDraft, type SavedTarget } from '../targets'
import { TargetId } from './refs'

/** Saved targets: listed, saved, removed, imported from a config file. */
export const targetInputs = {
  'targets.list': z.object({}),
  /** `approve`: the user typed or reviewed this command in the editor, so saving approves running it. */
  'targets.save': TargetDraft.extend({ approve: z.boolean().optional() }),
  'targets.remove': z.object({ id: TargetId }),
  /**
   * The text of an `mcpServers` config file; nothing is spawned on import (each stdio command still asks
   * for approval when it first connects). `only`: the ids of the entries to add (as `targets.previewImport`
   * lists them); every usable entry without it.
   */
  'targets.import': z.object({
    text: z.string().max(5_000_000),
    fileName: z.string().max(500).optional(),
    only: z.array(TargetId).max(10_000).optional(),
  }),
  /** What importing a config file would add, entry by entry (and what it cannot use), without adding anything. */
  'targets.previewImport': z.object({ text: z.string().max(5_000_000), fileName: z.string().max(500).optional() }),
} as const

export interface TargetOutputs {
  'targets.list': SavedTarget[]
  'targets.save': SavedTarget
  'targets.remove': { removed: boolean }
  'targets.import': ImportResult
  'targets.previewImport': { entries: ImportEntry[]; errors: string[] }
}

export interface ImportResult {
  imported: SavedTarget[]
  errors: string[]
}

/** One entry of a config file as it would be imported: its id, its name, what it runs or where it connects. */
export interface ImportEntry {
  id: string
  name: string
  /** The config's section it came from. */
  section: 'mcpServers' | 'a2aAgents' | 'acpAgents'
  spec: SavedTarget['spec']
  /** The saved target of the same id that importing it would replace (a file imported before). */
  replaces?: string
}
