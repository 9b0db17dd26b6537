import type { AgentCard } from '@a2a-js/sdk'
import type { A2aGeneration, A2aHandshakeEvent, A2aInterface } from '../contract'
import { grpcEndpoint } from './grpcEndpoint'

export const CARD_PATH = '/.well-known/agent-card.json'
const KNOWN_BINDINGS = new Set(['JSONRPC', 'HTTP+JSON', 'GRPC'])

type Json = Record<string, unknown>

/** Where the card lives: a URL ending in .json is the card itself; anything else is the agent's base URL. */
export function cardUrlFor(url: string): string {
  const parsed = new URL(url)
  if (parsed.pathname.endsWith('.json')) return parsed.href
  return `${parsed.href.replace(/\/+$/, '')}${CARD_PATH}`
}

/**
 * Which generation a card describes. v1.0 cards list `supportedInterfaces`; v0.3 cards carry a
 * top-level `url` with `preferredTransport` and a `protocolVersion` of 0.x.
 */
export function detectGeneration(card: Json): { generation: A2aGeneration; reason: string } {
  const interfaces = Array.isArray(card.supportedInterfaces) ? (card.supportedInterfaces as Json[]) : undefined
  const v1Interfaces = interfaces?.filter((i) => String(i.protocolVersion ?? '1').startsWith('1'))
  if (v1Interfaces?.length)
    return { generation: '1.0', reason: `the card lists ${v1Interfaces.length} v1.0 interface(s) in supportedInterfaces` }
  const version = typeof card.protocolVersion === 'string' ? card.protocolVersion : undefined
  if (typeof card.url === 'string') {
    return {
      generation: '0.3',
      reason: `the card has a top-level url${card.preferredTransport ? ` and preferredTransport ${card.preferredTransport}` : ''}${version ? ` and protocolVersion ${version}` : ''}, the v0.3 shape`,
    }
  }
  if (interfaces?.length) return { generation: '0.3', reason: 'every interface in supportedInterfaces declares protocolVersion 0.x' }
  return { generation: '1.0', reason: 'no interfaces were found; assuming v1.0' }
}

/** The interfaces a card offers, in its own order, whichever generation it is. */
export function listInterfaces(card: Json, generation: A2aGeneration): A2aInterface[] {
  if (Array.isArray(card.supportedInterfaces)) {
    return (card.supportedInterfaces as Json[]).map((i) => ({
      url: String(i.url ?? ''),
      protocolBinding: String(i.protocolBinding ?? i.transport ?? ''),
      protocolVersion: String(i.protocolVersion ?? (generation === '1.0' ? '1.0' : '0.3')),
    }))
  }
  const out: A2aInterface[] = []
  const version = String(card.protocolVersion ?? '0.3')
  if (typeof card.url === 'string')
    out.push({ url: card.url, protocolBinding: String(card.preferredTransport ?? 'JSONRPC'), protocolVersion: version })
  for (const extra of Array.isArray(card.additionalInterfaces) ? (card.additionalInterfaces as Json[]) : []) {
    if (extra.url !== card.url || extra.transport !== card.preferredTransport)
      out.push({ url: String(extra.url), protocolBinding: String(extra.transport), protocolVersion: version })
  }
  return out
}

/**
 * Checks a card the way a careful client would and returns every problem as a readable sentence.
 * Nothing here throws: a broken card is something to show, not a reason to crash.
 */
