import type { SavedTarget } from '../contract'

/**
 * What ships with Parallax and runs on request: the demo targets, recordings that seed the library,
 * the example hooks. The engine knows them only through this; a host hands it over (see shared/demo).
 */
export interface BuiltIns {
  targets: SavedTarget[]
  /** Recording files copied into a new library. */
  recordings: string[]
  /** Hooks modules in this folder are Parallax's own: they need no approval. */
  hooksDir?: string
  /** The target as it can be opened now (a built-in agent may first have to start). */
  resolve(target: SavedTarget): Promise<SavedTarget>
  /** Stops whatever `resolve` started. */
  dispose(): Promise<void>
}

export const NO_BUILT_INS: BuiltIns = { targets: [], recordings: [], resolve: async (target) => target, dispose: async () => {} }
