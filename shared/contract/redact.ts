/** Keys whose values are secrets: redacted wherever Parallax prints or stores a target. */
export const SECRET_KEY = /authorization|cookie|token|secret|password|passwd|api[-_]?key|access[-_]?key|private[-_]?key|credential|session/i

export const REDACTED = '[redacted]'

/** A copy of a string map with secret-looking keys' values replaced. */
export function redactMap(map: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(map ?? {})) out[key] = SECRET_KEY.test(key) ? REDACTED : value
  return out
}