export function checkCard(card: unknown, generation: A2aGeneration, cardUrl: string): string[] {
  if (!card || typeof card !== 'object' || Array.isArray(card)) return ['the agent card is not a JSON object']
  const c = card as Json
  const warnings: string[] = []
  const need = (field: string, type: 'string' | 'array' | 'object') => {
    const value = c[field]
    const ok =
      type === 'array'
        ? Array.isArray(value)
        : type === 'object'
          ? value !== null && typeof value === 'object' && !Array.isArray(value)
          : typeof value === type && value !== ''
    if (!ok)
      warnings.push(
        `required field "${field}" is ${value === undefined ? 'missing' : `not ${type === 'array' ? 'an array' : `a${type === 'object' ? 'n' : ''} ${type}`}`}`,
      )
  }
  for (const field of ['name', 'description', 'version']) need(field, 'string')
  need('capabilities', 'object')
  need('skills', 'array')
  for (const field of ['defaultInputModes', 'defaultOutputModes']) need(field, 'array')

  const declared = typeof c.protocolVersion === 'string' ? c.protocolVersion : undefined
  if (generation === '0.3') {
    need('url', 'string')
    if (declared?.startsWith('1'))
      warnings.push(`the card claims protocolVersion ${declared} but has the v0.3 shape (top-level url, no supportedInterfaces)`)
    if (!c.preferredTransport) warnings.push('v0.3 card has no preferredTransport; JSONRPC is assumed')
  } else if (!Array.isArray(c.supportedInterfaces) || c.supportedInterfaces.length === 0) {
    warnings.push('required field "supportedInterfaces" is missing or empty: there is no endpoint to talk to')
  }

  const interfaces = listInterfaces(c, generation)
  const cardOrigin = new URL(cardUrl).origin
  interfaces.forEach((i, n) => {
    const where = `interface ${n + 1} (${i.protocolBinding || '?'})`
    if (i.protocolBinding.toUpperCase() === 'GRPC') {
      // gRPC listens on a port of its own (host:port, or a URL): going there is the user's to allow, not a card problem.
      if (!grpcEndpoint(i.url)) warnings.push(`${where} has no usable gRPC address (host:port or URL): ${JSON.stringify(i.url)}`)
    } else if (!URL.canParse(i.url) || !/^https?:$/.test(new URL(i.url).protocol)) {
      warnings.push(`${where} has no usable http(s) url: ${JSON.stringify(i.url)}`)
    } else if (new URL(i.url).origin !== cardOrigin) {
      warnings.push(`${where} points to ${new URL(i.url).origin}, not where the card was fetched (${cardOrigin})`)
    }
    if (!KNOWN_BINDINGS.has(i.protocolBinding))
      warnings.push(`${where} has an unknown protocolBinding ${JSON.stringify(i.protocolBinding)}`)
  })

  const capabilities = (c.capabilities ?? {}) as Json
  for (const [n, ext] of (Array.isArray(capabilities.extensions) ? (capabilities.extensions as Json[]) : []).entries()) {
    if (typeof ext?.uri !== 'string' || !ext.uri) warnings.push(`capabilities.extensions[${n}] has no uri`)
  }

  const skillIds = new Set<string>()
  for (const [n, skill] of (Array.isArray(c.skills) ? (c.skills as Json[]) : []).entries()) {
    for (const field of ['id', 'name', 'description'])
      if (typeof skill?.[field] !== 'string' || !skill[field]) warnings.push(`skills[${n}] has no ${field}`)
    if (!Array.isArray(skill?.tags)) warnings.push(`skills[${n}] has no tags array`)
    if (typeof skill?.id === 'string') {
      if (skillIds.has(skill.id)) warnings.push(`skill id "${skill.id}" appears more than once`)
      skillIds.add(skill.id)
    }
  }

  const schemes = new Set(Object.keys((c.securitySchemes ?? {}) as Json))
  const requirements = [
    ...(Array.isArray(c.securityRequirements) ? c.securityRequirements : []),
    ...(Array.isArray(c.security) ? c.security : []),
  ] as Json[]
  for (const requirement of requirements) {
    const names = Object.keys(((requirement?.schemes as Json | undefined) ?? requirement ?? {}) as Json)
    for (const name of names)
      if (!schemes.has(name)) warnings.push(`security requirement names "${name}", which securitySchemes does not define`)
  }
  return warnings
}

/** What a card (read by the SDK) says of its capabilities and skills, as a handshake event carries them. */
export function cardOffer(
  card: Pick<AgentCard, 'capabilities' | 'skills'> | undefined,
): Pick<A2aHandshakeEvent, 'capabilities' | 'skills'> {
  const capabilities = card?.capabilities
  return {
    capabilities: {
      streaming: capabilities?.streaming === true,
      pushNotifications: capabilities?.pushNotifications === true,
      extendedAgentCard: capabilities?.extendedAgentCard === true,
      extensions: (capabilities?.extensions ?? []).map((e) => ({
        uri: e.uri,
        required: e.required,
        ...(e.description && { description: e.description }),
      })),
    },
    skills: (card?.skills ?? []).map((s) => ({ id: s.id, name: s.name, description: s.description, tags: s.tags, examples: s.examples })),
  }
}
