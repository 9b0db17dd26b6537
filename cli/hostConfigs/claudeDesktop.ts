import { appSettings, joinFor, type HostDefinition } from './host'

/** Claude Desktop: claude_desktop_config.json in its settings folder, servers under `mcpServers`. */
export const claudeDesktop: HostDefinition = {
  name: 'claude-desktop',
  label: 'Claude Desktop',
  userFile: (place) => joinFor(place, appSettings(place, 'Claude'), 'claude_desktop_config.json'),
  sections: [{ path: ['mcpServers'], protocol: 'mcp' }],
}
