// scratch: the engine in process, a UI-like subscriber (forUi + batcher + safeStringify), a flood of N notifications
import { forUi } from '../shared/contract'
import { builtInDemos } from '../shared/demo/builtIns'
import { Engine } from '../shared/engine/engine'
import { EventBatcher } from '../shared/runtime/batcher'
import { MAX_DEPTH } from '../shared/runtime/safeJson'
import { jsonOf } from '../shared/runtime/serialized'
import { floodTarget } from './eventDelivery'
const count = Number(process.argv[2] ?? 200000)
const engine = new Engine({ host: 'web', builtIns: builtInDemos(), approver: async () => 'once', defaults: { keepaliveIntervalMs: 3_600_000 } })
let bytes = 0
const batcher = new EventBatcher((events) => { bytes += `{"events":[${events.map((e) => jsonOf(e, MAX_DEPTH + 16)).join(',')}]}`.length })
engine.events.subscribe((e) => batcher.push(forUi(e)))
let seen = 0
let finish!: () => void
const done = new Promise<void>((r) => (finish = r))
engine.events.subscribe((e) => { if (e.type === 'frame' && e.method === 'notifications/message' && ++seen === count) finish() })
const started = performance.now()
const target = { ...floodTarget(count, 0), id: 'flood', origin: 'user' as const, options: { keepaliveIntervalMs: 3_600_000 } }
const c = await engine.createConnection(target as never)
void c.open()
await done
console.log(JSON.stringify({ ms: performance.now() - started, bytes, rss: process.memoryUsage().rss / 1e6 }))
await engine.dispose()
process.exit(0)
