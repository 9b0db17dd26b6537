import { appData, joinFor, xdgConfig, type HostDefinition } from './host'

/**
 * Zed: settings.json (JSON with comments) in ~/.config/zed on macOS and Linux (XDG_CONFIG_HOME when set),
 * %APPDATA%\Zed on Windows, .zed/settings.json in a project. MCP servers are `context_servers` ({command, args,
 * env}, or the older {command: {path, args, env}}); ACP agents are `agent_servers` ({command, args, env}).
 */
export const zed: HostDefinition = {
  name: 'zed',
  label: 'Zed',
  userFile: (place) =>
    place.platform === 'win32'
      ? joinFor(place, appData(place), 'Zed', 'settings.json')
      : joinFor(place, place.platform === 'darwin' ? joinFor(place, place.home, '.config') : xdgConfig(place), 'zed', 'settings.json'),
  projectFile: (place) => joinFor(place, place.cwd, '.zed', 'settings.json'),
  sections: [
    { path: ['context_servers'], protocol: 'mcp' },
    { path: ['agent_servers'], protocol: 'acp' },
  ],
}
