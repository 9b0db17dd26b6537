import { posix, win32 } from 'node:path'

/** Where Parallax looks for a host's config: the platform, its environment, the home and working folders. */
export interface Place {
  platform: NodeJS.Platform
  env: NodeJS.ProcessEnv
  home: string
  cwd: string
}

/** A map of entries in a host's config, at `path` (`*` stands for every key of the object there). */
export interface Section {
  path: string[]
  /** What its entries speak: ACP agents are tapped with `--protocol acp`. */
  protocol: 'mcp' | 'acp'
}

/** A host that launches stdio MCP servers (or ACP agents) from a config file Parallax can edit. */
export interface HostDefinition {
  /** As given to --host. */
  name: string
  /** As people call it. */
  label: string
  /** The user's own config file, where the host keeps it on this platform. */
  userFile(place: Place): string
  /** A config file in the project (the working folder) the host reads too, if it has one. */
  projectFile?(place: Place): string
  sections: Section[]
}

/** Joins a path the way the platform does (a Windows path stays one when computed elsewhere, as in tests). */
export function joinFor(place: Place, ...parts: string[]): string {
  return (place.platform === 'win32' ? win32 : posix).join(...parts)
}

/** The home folder's `.config`, or XDG_CONFIG_HOME when set (Linux apps built on Electron, and Zed, honour it). */
export function xdgConfig(place: Place): string {
  return place.env.XDG_CONFIG_HOME || joinFor(place, place.home, '.config')
}

/** %APPDATA% on Windows (its usual place when unset). */
export function appData(place: Place): string {
  return place.env.APPDATA || joinFor(place, place.home, 'AppData', 'Roaming')
}

/** An app's folder for its settings: Application Support on macOS, %APPDATA% on Windows, the XDG config folder on Linux. */
export function appSettings(place: Place, app: string): string {
  if (place.platform === 'darwin') return joinFor(place, place.home, 'Library', 'Application Support', app)
  if (place.platform === 'win32') return joinFor(place, appData(place), app)
  return joinFor(place, xdgConfig(place), app)
}
