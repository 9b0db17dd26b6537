import { EngineCommandError, type ClientMessage, type EngineEvent, type ParallaxApi, type ServerMessage } from '../../../shared/contract'
import type { LinkState } from '../store/store'

const TOKEN_KEY = 'parallax.token'

/**
 * The web host's implementation of the contract: one WebSocket to the engine, requests matched by id,
 * events pushed in batches. A lost socket is retried with backoff; pending calls fail with a clear error.
 *
 * The launch token lives only in this tab (memory and sessionStorage), never in a cookie, and is
 * presented on the socket itself as the subprotocol `parallax.token.<token>` beside `parallax`.
 */
export function webApi(onLinkState: (state: LinkState) => void): ParallaxApi {
  const token = takeToken()
  const listeners = new Set<(events: EngineEvent[]) => void>()
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>()
  let socket: WebSocket | undefined
  let opened: Promise<WebSocket> | undefined
  let nextId = 1
  let retry = 0

  function connect(): Promise<WebSocket> {
    opened ??= new Promise((resolve, reject) => {
      onLinkState('connecting')
      const url = new URL('ws', location.href)
      url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:'
      url.search = ''
      url.hash = ''
      const ws = new WebSocket(url, token ? ['parallax', `parallax.token.${token}`] : ['parallax'])
      ws.onopen = () => {
        retry = 0
        socket = ws
        onLinkState('open')
        resolve(ws)
      }
      ws.onmessage = (message) => receive(JSON.parse(message.data as string) as ServerMessage)
      ws.onclose = () => {
        socket = undefined
        opened = undefined
        onLinkState('lost')
        for (const call of pending.values()) call.reject(new Error('lost the connection to the Parallax engine'))
        pending.clear()
        reject(new Error('cannot reach the Parallax engine'))
        // Reconnect with backoff; the listeners re-request the backlog they missed.
        setTimeout(() => void connect().catch(() => {}), Math.min(500 * 2 ** retry++, 10_000))
      }
    })
    return opened
  }

  function receive(message: ServerMessage): void {
    if ('events' in message) {
      for (const listener of listeners) listener(message.events)
      return
    }
    const call = pending.get(message.id)
    if (!call) return
    pending.delete(message.id)
    if (message.ok) call.resolve(message.result)
    else call.reject(new EngineCommandError(message.error.message, message.error.code, message.error.details))
  }

  void connect().catch(() => {})
  return {
    async invoke(command, input) {
      const ws = socket ?? (await connect())
      const id = nextId++
      const message: ClientMessage = { id, command, input }
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
        ws.send(JSON.stringify(message))
      })
    },
    onEvents(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

/** Reads the launch token from the URL once, keeps it for this tab, and takes it out of the address bar. */
function takeToken(): string | undefined {
  const url = new URL(location.href)
  const fromUrl = url.searchParams.get('token')
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl)
    url.searchParams.delete('token')
    history.replaceState(null, '', url)
    return fromUrl
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined
}
