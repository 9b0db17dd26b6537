import type { DomainHandlers } from './handler'

/** What servers ask their client (sampling, elicitation) and a person answers: the answer, handed to the connection that waits for it. */
export const serverRequestCommands: DomainHandlers<'serverRequests'> = {
  'serverRequests.answer': ({ connectionId, id, answer }, engine) => {
    engine.answerServerRequest(connectionId, id, answer)
    return { answered: true }
  },
}
