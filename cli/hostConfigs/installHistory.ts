import { configEntries, parseConfig, type ConfigEntry } from './configText'
import type { Section } from './host'
import { launchOf, tapSplit, type Launch } from './tapEdits'

/**
 * From the backups install kept (newest first): whether an entry had no args before it was tapped, so
 * uninstall takes away the args install added. The newest backup holding the entry untapped, with the same
 * command, says; with none, the args stay (an empty list starts the server just the same).
 */
export function argsAbsentBefore(
  backups: readonly string[],
  sections: readonly Section[],
): (entry: ConfigEntry, original: Launch) => boolean {
  const versions = backups.map((text) => {
    try {
      return configEntries(parseConfig(text), sections)
    } catch {
      return []
    }
  })
  return (entry, original) => {
    const key = JSON.stringify(entry.path)
    for (const entries of versions) {
      const then = entries.find((candidate) => JSON.stringify(candidate.path) === key)
      const shape = then && launchOf(then)
      if (!shape || tapSplit(shape.launch.args) || shape.launch.command !== original.command) continue
      return !shape.argsGiven
    }
    return false
  }
}
