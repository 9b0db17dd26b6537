import { checkResend, resend } from '../resend'
import type { DomainHandlers } from './handler'

/** Requests seen in Frames, checked and sent again on their connection (as they were, or edited). */
export const requestCommands: DomainHandlers<'requests'> = {
  'requests.check': (input, engine) => checkResend(engine, input),
  'requests.resend': (input, engine) => resend(engine, input),
}
