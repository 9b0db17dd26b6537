import type { DomainHandlers } from './handler'

/** MCP App views: opened from a connection's `ui://` resource, served by the host, their messages recorded, their tool calls inspected. */
export const appViewCommands: DomainHandlers<'apps'> = {
  'apps.open': ({ connectionId, uri, tool }, engine) => engine.apps.open(engine.connection(connectionId), uri, tool),
  'apps.document': ({ viewId }, engine) => engine.apps.document(viewId),
  'apps.frames': ({ viewId, frames }, engine) => ({ recorded: engine.apps.record(viewId, frames) }),
  'apps.callTool': ({ viewId, tool, arguments: args }, engine) => {
    const { connection, view } = engine.apps.checkToolCall(viewId, tool)
    return engine.callTool(connection.id, tool, args, view)
  },
  'apps.close': ({ viewId, reason }, engine) => ({ closed: engine.apps.close(viewId, reason) }),
}
