import { REDACTED, SECRET_KEY } from '../contract'

/**
 * A copy of a value with the value of every secret-looking key replaced, at any depth. Objects without
 * secrets are returned as they are (no copy), so the common case costs one walk.
 */
export function redactDeep<T>(value: T, pattern: RegExp = SECRET_KEY): T {
  if (!value || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    value.forEach((item, i) => {
      const redacted = redactDeep(item, pattern)
      if (redacted !== item) (copy ??= [...value])[i] = redacted
    })
    return (copy ?? value) as T
  }
  let copy: Record<string, unknown> | undefined
  for (const [key, child] of Object.entries(value)) {
    const redacted = pattern.test(key) && child !== null && typeof child !== 'object' ? REDACTED : redactDeep(child, pattern)
    if (redacted !== child) (copy ??= { ...(value as Record<string, unknown>) })[key] = redacted
  }
  return (copy ?? value) as T
}

/** The secret pattern plus the user's own key names. */
export function secretPattern(extraKeys: string[] = []): RegExp {
  if (extraKeys.length === 0) return SECRET_KEY
  const escaped = extraKeys.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`${SECRET_KEY.source}|^(${escaped.join('|')})$`, 'i')
}
