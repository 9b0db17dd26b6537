import { readFile } from 'node:fs/promises'
import { extname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

/** The extensions of a module the user writes (hooks, a scripted responder); a `.json` file is data instead. */
export const USER_MODULE_EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts']

/** Whether the file is a module (code that runs inside Parallax, so approved first) rather than data. */
export function isUserModule(file: string): boolean {
  return USER_MODULE_EXTENSIONS.includes(extname(file))
}

/** A file the user wrote, read afresh: JSON data, or what a module exports (`moduleExports`). */
export type UserFile = { path: string } & ({ kind: 'json'; json: unknown } | { kind: 'module'; exports: Record<string, unknown> })

let generation = 0

/**
 * Reads a file the user wrote for Parallax — `what` it is for (hooks, a responder) names it in every error —
 * as JSON (`.json`) or as a module (USER_MODULE_EXTENSIONS). Each load reads the file afresh, so a reload
 * picks up edits. A module must have been approved by the caller before this loads it.
 */
export async function loadUserFile(file: string, what: string): Promise<UserFile> {
  const path = resolve(file)
  if (extname(path) === '.json') {
    let text: string
    try {
      text = await readFile(path, 'utf8')
    } catch (error) {
      throw new Error(`cannot read ${what} file ${path}: ${(error as Error).message}`, { cause: error })
    }
    try {
      return { path, kind: 'json', json: JSON.parse(text) }
    } catch (error) {
      throw new Error(`${path} is not valid JSON: ${(error as Error).message}`, { cause: error })
    }
  }
  if (!isUserModule(path)) {
    const expected = ['.json', ...USER_MODULE_EXTENSIONS]
    throw new Error(`${what} file ${path}: expected ${expected.slice(0, -1).join(', ')} or ${expected.at(-1)}`)
  }
  let namespace: Record<string, unknown>
  try {
    // A query string makes each load a fresh module instance, so edits are picked up on reload.
    namespace = await importUserModule(`${pathToFileURL(path).href}?reload=${++generation}`)
  } catch (error) {
    throw new Error(`cannot load ${what} module ${path}: ${(error as Error).message}`, { cause: error })
  }
  return { path, kind: 'module', exports: moduleExports(namespace) }
}

/** Names that only mark a module loaded as CommonJS (Node 23 and later also give its `module.exports` by that name). */
const COMMONJS_MARKERS = new Set(['__esModule', 'module.exports'])

/**
 * What a module exports, whichever way it was written: its named exports (`export const x`, `exports.x =`),
 * or — when it exports no function by name — the object it exports as its default (`export default {…}`,
 * `module.exports = {…}`), unwrapped again where it loaded as CommonJS. A default that is a function stays
 * `default`; the CommonJS markers are left out.
 */
export function moduleExports(namespace: Record<string, unknown>): Record<string, unknown> {
  let exported = namespace
  while (exported.default && typeof exported.default === 'object' && !Object.values(exported).some((v) => typeof v === 'function'))
    exported = exported.default as Record<string, unknown>
  return Object.fromEntries(Object.entries(exported).filter(([name]) => !COMMONJS_MARKERS.has(name)))
}

/**
 * Imports a module the user wrote (hooks, a scripted responder) from its file URL. TypeScript loads
 * through tsx where it is installed (a checkout has it), else through Node's own type stripping (Node
 * 22.18 and later, for files outside node_modules): an installed Parallax carries no compiler.
 */
export async function importUserModule(url: string): Promise<Record<string, unknown>> {
  if (!/\.[cm]?ts$/.test(new URL(url).pathname)) return (await import(url)) as Record<string, unknown>
  const tsx = await import('tsx/esm/api').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ERR_MODULE_NOT_FOUND') return undefined
    throw error
  })
  if (tsx) return (await tsx.tsImport(url, import.meta.url)) as Record<string, unknown>
  try {
    return (await import(url)) as Record<string, unknown>
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ERR_UNKNOWN_FILE_EXTENSION' && code !== 'ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING') throw error
    throw new Error(
      `TypeScript needs Node 22.18 or later (for a file outside node_modules) or tsx installed beside Parallax (npm install -g tsx); a .js or .mjs file needs neither`,
      { cause: error },
    )
  }
}
