// Prebuilt bundles of Parallax's Node side (the CLI and the demo servers), which `npm run build` writes
// to dist/: they start several times faster than the same code through tsx, and they are all an
// installed package ships. Plain JavaScript, so the `parallax` launcher can use it before any TypeScript loads.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The folder that holds Parallax's package.json, from source (shared/) and from a bundle (dist/…) alike. */
export const APP_ROOT = (() => {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir)
  return dir
})()

/** Whether `root` is a checkout (sources and the build's config beside dist/), not an installed package. */
export function isCheckout(root = APP_ROOT) {
  return existsSync(join(root, 'vite.config.ts'))
}

/**
 * The bundle at `dist/<name>`: in a checkout only when it is newer than every source file under
 * `sourceDirs` (relative to `root`), so an edited source is never shadowed by a stale build; in an
 * installed package always, as it is all there is. Otherwise undefined.
 */
export function freshBundle(name, sourceDirs, root = APP_ROOT) {
  const bundle = join(root, 'dist', name)
  if (!existsSync(bundle)) return undefined
  if (!isCheckout(root)) return bundle
  const built = statSync(bundle).mtimeMs
  return sourceDirs.every((dir) => newestSource(join(root, dir)) <= built) ? bundle : undefined
}

/** Newest modification time of the source files under `dir`, walked once per process (a CLI run asks up to three times). */
const newest = new Map()
function newestSource(dir) {
  let time = newest.get(dir)
  if (time !== undefined) return time
  time = 0
  if (existsSync(dir)) {
    for (const file of readdirSync(dir, { recursive: true })) {
      if (/\.(ts|tsx|mjs|js|json)$/.test(file)) time = Math.max(time, statSync(join(dir, file)).mtimeMs)
    }
  }
  newest.set(dir, time)
  return time
}
