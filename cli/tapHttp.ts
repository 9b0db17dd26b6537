import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { isLoopbackHost, secretNameMatcher, type Protocol, type TargetSpec } from '../shared/contract'
import { now } from '../shared/runtime/clock'
import { ensurePrivateDir } from '../shared/runtime/privateFiles'
import { HttpHolds } from '../shared/tap/httpHolds'
import { HttpProxy } from '../shared/tap/httpProxy'
import { HttpReader } from '../shared/tap/httpReader'
import { ObservedSession } from '../shared/tap/observedSession'
import { openTapLog } from '../shared/tap/tapLog'
import { printJson } from './failure'
import { breakpointsOf, holdInFlight, HOLD_OPTIONS } from './tapHolds'
import { tapVoice } from './tapVoice'
import { UsageError } from './usage'
import { dataDir } from './web'

export const TAP_FORMAT = 'parallax.tap/1'

/** The signals that stop the tap: it stops listening, ends the session and exits 0. */
const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']

/**
 * `parallax tap --listen 127.0.0.1:PORT --to URL [--name NAME] [--record FILE] [--secret-key K…] [--json]`:
 * a reverse proxy on this machine for a host's HTTP session with an MCP server (streamable HTTP, legacy
 * SSE) or an A2A agent (JSON-RPC, HTTP+JSON): the host uses the proxy's URL in place of the server's, and
 * the session is kept in the data folder (the app shows it live, or later) and, with `--record`, in a
 * recording. Runs until stopped (Ctrl+C, SIGTERM).
 */
export async function tapHttp(argv: string[]): Promise<number> {
  if (argv.includes('--')) throw new UsageError('with --listen the tap relays HTTP: there is no command (drop what follows --)')
  const { values } = parseArgs({
    args: argv,
    options: {
      listen: { type: 'string' },
      to: { type: 'string' },
      name: { type: 'string' },
      record: { type: 'string' },
      json: { type: 'boolean', default: false },
      'secret-key': { type: 'string', multiple: true, default: [] },
      ...HOLD_OPTIONS,
    },
  })
  breakpointsOf(values) // flags checked before anything starts
  const { host, port } = listenAddress(values.listen ?? '')
  const to = upstreamUrl(values.to)
  const upstream = to.origin
  const name = values.name ?? to.host
  const secretKeys = values['secret-key']

  await ensurePrivateDir(dataDir()).catch(() => {})
  const connectionId = `tap-${process.pid}`
  const { say, unguard } = tapVoice()
  const log = openTapLog({
    sessionsDir: join(dataDir(), 'sessions'),
    connectionId,
    secretKeys,
    ...(values.record && { record: { path: resolve(values.record), name, spec: (p: Protocol) => specOf(p, to) } }),
    onFailure: (why) => say(`${why} (relaying goes on)`),
  })
  const proxy = new HttpProxy({ upstream })
  let origin: string
  try {
    origin = await proxy.listen(host, port)
  } catch (error) {
    log.close()
    unguard()
    throw new UsageError(`cannot listen on ${host}:${port}: ${(error as Error).message}`)
  }
  const session = new ObservedSession({
    connectionId,
    name,
    transport: 'streamable-http',
    observed: { via: 'http', listen: origin, upstream: to.href, pid: process.pid },
    emit: (event) => log.emit(event),
    spill: log.spill,
  })
  const reader = new HttpReader(session, secretNameMatcher(secretKeys), log.spill)
  proxy.watcher = reader
  const holds = new HttpHolds((event) => session.event(event))
  proxy.gate = holds
  proxy.onWatcherFailure = (error) => say(`reading the session failed (${(error as Error).message}); relaying goes on`)
  const hostUrl = `${origin}${to.pathname}${to.search}`
  log.emit({ type: 'log', connectionId, source: 'engine', level: 'info', text: `parallax tap: relaying ${origin} to ${upstream}` })
  say(`listening on ${origin}: point the host at ${hostUrl} (relayed to ${to.href})`)
  if (values.json) printJson({ format: TAP_FORMAT, listening: origin, url: hostUrl, to: values.to })
  const control = holdInFlight(holds.holds, values, () => log.sessionDir())

  const handlers: [NodeJS.Signals, () => void][] = []
  const signal = await new Promise<NodeJS.Signals>((done) => {
    for (const s of STOP_SIGNALS) handlers.push([s, () => done(s)])
    for (const [s, handler] of handlers) process.on(s, handler)
  })
  for (const [s, handler] of handlers) process.off(s, handler)
  control.stop()
  holds.holds.dispose()
  await proxy.close()
  session.end(now(), { reason: `the tap was stopped (${signal})` })
  log.close()
  unguard()
  return 0
}

/** `HOST:PORT` on this machine only (as the web host): 127.0.0.1, localhost or [::1]; PORT 0 picks a free one. */
function listenAddress(text: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(text)
  if (!match) throw new UsageError(`--listen takes HOST:PORT on this machine, e.g. 127.0.0.1:8080 (got ${JSON.stringify(text)})`)
  const host = match[1].replace(/^\[(.*)\]$/, '$1')
  const port = Number(match[2])
  if (!isLoopbackHost(host))
    throw new UsageError(`--listen ${text}: the tap listens on this machine only (127.0.0.1, localhost or [::1]), never on ${host}`)
  if (port > 65535) throw new UsageError(`--listen ${text}: no such port`)
  return { host, port }
}

function upstreamUrl(text: string | undefined): URL {
  if (!text) throw new UsageError('give the server or agent to relay to: --to URL (the endpoint the host would use)')
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol))
    throw new UsageError(`--to ${text}: an http(s) URL is needed (the endpoint the host would use)`)
  return new URL(text)
}

/** What a recording says was tapped: the MCP endpoint, or the A2A agent (where its card is). */
function specOf(protocol: Protocol, to: URL): TargetSpec | undefined {
  if (protocol === 'a2a') return { kind: 'a2a', url: to.pathname.endsWith('.json') ? to.href : to.origin, headers: {}, binding: 'auto' }
  if (protocol === 'mcp') return { kind: 'mcp-http', url: to.href, headers: {}, transport: 'auto' }
  return undefined
}
