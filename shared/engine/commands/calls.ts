import type { DomainHandlers } from './handler'

/** Inspected calls (a tool, or an A2A skill), and the pre-validation hooks they run through. */
export const callCommands: DomainHandlers<'tools' | 'hooks'> = {
  'tools.call': ({ connectionId, tool, arguments: args, task }, engine) => engine.callTool(connectionId, tool, args, undefined, { task }),
  'hooks.load': ({ connectionId, path }, engine) => engine.loadHooks(connectionId, path),
  'hooks.clear': ({ connectionId }, engine) => ({ cleared: engine.clearHooks(connectionId) }),
  'hooks.files': (_, engine) => engine.hooksFiles.list(),
  'hooks.browse': (_, engine) => engine.hooksFiles.browse(),
}
