import { actOn, sendRequest } from '../../../store/actions'
import type { ConnectionView } from '../../../store/connectionView'

/** Reads a resource a result links to: the call surface shows that resource, and the read goes out. */
export function readLinked(view: ConnectionView, uri: string): void {
  actOn(view.targetId, 'resource', uri)
  void sendRequest(view.id, 'resources/read', { uri })
}

/** A JSON object from what the user typed, or an error that says why it is not one. */
export function parseObject(text: string, what: string): Record<string, unknown> {
  const value = JSON.parse(text) as unknown
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${what} are a JSON object`)
  return value as Record<string, unknown>
}
