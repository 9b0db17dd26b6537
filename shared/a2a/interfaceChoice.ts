import type { AgentInterface } from '@a2a-js/sdk'
import { A2A_BINDINGS, type A2aBindingPreference } from '../contract'
import { grpcEndpoint } from './grpcEndpoint'

/** The bindings Parallax has a client for. */
const USABLE = A2A_BINDINGS

export type BindingPreference = A2aBindingPreference

/** Where an interface sends what Parallax sends it: its URL's origin (a gRPC `host:port` too), or undefined when it has none. */
export function interfaceOrigin(i: Pick<AgentInterface, 'url' | 'protocolBinding'>): string | undefined {
  if (i.protocolBinding.toUpperCase() === 'GRPC') return grpcEndpoint(i.url)?.origin
  return URL.canParse(i.url) ? new URL(i.url).origin : undefined
}

export interface InterfaceChoice {
  chosen: AgentInterface
  reason: string
  /** The chosen interface's origin, when it is not one the user allowed (configured or approved). */
  foreignOrigin?: string
}

/**
 * Picks the one interface Parallax will talk to, so the card view can name exactly what is used: the
 * binding the target prefers (or the card's own order), v1.0 before older versions of a binding, and
 * interfaces on an origin the user allowed before any other. Throws when none can be used.
 */
export function chooseInterface(
  interfaces: AgentInterface[],
  preferred: BindingPreference,
  isAllowed: (origin: string) => boolean,
): InterfaceChoice {
  const bindingOf = (i: AgentInterface) => USABLE.find((b) => b.toLowerCase() === i.protocolBinding.toLowerCase())
  const originOf = interfaceOrigin
  const usable = interfaces.filter((i) => bindingOf(i) && originOf(i) && (preferred === 'auto' || bindingOf(i) === preferred))
  if (usable.length === 0) {
    const offered = [...new Set(interfaces.map((i) => i.protocolBinding || '?'))].join(', ') || 'none'
    throw new Error(
      preferred === 'auto'
        ? `no interface Parallax can use (offered: ${offered}; usable: ${USABLE.join(', ')})`
        : `the card offers no ${preferred} interface (offered: ${offered})`,
    )
  }
  const bindingOrder = [...new Set(usable.map(bindingOf))]
  const rank = (i: AgentInterface) => [
    isAllowed(originOf(i)!) ? 0 : 1,
    bindingOrder.indexOf(bindingOf(i)),
    i.protocolVersion.startsWith('1') ? 0 : 1,
    usable.indexOf(i),
  ]
  const chosen = [...usable].sort((a, b) => compareRanks(rank(a), rank(b)))[0]
  const origin = originOf(chosen)!
  const legacy = chosen.protocolVersion.startsWith('0.') ? '; it speaks v0.3, so calls go through the SDK’s v0.3 compatibility layer' : ''
  const skipped = interfaces.length - interfaces.filter(bindingOf).length
  const why =
    preferred !== 'auto'
      ? `because this target prefers ${preferred}`
      : `the first of the card's ${interfaces.length} interface(s) that Parallax can use${skipped ? ` (${skipped} of an unknown binding skipped)` : ''}`
  const elsewhere =
    usable.some((i) => !isAllowed(originOf(i)!)) && isAllowed(origin) ? '; interfaces on origins you have not allowed come last' : ''
  return {
    chosen,
    reason: `${bindingOf(chosen)} ${chosen.protocolVersion} at ${chosen.url}: ${why}${elsewhere}${legacy}`,
    ...(!isAllowed(origin) && { foreignOrigin: origin }),
  }
}

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i]
  return 0
}
