import { readFile } from 'node:fs/promises'
import { extname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseDeclarativeHooks } from './declarative'
import type { Hook, HookSet } from './hooks'
import { importUserModule } from '../runtime/userModules'

let generation = 0

/**
 * Loads a hooks file: `.json` is the declarative form; `.js`, `.mjs`, `.ts`, `.mts` is a module exporting
 * `{ [toolName]: hook }` (as its default export or as named exports). Every load reads the file afresh,
 * so "reload" picks up edits. Errors say what is wrong with the file; nothing half-loaded is returned.
 */
export async function loadHooks(file: string): Promise<HookSet> {
  const path = resolve(file)
  const ext = extname(path)
  if (ext === '.json') {
    let text: string
    try {
      text = await readFile(path, 'utf8')
    } catch (error) {
      throw new Error(`cannot read hooks file ${path}: ${(error as Error).message}`, { cause: error })
    }
    try {
      return parseDeclarativeHooks(JSON.parse(text), path)
    } catch (error) {
      throw new Error(error instanceof SyntaxError ? `${path} is not valid JSON: ${error.message}` : (error as Error).message, {
        cause: error,
      })
    }
  }
  if (!['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'].includes(ext))
    throw new Error(`hooks file ${path}: expected .json, .js, .mjs, .ts or .mts`)
  let module: Record<string, unknown>
  try {
    // A query string makes each load a fresh module instance, so edits are picked up on reload.
    const url = `${pathToFileURL(path).href}?reload=${++generation}`
    module = await importUserModule(url)
  } catch (error) {
    throw new Error(`cannot load hooks module ${path}: ${(error as Error).message}`, { cause: error })
  }
  // Named exports, or a default-exported object (possibly wrapped again when the file loads as CommonJS).
  let exported = module
  while (exported.default && typeof exported.default === 'object' && !Object.values(exported).some((v) => typeof v === 'function')) {
    exported = exported.default as Record<string, unknown>
  }
  const hooks: Record<string, Hook> = {}
  for (const [name, value] of Object.entries(exported)) {
    if (name === 'default' || name === '__esModule') continue
    if (typeof value !== 'function')
      throw new Error(`hooks module ${path}: export "${name}" is a ${typeof value}, not a function (toolName, args) => args`)
    hooks[name] = value as Hook
  }
  if (Object.keys(hooks).length === 0)
    throw new Error(`hooks module ${path} exports no hooks; export { [toolName]: (toolName, args) => args }`)
  return { source: path, kind: 'module', hooks }
}
