/**
 * Pre-validation hooks (docs/architecture.md): `(toolName, args) => args`, per tool, applied to the raw wire
 * arguments before JSON-schema validation. The raw arguments are snapshotted before the hook runs and
 * the hook gets its own copy, so mutating in place and returning a new object behave the same and
 * neither can change the snapshot.
 */
export type Args = Record<string, unknown>
export type Hook = (toolName: string, args: Args) => Args | void | Promise<Args | void>

export interface HookSet {
  /** Where the hooks came from (a file path), for display. */
  source: string
  kind: 'module' | 'declarative'
  hooks: Record<string, Hook>
}

export interface HookOutcome {
  raw: Args
  hooked: Args
  /** The name of the hook that ran (a tool name or `*`), if any. */
  hookName?: string
  /** Set when the hook threw or returned something that is not an object: nothing is sent then. */
  error?: string
}

/** The hook for a tool: its own, else the `*` hook that applies to every tool. */
export function hookFor(set: HookSet | undefined, tool: string): { name: string; hook: Hook } | undefined {
  if (!set) return undefined
  if (Object.hasOwn(set.hooks, tool)) return { name: tool, hook: set.hooks[tool] }
  if (Object.hasOwn(set.hooks, '*')) return { name: '*', hook: set.hooks['*'] }
  return undefined
}

export async function applyHook(set: HookSet | undefined, tool: string, args: Args): Promise<HookOutcome> {
  const raw = structuredClone(args)
  const found = hookFor(set, tool)
  if (!found) return { raw, hooked: structuredClone(args) }
  const input = structuredClone(args)
  try {
    const returned = await found.hook(tool, input)
    const hooked = returned === undefined ? input : returned
    if (!hooked || typeof hooked !== 'object' || Array.isArray(hooked)) {
      return {
        raw,
        hooked: input,
        hookName: found.name,
        error: `hook "${found.name}" returned ${Array.isArray(hooked) ? 'an array' : typeof hooked}, not an arguments object`,
      }
    }
    // Detach whatever the hook returned from anything it may still hold on to.
    return { raw, hooked: structuredClone(hooked), hookName: found.name }
  } catch (error) {
    return {
      raw,
      hooked: input,
      hookName: found.name,
      error: `hook "${found.name}" threw: ${error instanceof Error ? error.message : String(error)}`,
    }
  }
}
