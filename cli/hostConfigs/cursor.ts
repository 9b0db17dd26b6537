import { joinFor, type HostDefinition } from './host'

/** Cursor: ~/.cursor/mcp.json for the user, .cursor/mcp.json in a project, servers under `mcpServers`. */
export const cursor: HostDefinition = {
  name: 'cursor',
  label: 'Cursor',
  userFile: (place) => joinFor(place, place.home, '.cursor', 'mcp.json'),
  projectFile: (place) => joinFor(place, place.cwd, '.cursor', 'mcp.json'),
  sections: [{ path: ['mcpServers'], protocol: 'mcp' }],
}
