import WebSocket from 'ws'
import type { CommandInput, CommandName, CommandOutput, EngineEvent, ServerMessage } from '../shared/contract'
import type { RunningWebHost } from '../test/fixtures/webHostProcess'

/** A UI-less client of a running `parallax web`: the same WebSocket and messages the browser uses. */
export interface HostClient {
  invoke<C extends CommandName>(command: C, input: CommandInput<C>): Promise<CommandOutput<C>>
  onEvents(listener: (events: EngineEvent[]) => void): void
  close(): void
}

export async function connectToHost(host: RunningWebHost): Promise<HostClient> {
  const ws = new WebSocket(`${host.origin.replace('http', 'ws')}/ws?token=${host.token}`, { headers: { Origin: host.origin } })
  await new Promise((resolve, reject) => {
    ws.once('open', resolve)
    ws.once('error', reject)
  })
  const pending = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>()
  const listeners: ((events: EngineEvent[]) => void)[] = []
  let nextId = 1
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as ServerMessage
    if ('events' in message) return listeners.forEach((listener) => listener(message.events))
    const call = pending.get(message.id)
    pending.delete(message.id)
    if (message.ok) call?.resolve(message.result as never)
    else call?.reject(new Error(message.error.message))
  })
  return {
    invoke: (command, input) =>
      new Promise((resolve, reject) => {
        const id = nextId++
        pending.set(id, { resolve, reject })
        ws.send(JSON.stringify({ id, command, input }))
      }),
    onEvents: (listener) => void listeners.push(listener),
    close: () => ws.close(),
  }
}
