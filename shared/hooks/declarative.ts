import { z } from 'zod'
import type { Args, Hook, HookSet } from './hooks'

/**
 * The declarative hook form, for the common cases, per tool (or `*` for all):
 * `{"create_media_buy": {"defaults": {"buying_mode": "auction"}, "set": {…}, "remove": ["x"], "rename": {"old": "new"}}}`.
 * Order: rename, remove, defaults (only where absent), set (always). Keys may be dotted paths: `context.buyer`.
 */
const Rule = z
  .object({
    defaults: z.record(z.string(), z.unknown()).optional(),
    set: z.record(z.string(), z.unknown()).optional(),
    remove: z.array(z.string()).optional(),
    rename: z.record(z.string(), z.string()).optional(),
  })
  .strict()
const Rules = z.record(z.string(), Rule)
export type DeclarativeRules = z.infer<typeof Rules>

export function parseDeclarativeHooks(json: unknown, source: string): HookSet {
  const parsed = Rules.safeParse(json)
  if (!parsed.success) {
    throw new Error(`${source}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ')}`)
  }
  const hooks: Record<string, Hook> = {}
  for (const [tool, rule] of Object.entries(parsed.data)) hooks[tool] = (_name, args) => applyRule(rule, args)
  return { source, kind: 'declarative', hooks }
}

function applyRule(rule: z.infer<typeof Rule>, args: Args): Args {
  for (const [from, to] of Object.entries(rule.rename ?? {})) {
    const value = getPath(args, from)
    if (value.found) {
      deletePath(args, from)
      setPath(args, to, value.value)
    }
  }
  for (const path of rule.remove ?? []) deletePath(args, path)
  for (const [path, value] of Object.entries(rule.defaults ?? {}))
    if (!getPath(args, path).found) setPath(args, path, structuredClone(value))
  for (const [path, value] of Object.entries(rule.set ?? {})) setPath(args, path, structuredClone(value))
  return args
}

function getPath(obj: Args, path: string): { found: boolean; value?: unknown } {
  let current: unknown = obj
  for (const key of path.split('.')) {
    if (!current || typeof current !== 'object' || !Object.hasOwn(current, key)) return { found: false }
    current = (current as Args)[key]
  }
  return { found: true, value: current }
}

function setPath(obj: Args, path: string, value: unknown): void {
  const keys = path.split('.')
  let current = obj
  for (const key of keys.slice(0, -1)) {
    if (!current[key] || typeof current[key] !== 'object') current[key] = {}
    current = current[key] as Args
  }
  current[keys.at(-1)!] = value
}

function deletePath(obj: Args, path: string): void {
  const keys = path.split('.')
  let current: unknown = obj
  for (const key of keys.slice(0, -1)) {
    if (!current || typeof current !== 'object') return
    current = (current as Args)[key]
  }
  if (current && typeof current === 'object') delete (current as Args)[keys.at(-1)!]
}
