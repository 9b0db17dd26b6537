// `npm run desktop:check [config]`: checks the desktop packaging (electron-builder.yml by default) with
// electron-builder's own validation — the package metadata, then the configuration against its schema,
// exactly what it runs before it builds anything — and, offline, what the schema cannot see: the icon.
// Exit 0 when electron-builder would start packaging, 1 with its message otherwise.
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Packager } from 'electron-builder'

const root = fileURLToPath(new URL('..', import.meta.url))
const configFile = resolve(process.argv[2] ?? join(root, 'electron-builder.yml'))
/** macOS asks for at least 512×512; electron-builder derives the .icns and .ico from this one PNG. */
const MIN_ICON_SIZE = 512

try {
  const packager = new Packager({ projectDir: root, config: configFile })
  await packager.validateConfig()
  const config = packager.config
  const icon = join(root, config.directories?.buildResources ?? 'build', 'icon.png')
  const { width, height } = pngSize(icon)
  if (width < MIN_ICON_SIZE || height < MIN_ICON_SIZE)
    throw new Error(`${icon} is ${width}×${height}; it must be at least ${MIN_ICON_SIZE}×${MIN_ICON_SIZE}`)
  process.stdout.write(`desktop packaging: ${configFile} passes electron-builder's validation; icon ${width}×${height}\n`)
  // The deb step checks these only when it runs; say now what it will ask for.
  const metadata = packager.metadata
  const missing = [
    ...(metadata.homepage ? [] : ['"homepage"']),
    ...(config.linux?.maintainer || metadata.author?.email ? [] : ['"author" with an email (or linux.maintainer)']),
  ]
  if (missing.length > 0) process.stdout.write(`the deb also needs ${missing.join(' and ')} in package.json before it can be built\n`)
} catch (error) {
  process.stderr.write(`desktop packaging is not valid: ${error.message}\n`)
  process.exitCode = 1
}

/** Width and height from a PNG's header (the IHDR chunk right after the signature). */
function pngSize(file) {
  const header = readFileSync(file).subarray(0, 24)
  if (header.toString('latin1', 1, 4) !== 'PNG') throw new Error(`${file} is not a PNG`)
  return { width: header.readUInt32BE(16), height: header.readUInt32BE(20) }
}
