import type { DomainHandlers } from './handler'

/** Saved targets: listed (the demos first), saved, removed (closing their connections), imported from a config file. */
export const targetCommands: DomainHandlers<'targets'> = {
  'targets.list': (_, engine) => engine.targets.list(),
  'targets.save': async ({ approve, ...draft }, engine) => {
    const before = draft.id === undefined ? undefined : await engine.targets.get(draft.id)
    const saved = await engine.targets.save(draft)
    if (approve) await engine.approveTarget(saved)
    // Roots are the one thing a live session takes up at once: its server is told they changed.
    if (before && JSON.stringify(before.roots ?? []) !== JSON.stringify(saved.roots ?? [])) await engine.rootsChanged(saved)
    return saved
  },
  'targets.remove': async ({ id }, engine) => {
    for (const connection of engine.connectionsOf(id)) await engine.closeConnection(connection.id)
    return { removed: await engine.targets.remove(id) }
  },
  'targets.import': ({ text, fileName, only }, engine) => engine.targets.import(text, fileName, only),
  'targets.previewImport': ({ text, fileName }, engine) => engine.targets.previewImport(text, fileName),
}
