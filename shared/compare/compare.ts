import microdiff from 'microdiff'
import { handshakeEra, type DiscoveryMethod, type EngineEvent, type FrameEvent, type HandshakeEvent } from '../contract'
import { schemaChanges, type SchemaChange } from './schemaChanges'

export const COMPARE_FORMAT = 'parallax.compare/1'

/**
 * `operation`: an MCP tool, an A2A skill and an ACP command paired by name (comparing across protocols);
 * `command`: an ACP slash command the agent announced; `used`: a tool an ACP agent called in the compare's prompt.
 */
type Kind = 'tool' | 'prompt' | 'resource' | 'resourceTemplate' | 'skill' | 'operation' | 'command' | 'used'

/** Where a difference was seen: the frame in each connection that carried it. */
export interface FrameLink {
  a?: number
  b?: number
}

export interface HandshakeDifference {
  /** `client`: what Parallax offered (the profiles differ); `agent`: what the agent answered. */
  origin: 'client' | 'agent'
  field: string
  a: unknown
  b: unknown
  frames: FrameLink
}

export interface CatalogDifference {
  kind: Kind
  name: string
  frames: FrameLink
}

export interface CatalogChange extends CatalogDifference {
  breaking: boolean
  changes: (SchemaChange | { path: string; kind: 'field-changed'; breaking: false; detail: string })[]
}

export interface CompareReport {
  handshake: HandshakeDifference[]
  /** `added`: only in B; `removed`: only in A; `same`: in both, unchanged. */
  catalog: { added: CatalogDifference[]; removed: CatalogDifference[]; changed: CatalogChange[]; same: CatalogDifference[] }
}

/**
 * How MCP tools pair with A2A skills across protocols: by name, as a replay maps a call of tool X to a
 * data part `{skill: X, input}`; `names` renames a tool to the skill it pairs with when they differ.
 */
export interface OperationPairing {
  names?: Record<string, string>
}

/** What one connection showed: its handshake, its catalog (latest lists), and the frames behind them. */
export interface Snapshot {
  handshake?: HandshakeEvent
  handshakeFrame?: number
  items: Map<string, { kind: Kind; item: Record<string, unknown>; frame?: number }>
}

/** Handshake fields that say what the client sent, not what the agent did. */
const CLIENT_FIELDS = new Set(['requestedProtocolVersion', 'clientCapabilities'])

const LISTS: [DiscoveryMethod, Kind, string][] = [
  ['tools/list', 'tool', 'name'],
  ['prompts/list', 'prompt', 'name'],
  ['resources/list', 'resource', 'uri'],
  ['resources/templates/list', 'resourceTemplate', 'uriTemplate'],
  ['agent-card', 'skill', 'id'],
  ['available_commands', 'command', 'name'],
]

export function snapshotOf(events: EngineEvent[], connectionId: string): Snapshot {
  const mine = events.filter((e) => e.connectionId === connectionId)
  const handshake = mine.findLast((e): e is HandshakeEvent => e.type === 'handshake')
  const responseTo = (method: string) =>
    mine.findLast((e): e is FrameEvent => e.type === 'frame' && e.direction === 'in' && e.method === method)?.seq
  const items: Snapshot['items'] = new Map()
  for (const [method, kind, key] of LISTS) {
    const step = mine.findLast((e) => e.type === 'discovery' && e.method === method && e.items)
    if (!step || step.type !== 'discovery') continue
    // An ACP agent's commands come in a notification, not an answer: the last one that announced them.
    const frame =
      method === 'available_commands'
        ? mine.findLast((e): e is FrameEvent => e.type === 'frame' && e.subject === 'available_commands_update')?.seq
        : responseTo(method)
    for (const item of (step.items ?? []) as Record<string, unknown>[]) items.set(`${kind}:${String(item[key])}`, { kind, item, frame })
  }
  // What an ACP agent did: each tool it called (by name) in the compare's prompt, with the frame that first showed it.
  for (const e of mine) {
    const meta = e.type === 'conversation' ? e.message.metadata : undefined
    if (meta?.kind !== 'tool' || typeof meta.tool !== 'string' || items.has(`used:${meta.tool}`)) continue
    const frame = mine.findLast(
      (f): f is FrameEvent => f.type === 'frame' && f.seq < e.seq && f.subject === `tool_call ${String(meta.tool)}`,
    )?.seq
    items.set(`used:${meta.tool}`, { kind: 'used', item: { name: meta.tool, toolKind: meta.toolKind }, frame })
  }
  // An MCP handshake's frame is the answer that settled the era (server/discover or initialize).
  const settled = handshake?.protocol === 'mcp' ? handshake.negotiation?.steps.find((s) => s.accepted)?.frameSeq : undefined
  return { handshake, handshakeFrame: settled ?? responseTo(handshake?.protocol === 'a2a' ? 'agent-card' : 'initialize'), items }
}

