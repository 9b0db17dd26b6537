import type { DomainHandlers } from './handler'

/** The conversation on a connection (turns in either protocol), and the tasks of protocols that have them. */
export const conversationCommands: DomainHandlers<'conversation' | 'tasks'> = {
  'conversation.send': ({ connectionId, turn, stream, newContext }, engine) => engine.sendTurn(connectionId, turn, { stream, newContext }),
  'conversation.newContext': ({ connectionId }, engine) => {
    engine.connection(connectionId).newContext()
    return { ok: true }
  },
  'tasks.get': ({ connectionId, taskId, historyLength }, engine) => engine.connection(connectionId).tasks().getTask(taskId, historyLength),
  'tasks.list': ({ connectionId, contextId }, engine) => engine.connection(connectionId).tasks().listTasks(contextId),
  'tasks.cancel': ({ connectionId, taskId }, engine) => engine.connection(connectionId).tasks().cancelTask(taskId),
  'tasks.resubscribe': ({ connectionId, taskId }, engine) => engine.connection(connectionId).tasks().resubscribe(taskId),
}
