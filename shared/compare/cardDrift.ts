import type { CardDrift, ClaimRow, DriftState, EngineEvent, PrimitiveRow, ServerCardRead } from '../contract'
import { compareSnapshots, snapshotOf, type CatalogChange, type CatalogDifference, type Snapshot } from './compare'

const LISTED = [
  ['tools', 'tool', 'name'],
  ['prompts', 'prompt', 'name'],
  ['resources', 'resource', 'uri'],
] as const

/**
 * Diffs what a card claims against what a connection's server answered (its handshake — initialize or
 * server/discover — and its lists), per claim and per tool, prompt and resource, as Compare pairs two servers.
 * A list the card does not give is no claim, and is not compared.
 */
export function cardDrift(card: ServerCardRead, events: EngineEvent[], connectionId: string): CardDrift {
  const server = snapshotOf(events, connectionId)
  const handshake = server.handshake?.protocol === 'mcp' ? server.handshake : undefined
  const claims: ClaimRow[] = []
  const claim = (field: string, inCard: unknown, onServer: unknown) => {
    const state: DriftState =
      inCard === undefined
        ? 'only on server'
        : onServer === undefined
          ? 'only in card'
          : JSON.stringify(inCard) === JSON.stringify(onServer)
            ? 'same'
            : 'changed'
    claims.push({ field, state, ...(inCard !== undefined && { card: inCard }), ...(onServer !== undefined && { server: onServer }) })
  }
  // What the card does not say (a server.json gives no capabilities) is no claim.
  if (card.version !== undefined) claim('version', card.version, handshake?.serverInfo?.version)
  const capabilities = handshake?.serverCapabilities ?? {}
  if (card.capabilities)
    for (const key of new Set([...Object.keys(card.capabilities), ...Object.keys(capabilities)]))
      claim(`capabilities.${key}`, card.capabilities[key], capabilities[key])
  const versions = card.remotes.flatMap((r) => r.supportedProtocolVersions ?? [])
  if (versions.length && handshake?.protocolVersion)
    claims.push({
      field: 'protocolVersion',
      state: versions.includes(handshake.protocolVersion) ? 'same' : 'changed',
      card: versions,
      server: handshake.protocolVersion,
    })

  const claimed: Snapshot['items'] = new Map()
  const answered: Snapshot['items'] = new Map()
  for (const [field, kind, key] of LISTED) {
    for (const item of card[field] ?? []) claimed.set(`${kind}:${String(item[key])}`, { kind, item })
    if (card[field]) for (const [k, entry] of server.items) if (entry.kind === kind) answered.set(k, entry)
  }
  const report = compareSnapshots({ items: claimed }, { items: answered })
  const dynamic = (kind: string) => {
    const capability = card.capabilities?.[`${kind}s`]
    return typeof capability === 'object' && capability !== null && (capability as { listChanged?: boolean }).listChanged === true
  }
  const row = (state: DriftState) => (d: CatalogDifference | CatalogChange) => ({
    kind: d.kind as PrimitiveRow['kind'],
    name: d.name,
    state,
    dynamic: dynamic(d.kind),
    ...('changes' in d && { changes: d.changes }),
  })
  const primitives: PrimitiveRow[] = [
    ...report.catalog.same.map(row('same')),
    ...report.catalog.changed.map(row('changed')),
    ...report.catalog.removed.map(row('only in card')),
    ...report.catalog.added.map(row('only on server')),
  ]
  const drift =
    card.problems.length > 0 ||
    claims.some((c) => c.state !== 'same') ||
    primitives.some((p) => p.state === 'changed' || (p.state !== 'same' && !p.dynamic))
  return { card, connectionId, claims, primitives, drift }
}
