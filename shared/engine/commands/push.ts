import type { DomainHandlers } from './handler'

/** A2A push notifications: a task's configs made (pointing at Parallax's webhook receiver), read, listed and removed. */
export const pushCommands: DomainHandlers<'pushConfigs'> = {
  'pushConfigs.create': ({ connectionId, taskId, expectWithinMs }, engine) =>
    engine.connection(connectionId).pushConfigs().create(taskId, expectWithinMs),
  'pushConfigs.get': ({ connectionId, taskId, configId }, engine) => engine.connection(connectionId).pushConfigs().get(taskId, configId),
  'pushConfigs.list': ({ connectionId, taskId }, engine) => engine.connection(connectionId).pushConfigs().list(taskId),
  'pushConfigs.delete': ({ connectionId, taskId, configId }, engine) =>
    engine.connection(connectionId).pushConfigs().delete(taskId, configId),
}
