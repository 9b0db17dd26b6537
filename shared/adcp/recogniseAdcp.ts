import type { EngineEvent } from '../contract'
import { isAdcpTask } from './adcpRelease'

/** Where AdCP's agent-card extension lives: `capabilities.extensions[].uri` on AdCP's own site. */
const ADCP_EXTENSION = /^https?:\/\/([a-z0-9-]+\.)*adcontextprotocol\.org\//i
/** The discovery tool only AdCP 3 agents offer. */
const CAPABILITIES_TASK = 'get_adcp_capabilities'
/** How many of AdCP's task names a tool set needs without get_adcp_capabilities to be an AdCP agent's. */
const SEVERAL = 2

/**
 * Whether a connection talks to an AdCP agent, from what it said of itself (a connection's state: its handshake
 * and discovery, as the event log keeps them): an A2A card that declares AdCP's extension, or a tool set (MCP
 * tools, A2A skills) with AdCP's capabilities task or several of its task names. Says why, or undefined.
 */
export function recogniseAdcp(state: readonly EngineEvent[]): string | undefined {
  const card = state.findLast((e) => e.type === 'handshake' && e.protocol === 'a2a')
  const declared = card?.type === 'handshake' && card.protocol === 'a2a' ? adcpExtension(card.agentCard) : undefined
  if (declared) return `the agent card declares AdCP (${declared})`
  const names = offeredNames(state)
  if (names.includes(CAPABILITIES_TASK)) return `it offers ${CAPABILITIES_TASK}`
  const tasks = names.filter(isAdcpTask)
  if (tasks.length >= SEVERAL) return `it offers AdCP's tasks ${tasks.join(', ')}`
  return undefined
}

function adcpExtension(card: unknown): string | undefined {
  const extensions = (card as { capabilities?: { extensions?: unknown } } | undefined)?.capabilities?.extensions
  if (!Array.isArray(extensions)) return undefined
  const found = extensions.find(
    (e) => typeof (e as { uri?: unknown })?.uri === 'string' && ADCP_EXTENSION.test((e as { uri: string }).uri),
  ) as { uri: string; params?: { adcp_version?: unknown } } | undefined
  if (!found) return undefined
  const version = found.params?.adcp_version
  return typeof version === 'string' ? `${found.uri}, version ${version}` : found.uri
}

/** The names of the tools (MCP) or skills (A2A) the latest discovery listed. */
function offeredNames(state: readonly EngineEvent[]): string[] {
  const step = state.findLast(
    (e) => e.type === 'discovery' && (e.method === 'tools/list' || e.method === 'agent-card') && e.status === 'called',
  )
  const items = step?.type === 'discovery' ? (step.items ?? []) : []
  return items
    .map((item) => (item as { name?: unknown; id?: unknown }) ?? {})
    .map((item) => (step?.type === 'discovery' && step.method === 'agent-card' ? (item.id ?? item.name) : item.name))
    .filter((name): name is string => typeof name === 'string')
}
