import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, join, resolve } from 'node:path'
import { APP_ROOT } from '../../shared/bundles.mjs'
import type { Launch } from './tapEdits'

/**
 * How a host should start Parallax: the `parallax` found first on PATH (an absolute path), or else this Node
 * with Parallax's own CLI script, so a checkout or an unlinked install works too.
 */
export function parallaxLauncher(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Launch {
  // On Windows npm's `parallax.cmd` shim is no use: hosts spawn without a shell, and Node refuses to run a .cmd so.
  const name = platform === 'win32' ? 'parallax.exe' : 'parallax'
  for (const dir of (env.PATH ?? env.Path ?? '').split(delimiter)) {
    const candidate = dir && resolve(dir, name)
    if (candidate && isExecutable(candidate, platform)) return { command: candidate, args: [] }
  }
  return { command: process.execPath, args: [join(APP_ROOT, 'cli', 'parallax.mjs')] }
}

function isExecutable(path: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(path).isFile()) return false
    if (platform !== 'win32') accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}
