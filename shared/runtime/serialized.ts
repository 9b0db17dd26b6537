import { safeStringify } from './safeJson'

/**
 * The JSON text an object was already serialised as, for whoever serialises it next: the session store writes
 * each event's JSON (when redaction changed nothing, it is the event's own), and a host sending the same event to
 * a UI sends that text instead of making it again — one serialisation per event on the engine's busiest path.
 */
const TEXT = Symbol('json')

/** Keeps `text` on the object itself, under a symbol JSON never writes and comparisons do not see (cheaper than a WeakMap on this path). */
export function keepText(value: object, text: string): void {
  Object.defineProperty(value, TEXT, { value: text, enumerable: false, configurable: true, writable: true })
}

/** The value's JSON: the text kept for it, else made now (bounded in depth, as safeStringify makes it). */
export function jsonOf(value: unknown, maxDepth: number): string {
  return (value !== null && typeof value === 'object' && (value as { [TEXT]?: string })[TEXT]) || safeStringify(value, maxDepth)
}
