/**
 * The tap's reader, on a thread of its own (`tapReader.ts` starts it): it takes the chunks the relay passed on
 * from shared memory, reads them (chunkReader.ts), runs the observed session's analysis and keeps it
 * (tapLog.ts), so none of that work ever delays a byte on its way between the host and the server.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { EventInput, Protocol } from '../contract'
import { ByteRing } from './byteRing'
import { ChunkReader } from './chunkReader'
import { ObservedSession } from './observedSession'
import { openTapLog, type TapLogOptions } from './tapLog'
import type { ToReader, FromReader, TapReaderOptions } from './tapReader'

const WAYS = ['out', 'in', 'err'] as const
/** How often the reader looks for what was relayed (the relay wakes it sooner only when much waits). */
const READ_EVERY_MS = 20
const options = workerData as TapReaderOptions
const ring = new ByteRing(options.memory)
const tell = (message: FromReader) => parentPort!.postMessage(message)

const logOptions: TapLogOptions = {
  connectionId: options.connectionId,
  secretKeys: options.secretKeys,
  ...(options.record && {
    record: {
      path: options.record.path,
      name: options.name,
      spec: (protocol: Protocol) => ({
        kind: protocol === 'acp' ? ('acp' as const) : ('mcp-stdio' as const),
        command: options.record!.command,
        args: options.record!.args,
        env: {},
        mcpServers: [],
      }),
    },
  }),
  onFailure: (why) => tell({ type: 'failure', why }),
}
const log = openTapLog({ ...logOptions, sessionsDir: options.sessionsDir })
const session = new ObservedSession({
  connectionId: options.connectionId,
  name: options.name,
  transport: 'stdio',
  ...(options.protocol && { protocol: options.protocol }),
  observed: options.observed,
  emit: (event) => log.emit(event),
  spill: log.spill,
})
const reader = new ChunkReader(session.watcher(), (error) =>
  tell({ type: 'failure', why: `reading the session failed (${(error as Error).message})` }),
)
// Said at once, so the session is on disk (and in a running app) before the host says anything.
log.emit({
  type: 'log',
  connectionId: options.connectionId,
  source: 'engine',
  level: 'info',
  text: `parallax tap: relaying ${options.observed.command}`,
})
tell({ type: 'session', dir: log.sessionDir() })

let dropped = 0
function drain(): void {
  for (let chunk = ring.take(); chunk; chunk = ring.take()) reader.read(WAYS[chunk.way], chunk.bytes, chunk.ts)
  if (ring.dropped > dropped) {
    session.note(`the tap's reader fell behind: ${ring.dropped - dropped} chunk(s) were relayed but not read`, Date.now(), 'warn')
    dropped = ring.dropped
  }
}

let ending = false
parentPort!.on('message', (message: ToReader) => {
  drain()
  if (message.type === 'event') session.event(message.event as EventInput)
  else {
    ending = true
    session.end(message.at, message.how)
    log.close()
    tell({ type: 'closed' })
  }
})

async function pump(): Promise<void> {
  while (!ending) {
    const seen = ring.written
    drain()
    await ring.wait(seen, READ_EVERY_MS)
  }
}
void pump()