/**
 * Differences between two snapshots: handshake fields, and the catalog added, removed, changed and the
 * same. Across protocols (MCP vs A2A) tools and skills are one vocabulary, operations, paired by name.
 */
export function compareSnapshots(a: Snapshot, b: Snapshot, pairing: OperationPairing = {}): CompareReport {
  const across = a.handshake && b.handshake && a.handshake.protocol !== b.handshake.protocol
  if (across) [a, b] = [asOperations(a, pairing), asOperations(b, pairing)]
  const frames = { a: a.handshakeFrame, b: b.handshakeFrame }
  const handshake: HandshakeDifference[] = []
  const field = (name: string, va: unknown, vb: unknown) => {
    for (const d of microdiff({ v: va } as Record<string, unknown>, { v: vb } as Record<string, unknown>)) {
      const path = [name, ...d.path.slice(1)].join('.')
      handshake.push({
        origin: CLIENT_FIELDS.has(name) ? 'client' : 'agent',
        field: path,
        a: d.type === 'CREATE' ? undefined : d.oldValue,
        b: d.type === 'REMOVE' ? undefined : d.value,
        frames,
      })
    }
  }
  const ha = a.handshake
  const hb = b.handshake
  field('protocol', ha?.protocol, hb?.protocol)
  if (ha?.protocol === 'mcp' && hb?.protocol === 'mcp') {
    field('era', handshakeEra(ha), handshakeEra(hb))
    field('requestedProtocolVersion', ha.requestedProtocolVersion, hb.requestedProtocolVersion)
    field('protocolVersion', ha.protocolVersion, hb.protocolVersion)
    field('clientCapabilities', ha.clientCapabilities, hb.clientCapabilities)
    field('serverCapabilities', ha.serverCapabilities, hb.serverCapabilities)
    field('serverInfo', ha.serverInfo, hb.serverInfo)
    field('instructions', ha.instructions, hb.instructions)
  } else if (ha?.protocol === 'acp' && hb?.protocol === 'acp') {
    field('requestedProtocolVersion', ha.requestedProtocolVersion, hb.requestedProtocolVersion)
    field('clientCapabilities', ha.clientCapabilities, hb.clientCapabilities)
    field('protocolVersion', ha.protocolVersion, hb.protocolVersion)
    field('agentCapabilities', ha.agentCapabilities, hb.agentCapabilities)
    field('agentInfo', ha.agentInfo, hb.agentInfo)
    field('authMethods', ha.authMethods, hb.authMethods)
  } else if (ha?.protocol === 'a2a' && hb?.protocol === 'a2a') {
    field('generation', ha.generation, hb.generation)
    field('protocolVersion', ha.protocolVersion, hb.protocolVersion)
    field(
      'interface',
      ha.chosenInterface && { binding: ha.chosenInterface.protocolBinding, version: ha.chosenInterface.protocolVersion },
      hb.chosenInterface && { binding: hb.chosenInterface.protocolBinding, version: hb.chosenInterface.protocolVersion },
    )
    field('capabilities', ha.capabilities, hb.capabilities)
    const card = (h: typeof ha) => {
      const { supportedInterfaces: _i, skills: _s, url: _u, provider: _p, ...rest } = h.agentCard as Record<string, unknown>
      return rest
    }
    field('card', card(ha), card(hb))
  }

  const added: CatalogDifference[] = []
  const removed: CatalogDifference[] = []
  const changed: CatalogChange[] = []
  const same: CatalogDifference[] = []
  for (const [key, { kind, item, frame }] of b.items) {
    const before = a.items.get(key)
    const name = key.slice(kind.length + 1)
    if (!before) {
      added.push({ kind, name, frames: { b: frame } })
      continue
    }
    const changes: CatalogChange['changes'] = []
    if (kind === 'tool') {
      changes.push(
        ...schemaChanges(before.item.inputSchema, item.inputSchema, 'input').map((c) => ({ ...c, path: `/inputSchema${c.path}` })),
      )
      if (before.item.outputSchema || item.outputSchema)
        changes.push(
          ...schemaChanges(before.item.outputSchema, item.outputSchema, 'output').map((c) => ({ ...c, path: `/outputSchema${c.path}` })),
        )
    }
    for (const f of ['title', 'description', 'arguments', 'mimeType', 'name', 'tags', 'examples']) {
      if (JSON.stringify(before.item[f]) !== JSON.stringify(item[f]))
        changes.push({ path: `/${f}`, kind: 'field-changed', breaking: false, detail: `${f} changed` })
    }
    if (kind === 'prompt') {
      const required = (p: Record<string, unknown>) =>
        ((p.arguments ?? []) as { name: string; required?: boolean }[]).filter((x) => x.required).map((x) => x.name)
      for (const arg of required(item).filter((n) => !required(before.item).includes(n)))
        changes.push({ path: `/arguments/${arg}`, kind: 'required-added', breaking: true, detail: 'new required argument' })
    }
    if (changes.length)
      changed.push({ kind, name, frames: { a: before.frame, b: frame }, breaking: changes.some((c) => c.breaking), changes })
    else same.push({ kind, name, frames: { a: before.frame, b: frame } })
  }
  for (const [key, { kind, frame }] of a.items)
    if (!b.items.has(key)) removed.push({ kind, name: key.slice(kind.length + 1), frames: { a: frame } })
  return { handshake, catalog: { added, removed, changed, same } }
}

