import type { DomainHandlers } from './handler'

/** Each protocol's request shapes (the MCP SDK's schemas among them) load when a request is first checked. */
const resendModule = () => import('../resend')

/** Requests seen in Frames, checked and sent again on their connection (as they were, or edited). */
export const requestCommands: DomainHandlers<'requests'> = {
  'requests.check': async (input, engine) => (await resendModule()).checkResend(engine, input),
  'requests.resend': async (input, engine) => (await resendModule()).resend(engine, input),
}
