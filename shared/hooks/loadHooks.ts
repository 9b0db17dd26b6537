import { parseDeclarativeHooks } from './declarative'
import type { Hook, HookSet } from './hooks'
import { loadUserFile } from '../runtime/userModules'

/**
 * Loads a hooks file: `.json` is the declarative form; a module (`.js`, `.mjs`, `.cjs`, `.ts`, `.mts`,
 * `.cts`) exports `{ [toolName]: hook }`, by name or as its default export (runtime/userModules.ts). Every
 * load reads the file afresh, so "reload" picks up edits. Errors say what is wrong with the file; nothing
 * half-loaded is returned.
 */
export async function loadHooks(file: string): Promise<HookSet> {
  const loaded = await loadUserFile(file, 'hooks')
  const { path } = loaded
  if (loaded.kind === 'json') return parseDeclarativeHooks(loaded.json, path)
  const hooks: Record<string, Hook> = {}
  for (const [name, value] of Object.entries(loaded.exports)) {
    if (name === 'default') continue
    if (typeof value !== 'function')
      throw new Error(`hooks module ${path}: export "${name}" is a ${typeof value}, not a function (toolName, args) => args`)
    hooks[name] = value as Hook
  }
  if (Object.keys(hooks).length === 0)
    throw new Error(`hooks module ${path} exports no hooks; export { [toolName]: (toolName, args) => args }`)
  return { source: path, kind: 'module', hooks }
}
