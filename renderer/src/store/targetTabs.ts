import type { SavedTarget } from '../../../shared/contract'
import { TABS } from './store'

/** Whether a target has authorization to show: a server or agent over HTTP (stdio has none), not a built-in demo (which asks for none). */
export function hasAuth(target: SavedTarget): boolean {
  return target.origin !== 'demo' && (target.spec.kind === 'mcp-http' || target.spec.kind === 'a2a')
}

/**
 * The tabs a target's page has, for the page, the palette and the number keys alike: Auth only where there
 * is authorization; no Calls for an ACP agent, whose calls are prompts (its Conversation).
 */
export function targetTabs(target: SavedTarget): typeof TABS {
  return TABS.filter((t) => (t.id !== 'auth' || hasAuth(target)) && (t.id !== 'calls' || target.spec.kind !== 'acp'))
}
