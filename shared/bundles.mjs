// Prebuilt bundles of Parallax's Node side (the CLI and the demo servers), which `npm run build` writes
// to dist/: they start several times faster than the same code through tsx. Plain JavaScript, so the
// `parallax` launcher can use it before any TypeScript loads.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The folder that holds Parallax's package.json, from source (shared/) and from a bundle (dist/…) alike. */
export const APP_ROOT = (() => {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir)
  return dir
})()

/**
 * The bundle at `dist/<name>` when it is newer than every source file under `sourceDirs` (relative to
 * `root`); otherwise undefined, so an edited source is never shadowed by a stale build.
 */
export function freshBundle(name, sourceDirs, root = APP_ROOT) {
  const bundle = join(root, 'dist', name)
  if (!existsSync(bundle)) return undefined
  const built = statSync(bundle).mtimeMs
  for (const dir of sourceDirs) {
    if (!existsSync(join(root, dir))) continue // a packaged app ships no sources
    for (const file of readdirSync(join(root, dir), { recursive: true })) {
      if (/\.(ts|tsx|mjs|js|json)$/.test(file) && statSync(join(root, dir, file)).mtimeMs > built) return undefined
    }
  }
  return bundle
}
