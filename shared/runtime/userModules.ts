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
