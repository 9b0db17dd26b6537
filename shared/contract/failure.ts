import type { FailureCause } from './events'

/** A failure's cause (FailureCause, in ./events) as lines a person reads (each a label and what it says); the headline is the event's reason. */
export function causeLines(cause: FailureCause, indent = '  '): string[] {
  const lines: string[] = []
  const add = (label: string, text: string | undefined) => {
    if (text) lines.push(`${indent}${label.padEnd(10)}${text}`)
  }
  if (cause.fallback?.first) {
    lines.push(`${indent}first attempt:`)
    lines.push(...causeLines(cause.fallback.first, `${indent}  `))
    add('fallback', `tried legacy SSE: ${cause.fallback.why}`)
  }
  add('transport', cause.transport)
  add('command', cause.command)
  if (cause.exit) add('exited', cause.exit.signal ? `on signal ${cause.exit.signal}` : `with code ${cause.exit.code ?? 'unknown'}`)
  if (cause.request) add('request', `${cause.request.method} ${cause.request.url}`)
  if (cause.status !== undefined) add('answer', `HTTP ${cause.status}${cause.statusText ? ` ${cause.statusText}` : ''}`)
  add('challenge', cause.challenge && `WWW-Authenticate: ${cause.challenge}`)
  add('message', cause.message)
  add('sign-in', cause.auth?.why)
  // Where the network failed, with its code (or, where fetch gave none, its words: a "bad port").
  if (cause.address) add('network', `${cause.code ?? cause.error ?? 'failed'} at ${cause.address}`)
  else add('code', cause.code)
  // The library's own wording, when there is no answer or address to say it better.
  if (cause.status === undefined && !cause.address) add('error', cause.error)
  for (const line of cause.stderr ?? []) add('stderr', line)
  add('fault', cause.fault?.kind)
  for (const line of cause.fault?.stack ?? []) add('', line)
  if (cause.fallback && !cause.fallback.tried) add('fallback', `not tried: ${cause.fallback.why}`)
  return lines
}
