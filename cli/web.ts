import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { APP_ROOT } from '../shared/bundles.mjs'
import { Engine } from '../shared/engine/engine'
import { builtInDemos } from '../shared/demo/builtIns'
import { guardProcess } from '../shared/runtime/faultScope'
import { ensurePrivateDir } from '../shared/runtime/privateFiles'
import { UsageError } from './usage'
import { startWebHost, type WebHost } from '../web/webHost'

/** Where the app keeps its saved targets, profiles and recordings. */
export function dataDir(): string {
  if (process.env.PARALLAX_DATA_DIR) return process.env.PARALLAX_DATA_DIR
  return join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'parallax')
}

/** `parallax web [--port N]`: serves the UI and the engine on 127.0.0.1 until interrupted. */
export async function web(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { port: { type: 'string', default: process.env.PARALLAX_PORT ?? '0' } } })
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be a port number (0 picks a free one)')
  const staticDir = join(APP_ROOT, 'dist', 'renderer')
  if (!existsSync(join(staticDir, 'index.html')))
    throw new UsageError('the UI is not built yet: run `npm run build` first (npm start does it for you)')

  // The data folder (targets, profiles, recordings) is the user's alone: made 0700, or tightened to it.
  await ensurePrivateDir(dataDir()).catch((error: Error) => {
    throw new UsageError(`cannot use the data folder ${dataDir()}: ${error.message}`)
  })
  // MCP App views are served by the web host, on a port of its own, once it is listening.
  const views: { url?: WebHost['viewUrl'] } = {}
  const engine = new Engine({ host: 'web', dataDir: dataDir(), builtIns: builtInDemos(), appViewUrl: (id) => views.url?.(id) })
  const host = await startWebHost({
    engine,
    staticDir,
    port,
    log: (line) => process.stderr.write(`[parallax web] ${line}\n`),
  }).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(error.code === 'EADDRINUSE' ? `port ${port} is already in use; pick another with --port` : error.message)
  })
  views.url = host.viewUrl
  // A fault no code handled fails the connection it came from, never the host (shared/runtime/faultScope.ts).
  const unguard = guardProcess((fault) => process.stderr.write(`[parallax web] ${engine.reportFault(fault).line}\n`))
  process.stderr.write(`Parallax web host listening on 127.0.0.1:${host.port} (data in ${dataDir()})\n`)
  // The URL (with its token) is the one line on stdout, so scripts and the launcher can read it.
  process.stdout.write(`${host.url}\n`)

  await new Promise<void>((resolve) => {
    const stop = () => resolve()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  process.stderr.write('Parallax web host stopping…\n')
  await host.close()
  await engine.dispose()
  unguard()
  return 0
}
