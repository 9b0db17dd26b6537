import { builtInDemos } from './shared/demo/builtIns'
import { Engine } from './shared/engine/engine'
import { SpanIndexWriter } from './shared/runtime/store/spanIndex'
const noSpans = process.argv[2] === 'off'
if (noSpans) SpanIndexWriter.prototype.add = () => {}
const engine = new Engine({ host: 'web', builtIns: builtInDemos(), approver: async () => 'once' })
const store = engine.events.store
let ts = 1e12
const t = performance.now()
for (let seq = 1; seq <= 500000; seq++) {
  store.append({ type: 'frame', connectionId: 'c', seq, ts: (ts += 0.3), direction: 'in', protocol: 'mcp', transport: 'stdio', kind: 'notification', method: 'notifications/message', bytes: 10, payload: { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: { i: seq } } } } as never)
}
store.flush()
console.log(noSpans ? 'off' : 'on', (performance.now() - t).toFixed(0), 'ms', (process.memoryUsage().rss / 1e6).toFixed(0), 'MB')
await engine.dispose()
