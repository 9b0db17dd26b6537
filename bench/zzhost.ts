import { openApprovedTarget } from '../web/client'
import { startWebHostProcess } from '../web/launch'
import { floodTarget } from './eventDelivery'
import { connectToHost } from './hostClient'
const count = Number(process.argv[2] ?? 200000)
const host = await startWebHostProcess({ env: { NODE_OPTIONS: '--require /tmp/profile.cjs' } })
const ui = await connectToHost(host)
let seen = 0
let finish!: () => void
const done = new Promise<void>((r) => (finish = r))
ui.onEvents((events) => { for (const e of events) if (e.type === 'frame' && e.method === 'notifications/message' && ++seen === count) finish() })
const started = performance.now()
await openApprovedTarget(ui, floodTarget(count, 0))
await done
console.log('ms', performance.now() - started)
void ui.close()
await host.stop()
process.exit(0)
