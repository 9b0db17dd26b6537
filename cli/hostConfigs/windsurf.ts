import { joinFor, type HostDefinition } from './host'

/** Windsurf: ~/.codeium/windsurf/mcp_config.json on every platform, servers under `mcpServers`. */
export const windsurf: HostDefinition = {
  name: 'windsurf',
  label: 'Windsurf',
  userFile: (place) => joinFor(place, place.home, '.codeium', 'windsurf', 'mcp_config.json'),
  sections: [{ path: ['mcpServers'], protocol: 'mcp' }],
}
