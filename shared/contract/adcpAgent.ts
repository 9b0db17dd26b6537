import table from './adcpTasks.json' with { type: 'json' }
import type { EngineEvent } from './events'

/**
 * The seller tasks of the AdCP release Parallax follows, each with the fields its request defines: written with
 * the release's schemas by test/adcp/syncSchemas.mjs (the schemas themselves, shared/adcp/, are the engine's).
 */
const TASKS: Readonly<Record<string, readonly string[]>> = table.tasks

/** The AdCP release Parallax follows. */
export const ADCP_RELEASE: string = table.release

export function isAdcpTask(name: string): boolean {
  return Object.hasOwn(TASKS, name)
}

/** The fields a task's request defines (the task's own, even where AdCP's envelope has one of the same name). */
export function adcpRequestFields(task: string): Set<string> {
  return new Set(isAdcpTask(task) ? TASKS[task] : [])
}

/** Where AdCP's agent-card extension lives: `capabilities.extensions[].uri` on AdCP's own site. */
const ADCP_EXTENSION = /^https?:\/\/([a-z0-9-]+\.)*adcontextprotocol\.org\//i
/** The discovery tool only AdCP 3 agents offer. */
const CAPABILITIES_TASK = 'get_adcp_capabilities'
/** How many of AdCP's tasks a tool set needs without get_adcp_capabilities to be an AdCP agent's. */
const SEVERAL = 2
/** The tag AdCP's own SDK gives each skill of an AdCP agent's card. */
const ADCP_TAG = 'adcp'

/**
 * Whether a connection talks to an AdCP agent, from what it said of itself (a connection's state: its handshake
 * and discovery, as the event log keeps them). An A2A card declares AdCP by AdCP's extension, or by skills
 * tagged `adcp` (as AdCP's own SDK tags them); an MCP tool set by AdCP's capabilities task, or by several of
 * AdCP's tasks in AdCP's shape (each declares no argument AdCP's request does not define: a tool that only
 * shares a task's name is another protocol's). Says why, or undefined.
 */
export function recogniseAdcp(state: readonly EngineEvent[]): string | undefined {
  const card = state.findLast((e) => e.type === 'handshake' && e.protocol === 'a2a')
  const declared = card?.type === 'handshake' && card.protocol === 'a2a' ? adcpExtension(card.agentCard) : undefined
  if (declared) return `the agent card declares AdCP (${declared})`
  const offered = offeredTools(state)
  if (offered.some((t) => t.name === CAPABILITIES_TASK)) return `it offers ${CAPABILITIES_TASK}`
  const tagged = offered.filter((t) => isAdcpTask(t.name) && t.tags?.includes(ADCP_TAG)).map((t) => t.name)
  if (tagged.length) return `its skills ${tagged.join(', ')} are tagged ${ADCP_TAG}`
  const tasks = offered
    .filter((t) => isAdcpTask(t.name) && t.inputSchema !== undefined && inAdcpShape(t.name, t.inputSchema))
    .map((t) => t.name)
  if (tasks.length >= SEVERAL) return `it offers AdCP's tasks ${tasks.join(', ')} in AdCP's shape`
  return undefined
}

/** A tool's declared arguments are all the AdCP task's own (an open schema, as AdCP's SDK lists them, declares none). */
function inAdcpShape(task: string, inputSchema: unknown): boolean {
  const declared = Object.keys((inputSchema as { properties?: object } | undefined)?.properties ?? {})
  const own = adcpRequestFields(task)
  return declared.every((field) => own.has(field))
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

interface Offered {
  name: string
  /** MCP: the tool's input schema. */
  inputSchema?: unknown
  /** A2A: the skill's tags. */
  tags?: string[]
}

/** The tools (MCP) or skills (A2A, by id) the latest discovery listed. */
function offeredTools(state: readonly EngineEvent[]): Offered[] {
  const step = state.findLast(
    (e) => e.type === 'discovery' && (e.method === 'tools/list' || e.method === 'agent-card') && e.status === 'called',
  )
  if (step?.type !== 'discovery') return []
  const skills = step.method === 'agent-card'
  return (step.items ?? []).flatMap((entry) => {
    const item = (entry ?? {}) as { name?: unknown; id?: unknown; inputSchema?: unknown; tags?: unknown }
    const name = skills ? (item.id ?? item.name) : item.name
    if (typeof name !== 'string') return []
    return [
      { name, inputSchema: item.inputSchema, tags: Array.isArray(item.tags) ? item.tags.filter((t) => typeof t === 'string') : undefined },
    ]
  })
}
