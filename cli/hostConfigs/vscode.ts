import { appSettings, joinFor, type HostDefinition } from './host'

/**
 * VS Code: mcp.json in the user profile folder (Code/User in its settings folder) and .vscode/mcp.json in a
 * workspace, servers under `servers` (stdio ones have a command; http and sse ones a url, and are left alone).
 */
export const vscode: HostDefinition = {
  name: 'vscode',
  label: 'VS Code',
  userFile: (place) => joinFor(place, appSettings(place, 'Code'), 'User', 'mcp.json'),
  projectFile: (place) => joinFor(place, place.cwd, '.vscode', 'mcp.json'),
  sections: [{ path: ['servers'], protocol: 'mcp' }],
}
