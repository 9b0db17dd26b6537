import microdiff from 'microdiff'

/** Keys whose values differ on every run by design: ids minted per run, timestamps. */
export const VOLATILE_KEYS = new Set(['id', 'messageId', 'taskId', 'contextId', 'artifactId', 'timestamp', 'reportedAt'])

export interface Difference {
  path: string
  op: 'add' | 'remove' | 'replace'
  a?: unknown
  b?: unknown
}

/**
 * A structural diff of two outcomes, ignoring volatile keys at any depth and every path under the
 * user's JSON Pointers.
 */
export function compareOutcomes(a: unknown, b: unknown, ignore: string[] = []): Difference[] {
  return microdiff({ v: a } as Record<string, unknown>, { v: b } as Record<string, unknown>)
    .map((d) => {
      const keys = d.path.slice(1).map(String)
      const path = `/${keys.map((k) => k.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`
      return { keys, path, d }
    })
    .filter(({ keys, path }) => !keys.some((k) => VOLATILE_KEYS.has(k)) && !ignore.some((p) => path === p || path.startsWith(`${p}/`)))
    .map(({ path, d }) =>
      d.type === 'CREATE'
        ? { path, op: 'add' as const, b: d.value }
        : d.type === 'REMOVE'
          ? { path, op: 'remove' as const, a: d.oldValue }
          : { path, op: 'replace' as const, a: d.oldValue, b: d.value },
    )
}