/** A snapshot's tools (MCP) or skills (A2A) as operations, keyed by the name they pair under. */
function asOperations(snapshot: Snapshot, { names = {} }: OperationPairing): Snapshot {
  const items: Snapshot['items'] = new Map()
  for (const [key, entry] of snapshot.items) {
    if (entry.kind !== 'tool' && entry.kind !== 'skill' && entry.kind !== 'command') {
      items.set(key, entry)
      continue
    }
    const own = String(entry.kind === 'skill' ? entry.item.id : entry.item.name)
    const paired = entry.kind === 'skill' ? own : (names[own] ?? own)
    // Presence is what pairs: a skill has no schema, and descriptions are worded for each protocol's readers.
    items.set(`operation:${paired}`, { kind: 'operation', item: {}, frame: entry.frame })
  }
  return { ...snapshot, items }
}

/** Whether the agent differed at the given level (what the client offered differently does not count). */
export function hasDifference(
  report: { handshake: { origin: string }[]; catalog: { added: unknown[]; removed: unknown[]; changed: { breaking: boolean }[] } },
  level: 'any' | 'breaking',
): boolean {
  if (level === 'breaking') return report.catalog.removed.length > 0 || report.catalog.changed.some((c) => c.breaking)
  return (
    report.handshake.some((h) => h.origin === 'agent') ||
    report.catalog.added.length + report.catalog.removed.length + report.catalog.changed.length > 0
  )
}
