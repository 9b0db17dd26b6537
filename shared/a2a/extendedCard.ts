import { AgentCard } from '@a2a-js/sdk'
import type { DiscoveryEvent } from '../contract'
import { errorMessage } from '../runtime/errors'
import { jsonDiff } from '../runtime/jsonDiff'

export type ExtendedCardStep = Pick<DiscoveryEvent, 'status' | 'reason'> & Partial<Pick<DiscoveryEvent, 'count' | 'extendedCard'>>

/**
 * The authenticated extended agent card, as a discovery step: asked for (GetExtendedAgentCard, over the
 * interface in use) only when the public card says there is one — v1.0 `capabilities.extendedAgentCard`,
 * v0.3 `supportsAuthenticatedExtendedCard` — and the target has headers of its own (its credentials) for
 * that interface's origin. What it got is shown with how it differs from the public card, both read the
 * same way (the SDK's v1.0 JSON), so a v0.3 agent's differences are its own, not its generation's.
 */
export async function extendedCardStep(options: {
  offered: boolean
  /** The origin the request would go to, when the target has headers for it; undefined when it has none. */
  credentialsFor: string | undefined
  origin: string
  publicCard: AgentCard
  fetch: () => Promise<AgentCard>
}): Promise<ExtendedCardStep> {
  if (!options.offered)
    return {
      status: 'skipped',
      reason: 'the agent did not advertise an extended card (capabilities.extendedAgentCard; v0.3: supportsAuthenticatedExtendedCard)',
    }
  if (!options.credentialsFor)
    return {
      status: 'skipped',
      reason: `the agent offers an extended card to authenticated clients, and this target has no headers (credentials) for ${options.origin}: add one (e.g. Authorization) to fetch it`,
    }
  let extended: AgentCard
  try {
    extended = await options.fetch()
  } catch (error) {
    return { status: 'failed', reason: `GetExtendedAgentCard with this target's headers: ${errorMessage(error)}` }
  }
  const card = AgentCard.toJSON(extended) as Record<string, unknown>
  const differences = jsonDiff(AgentCard.toJSON(options.publicCard) as Record<string, unknown>, card)
  return {
    status: 'called',
    reason: `GetExtendedAgentCard with this target's headers for ${options.credentialsFor}: ${differences.length ? `${differences.length} difference(s) from the public card` : 'the same as the public card'}`,
    count: extended.skills.length,
    extendedCard: { card, differences },
  }
}
