import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, join, resolve } from 'node:path'
import { APP_ROOT } from '../../shared/bundles.mjs'
import type { Launch } from './tapEdits'

/**
 * How a host should start Parallax: the `parallax` found first on PATH (an absolute path), or else this Node
 * with Parallax's own CLI script, so a checkout or an unlinked install works too.
 */
export function parallaxLauncher(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Launch {
  const names =
    platform === 'win32' ? (env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').map((ext) => `parallax${ext.toLowerCase()}`) : ['parallax']
  for (const dir of (env.PATH ?? env.Path ?? '').split(delimiter)) {
    if (!dir) continue
    for (const name of names) {
      const candidate = resolve(dir, name)
      if (isExecutable(candidate, platform)) return { command: candidate, args: [] }
    }
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
