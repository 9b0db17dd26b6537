import { z } from 'zod'
import { ServerRequestAnswer } from '../clientRole'
import { ConnectionRef } from './refs'

/** What servers ask their client (sampling, elicitation) and a person answers. */
export const serverRequestInputs = {
  /**
   * A person's answer to a request the server sent (sampling, elicitation) that waits for one: a result
   * (checked against the MCP schema for its method) or a rejection. Roots are answered from the target.
   */
  'serverRequests.answer': ConnectionRef.extend({ id: z.union([z.string().min(1).max(200), z.number()]), answer: ServerRequestAnswer }),
} as const

export interface ServerRequestOutputs {
  'serverRequests.answer': { answered: true }
}
