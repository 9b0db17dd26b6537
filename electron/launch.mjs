// `npm start` / `parallax`: build the app (in a checkout; an installed package ships it built), then open
// the Electron window when the binary is there (or can be fetched once), otherwise start the web host and
// say why in one line. Plain JavaScript so it runs before anything is built.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isCheckout } from '../shared/bundles.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(import.meta.url)
const say = (line) => process.stderr.write(`[parallax] ${line}\n`)
/** A failed download is not retried on every start: once a day at most. */
const RETRY_DOWNLOAD_AFTER_MS = 24 * 60 * 60 * 1000
/** Where that is noted: beside a checkout's packages, or in the user's cache (an install folder may not be theirs). */
const stamp = join(
  isCheckout(root) ? join(root, 'node_modules', '.cache') : (process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache')),
  'parallax',
  'electron-download-failed',
)

function build() {
  if (process.env.PARALLAX_SKIP_BUILD === '1' || !isCheckout(root)) return
  say('building the app …')
  const vite = join(dirname(require.resolve('vite/package.json')), 'bin', 'vite.js')
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) {
    say('the build failed; see the messages above')
    process.exit(result.status ?? 1)
  }
}

/** Returns { bin } when Electron can run here, or { why } explaining why not. */
function electronBinary() {
  if (process.env.PARALLAX_HOST === 'web') return { why: 'PARALLAX_HOST=web' }
  let dir
  try {
    dir = dirname(require.resolve('electron/package.json'))
  } catch {
    // Installed from npm, Parallax finds an Electron installed beside it (the same global or npx folder).
    return {
      why: isCheckout(root)
        ? 'the electron package is not installed'
        : 'Electron is not installed beside Parallax; npm install -g electron adds it',
    }
  }
  const pathTxt = join(dir, 'path.txt')
  if (!existsSync(pathTxt)) {
    if (process.env.CI) return { why: 'the Electron binary is not installed, and CI never downloads it' }
    if (existsSync(stamp) && Date.now() - statSync(stamp).mtimeMs < RETRY_DOWNLOAD_AFTER_MS) {
      return { why: `the Electron binary could not be downloaded earlier today (delete ${stamp} to retry)` }
    }
    say('fetching the Electron binary once (about 100 MB; honours ELECTRON_MIRROR) …')
    const result = spawnSync(process.execPath, [join(dir, 'install.js')], {
      stdio: ['ignore', 'inherit', 'pipe'],
      timeout: 180_000,
      encoding: 'utf8',
    })
    if (result.status !== 0 || !existsSync(pathTxt)) {
      rememberFailedDownload()
      const detail = (result.stderr ?? '').split('\n').find((line) => line.trim()) ?? (result.error?.message || `exit ${result.status}`)
      return { why: `the Electron binary could not be downloaded: ${detail.trim()}` }
    }
  }
  const bin = join(dir, 'dist', readFileSync(pathTxt, 'utf8').trim())
  return existsSync(bin) ? { bin } : { why: `the Electron binary is missing at ${bin}` }
}

/** Notes the failure where it can; an install folder the user may not write to just means trying again next time. */
function rememberFailedDownload() {
  try {
    mkdirSync(dirname(stamp), { recursive: true })
    writeFileSync(stamp, new Date().toISOString())
  } catch {
    // not writable: the next start tries again
  }
}

function run(command, args, env = process.env) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env })
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
  return child
}

function startWeb(why) {
  say(`desktop host unavailable (${why}); starting the web host — open the URL below in your browser`)
  const child = run(process.execPath, [join(root, 'cli', 'parallax.mjs'), 'web', ...process.argv.slice(2)])
  child.on('exit', (code) => process.exit(code ?? 0))
}

build()
const electron = electronBinary()
if (!electron.bin) {
  startWeb(electron.why)
} else {
  const started = Date.now()
  // Chromium's OS sandbox cannot start as root on Linux; context isolation and the narrow preload API still hold.
  const args = [root, ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), ...process.argv.slice(2)]
  const child = run(electron.bin, args)
  child.on('exit', (code) => {
    if (code !== 0 && Date.now() - started < 3000) startWeb(`Electron exited with code ${code} right after starting; is there a display?`)
    else process.exit(code ?? 0)
  })
}
