import {
  ErrorCode,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ListToolsResultSchema,
  McpError,
  ResultSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { requestOptions, type McpSession, type SessionRequestOptions } from './session'
import { offersSkills, SKILLS_EXTENSION, type DiscoveryEvent, type DiscoveryMethod, type DiscoveryTrigger } from '../contract'
import { errorMessage } from '../runtime/errors'
import { now } from '../runtime/clock'

export interface DiscoveryStep {
  method: DiscoveryMethod
  /** The server capability that must be advertised for this call to be made. */
  capability: 'tools' | 'prompts' | 'resources' | 'skills'
  /** The array in the result that holds the items. */
  key: 'tools' | 'prompts' | 'resources' | 'resourceTemplates' | 'skills'
  schema:
    | typeof ResultSchema
    | typeof ListToolsResultSchema
    | typeof ListPromptsResultSchema
    | typeof ListResourcesResultSchema
    | typeof ListResourceTemplatesResultSchema
}

export const DISCOVERY_STEPS: readonly DiscoveryStep[] = [
  { method: 'tools/list', capability: 'tools', key: 'tools', schema: ListToolsResultSchema },
  { method: 'prompts/list', capability: 'prompts', key: 'prompts', schema: ListPromptsResultSchema },
  { method: 'resources/list', capability: 'resources', key: 'resources', schema: ListResourcesResultSchema },
  { method: 'resources/templates/list', capability: 'resources', key: 'resourceTemplates', schema: ListResourceTemplatesResultSchema },
  // Skills over MCP (SEP-2640, draft): listed only; a skill's files are read when it is loaded (./skills.ts).
  { method: 'skills/list', capability: 'skills', key: 'skills', schema: ResultSchema },
]

/** Which list a `notifications/…/list_changed` invalidates. */
export const LIST_CHANGED: Record<string, { capability: DiscoveryStep['capability']; methods: DiscoveryMethod[] }> = {
  'notifications/tools/list_changed': { capability: 'tools', methods: ['tools/list'] },
  'notifications/prompts/list_changed': { capability: 'prompts', methods: ['prompts/list'] },
  'notifications/resources/list_changed': { capability: 'resources', methods: ['resources/list', 'resources/templates/list'] },
}

/** A server that keeps handing out cursors is cut off here rather than looping forever. */
const MAX_PAGES = 1_000

type DiscoveryResult = Omit<DiscoveryEvent, 'seq' | 'ts' | 'connectionId' | 'type'>

/**
 * One capability-gated discovery step (docs/architecture.md): skipped with its reason when the server did not
 * advertise the capability; otherwise every page is fetched. A JSON-RPC error is a failed step, never
 * a failed connection, so this never throws.
 */
export async function runDiscoveryStep(
  session: McpSession,
  step: DiscoveryStep,
  serverCapabilities: Record<string, unknown>,
  trigger: DiscoveryTrigger,
  options: SessionRequestOptions,
): Promise<DiscoveryResult> {
  const offered = step.capability === 'skills' ? offersSkills(serverCapabilities) : !!serverCapabilities[step.capability]
  const capability = step.capability === 'skills' ? `extensions["${SKILLS_EXTENSION}"]` : `"${step.capability}"`
  if (!offered) {
    return {
      method: step.method,
      status: 'skipped',
      trigger,
      reason: `server did not advertise the ${capability} capability`,
    }
  }
  const started = now()
  const items: unknown[] = []
  const seen = new Set<string>()
  let pages = 0
  let cursor: string | undefined
  try {
    do {
      const result = await session.request(step.method, cursor ? { cursor } : {}, options, step.schema)
      const page = result[step.key]
      if (Array.isArray(page)) items.push(...page)
      pages++
      cursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined
      if (cursor !== undefined) {
        if (seen.has(cursor)) throw new Error(`server repeated pagination cursor ${JSON.stringify(cursor)} after ${pages} pages`)
        seen.add(cursor)
      }
    } while (cursor !== undefined && pages < MAX_PAGES)
  } catch (error) {
    const code = error instanceof McpError ? error.code : undefined
    return {
      method: step.method,
      status: 'failed',
      trigger,
      errorCode: code,
      durationMs: now() - started,
      pages,
      reason:
        code === ErrorCode.MethodNotFound ? `server advertises ${capability} but answered -32601 Method not found` : errorMessage(error),
    }
  }
  const truncated = cursor !== undefined ? ` (stopped after ${MAX_PAGES} pages)` : ''
  return {
    method: step.method,
    status: 'called',
    trigger,
    reason: `server advertised the ${capability} capability${truncated}`,
    count: items.length,
    pages,
    durationMs: now() - started,
    items,
  }
}

/** A step the server offers and this client's profile did not: skipped, saying so. */
function notNegotiated(step: DiscoveryStep, trigger: DiscoveryTrigger): DiscoveryResult {
  const reason = `the server offers extensions["${SKILLS_EXTENSION}"], and this client profile does not (the extension is not negotiated)`
  return { method: step.method, status: 'skipped', trigger, reason }
}

/** What discovery needs of its connection. */
export interface DiscoveryHost {
  session(): McpSession | undefined
  capabilities(): Record<string, unknown>
  /** What the client offered: an extension's list is called only where both sides offer the extension. */
  clientCapabilities(): Record<string, unknown>
  /** The connection's generation now: a run that outlives its session stops. */
  generation(): number
  isLive(): boolean
  timeoutMs(): number
  emit(event: Omit<DiscoveryEvent, 'seq' | 'ts' | 'connectionId'>): void
}

/**
 * The server's lists as discovery last found them (the catalog, for hosts such as the CLI that print it):
 * every step after the handshake and on the user's refresh, one list again on its list_changed.
 */
export class Discovery {
  /** The latest catalog, per list method. */
  readonly catalog: Partial<Record<DiscoveryMethod, unknown[]>> = {}
  private readonly refreshing = new Map<DiscoveryMethod, Promise<void>>()
  private readonly refreshAgain = new Set<DiscoveryMethod>()

  constructor(private readonly host: DiscoveryHost) {}

  /** Runs every discovery step, or the one for `only`, each a discovery event. */
  async run(trigger: DiscoveryTrigger, only?: DiscoveryMethod): Promise<void> {
    const session = this.host.session()
    if (!session) return
    const generation = this.host.generation()
    for (const step of DISCOVERY_STEPS) {
      if (only && step.method !== only) continue
      // An extension's list is a step only where the server offers the extension, and called only where the client did too.
      if (step.capability === 'skills' && !offersSkills(this.host.capabilities())) continue
      const result =
        step.capability === 'skills' && !offersSkills(this.host.clientCapabilities())
          ? notNegotiated(step, trigger)
          : await runDiscoveryStep(session, step, this.host.capabilities(), trigger, requestOptions(this.host.timeoutMs()))
      if (generation !== this.host.generation()) return
      if (result.items) this.catalog[step.method] = result.items
      this.host.emit({ type: 'discovery', ...result })
    }
  }

  /** Re-runs discovery for one list; concurrent requests for the same list coalesce into one more run. */
  refresh(method: DiscoveryMethod, trigger: DiscoveryTrigger): Promise<void> {
    const running = this.refreshing.get(method)
    if (running) {
      this.refreshAgain.add(method)
      return running
    }
    const run = (async () => {
      do {
        this.refreshAgain.delete(method)
        await this.run(trigger, method)
      } while (this.refreshAgain.has(method) && this.host.isLive())
    })().finally(() => this.refreshing.delete(method))
    this.refreshing.set(method, run)
    return run
  }

  /** Waits out notifications still in flight and the refreshes they start. */
  async settled(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 100))
    while (this.refreshing.size) await Promise.all(this.refreshing.values())
  }
}
