// An MCP server over stdio that floods its client with log notifications once initialized:
//   node --import tsx bench/floodServer.ts COUNT [RATE]
// sends COUNT `notifications/message`, RATE per second (paced every 10 ms) or as fast as the pipe
// takes them when RATE is 0 or absent. Each carries its send time (`sentAt`, ms since the epoch with
// sub-millisecond precision) so a client can measure how late it saw it. Otherwise it answers
// initialize, ping and tools/list like any server.
import { serveByHand, write } from './serverByHand'

const count = Number(process.argv[2] ?? 1000)
const rate = Number(process.argv[3] ?? 0)
const now = () => performance.timeOrigin + performance.now()
const notification = (i: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { level: 'info', logger: 'flood', data: { i, sentAt: now(), text: `log line ${i}` } },
})

function flood(): void {
  if (!rate) {
    let sent = 0
    // Respects back-pressure, so a slow reader slows the flood instead of filling this process's memory.
    const burst = () => {
      while (sent < count) {
        if (!process.stdout.write(`${JSON.stringify(notification(sent++))}\n`)) {
          process.stdout.once('drain', burst)
          return
        }
      }
    }
    return burst()
  }
  const started = now()
  let sent = 0
  const timer = setInterval(() => {
    const due = Math.min(count, Math.floor(((now() - started) / 1000) * rate))
    while (sent < due) write(notification(sent++))
    if (sent >= count) clearInterval(timer)
  }, 10)
}

await serveByHand('parallax-bench-flood', { logging: {}, tools: {} }, [], (request) => {
  if (request.method !== 'notifications/initialized') return false
  flood()
  return true
})
