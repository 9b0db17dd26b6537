import { readFile } from 'node:fs/promises'
import { isAbsolute, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  ELICIT_ACTIONS,
  parseProfile,
  PRESET_PROFILES,
  Root,
  type ClientProfile,
  type Responder,
  type SavedTarget,
} from '../shared/contract'
import type { CliHost } from './connect'
import { UsageError } from './usage'

/**
 * The flags that let a script play the whole MCP client (`call`, `converse`, `request`): the client
 * profile to connect under, the roots to offer, and the answers to what the server asks — a scripted
 * responder for sampling (`--sampling FILE`) and a fixed elicitation answer (`--elicit`, `--elicit-content`);
 * for an ACP agent, the answer to its permission requests (`--permission`) and commands (`--terminal`), and
 * the workspace folder its files and terminals are confined to (`--workspace`).
 */
export const CLIENT_OPTIONS = {
  profile: { type: 'string' },
  roots: { type: 'string', multiple: true },
  sampling: { type: 'string' },
  elicit: { type: 'string' },
  'elicit-content': { type: 'string' },
  permission: { type: 'string' },
  terminal: { type: 'string' },
  workspace: { type: 'string' },
} as const

export interface ClientFlagValues {
  profile?: string
  roots?: string[]
  sampling?: string
  elicit?: string
  'elicit-content'?: string
  permission?: string
  terminal?: string
  workspace?: string
}

/** What the flags ask for: a profile (a preset's name, or one read from a file), roots, a responder, an ACP policy and workspace. */
export interface ClientFlags {
  profile?: string | ClientProfile
  roots?: Root[]
  responder?: Responder
  acp?: { permission?: 'allow' | 'reject'; terminal?: 'allow' | 'reject'; workspace?: string }
}

export async function clientFlags(values: ClientFlagValues): Promise<ClientFlags> {
  const flags: ClientFlags = {}
  if (values.profile !== undefined) flags.profile = await profileFlag(values.profile)
  if (values.roots?.length)
    flags.roots = values.roots
      .flatMap((text) => text.split(','))
      .filter(Boolean)
      .map(rootFlag)
  let elicitContent: Record<string, unknown> | undefined
  if (values['elicit-content'] !== undefined) {
    try {
      elicitContent = JSON.parse(values['elicit-content']) as Record<string, unknown>
    } catch (error) {
      throw new UsageError(`--elicit-content is not valid JSON: ${(error as Error).message}`)
    }
    if (!elicitContent || typeof elicitContent !== 'object' || Array.isArray(elicitContent))
      throw new UsageError('--elicit-content must be a JSON object (the form’s fields)')
  }
  const elicit = values.elicit ?? (elicitContent ? 'accept' : undefined)
  if (elicit !== undefined && !(ELICIT_ACTIONS as readonly string[]).includes(elicit))
    throw new UsageError(`--elicit is one of ${ELICIT_ACTIONS.join(', ')}`)
  if (elicitContent && elicit !== 'accept')
    throw new UsageError('--elicit-content goes with --elicit accept (decline and cancel send no content)')
  if (values.sampling !== undefined || elicit !== undefined)
    flags.responder = {
      ...(values.sampling !== undefined && { file: resolve(values.sampling) }),
      ...(elicit !== undefined && { elicit: elicit as Responder['elicit'] }),
      ...(elicitContent && { elicitContent }),
    }
  const policy = (flag: 'permission' | 'terminal'): 'allow' | 'reject' | undefined => {
    const value = values[flag]
    if (value === undefined) return undefined
    if (value !== 'allow' && value !== 'reject') throw new UsageError(`--${flag} is allow or reject`)
    return value
  }
  const [permission, terminal] = [policy('permission'), policy('terminal')]
  if (permission || terminal || values.workspace !== undefined)
    flags.acp = {
      ...(permission && { permission }),
      ...(terminal && { terminal }),
      ...(values.workspace !== undefined && { workspace: resolve(values.workspace) }),
    }
  return flags
}

/**
 * The target as the flags have it: their roots and responder in place of its own (a config entry's roots
 * stay unless --roots is given). The built-in demos are used as they ship (they ask their client nothing).
 */
export function withClientFlags(target: SavedTarget, flags: ClientFlags): SavedTarget {
  if (flags.acp) {
    if (target.spec.kind !== 'acp') throw new UsageError('--permission, --terminal and --workspace are for ACP agents (acp:<command line>)')
    const { permission, terminal, workspace } = flags.acp
    target = {
      ...target,
      ...((permission || terminal) && {
        responder: { ...target.responder, ...(permission && { permission }), ...(terminal && { terminal }) },
      }),
      ...(workspace && { spec: { ...target.spec, workspace } }),
    }
  }
  if (!flags.roots && !flags.responder) return target
  if (target.origin === 'demo')
    throw new UsageError(`${target.id} is a built-in demo: --roots, --sampling and --elicit are for your own servers`)
  return { ...target, ...(flags.roots && { roots: flags.roots }), ...(flags.responder && { responder: flags.responder }) }
}

/** A preset's name, or a file holding a profile (as `compare --profile-a` takes). */
export async function profileFlag(text: string): Promise<string | ClientProfile> {
  if (PRESET_PROFILES.some((p) => p.name === text)) return text
  let json: unknown
  try {
    json = JSON.parse(await readFile(text, 'utf8'))
  } catch {
    throw new UsageError(
      `--profile "${text}" is neither a preset (${PRESET_PROFILES.map((p) => p.name).join(', ')}) nor a readable profile file`,
    )
  }
  try {
    return parseProfile(json, text)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

/** A root: a file:// URI, or a path (made absolute, then a file:// URI). */
function rootFlag(text: string): Root {
  const uri = text.startsWith('file://') ? text : pathToFileURL(isAbsolute(text) ? text : resolve(text)).href
  const root = Root.safeParse({ uri })
  if (!root.success) throw new UsageError(`--roots ${text}: ${root.error.issues[0]?.message ?? 'not a root'}`)
  return root.data
}

/** One thing the server asked and how it was answered, as the CLI reports it. */
export interface ServerRequestLine {
  method: string
  state: 'answered' | 'failed' | 'cancelled'
  by?: string
  source?: string
  result?: unknown
  error?: { code: number; message: string }
}

/**
 * What the server asks as it asks (sampling, elicitation, roots): each answer said on stderr (`progress`:
 * unless --json), and the list, for the JSON object.
 */
export function listenToServerRequests(host: CliHost, progress: (line: string) => void): () => ServerRequestLine[] {
  const lines: ServerRequestLine[] = []
  host.onEvents((events) => {
    for (const e of events) {
      if (e.type !== 'serverRequest' || e.state === 'pending') continue
      lines.push({
        method: e.method,
        state: e.state,
        ...(e.by && { by: e.by }),
        ...(e.source && { source: e.source }),
        ...(e.result !== undefined && { result: e.result }),
        ...(e.error && { error: e.error }),
      })
      const who = e.source ?? e.by ?? 'Parallax'
      progress(`server asked ${e.method}: ${e.state === 'answered' ? `answered by ${who}` : e.state} — ${e.reason ?? ''}`.trimEnd())
    }
  })
  return () => lines
}
