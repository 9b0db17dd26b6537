import { joinFor, type HostDefinition } from './host'

/**
 * Claude Code: the user's ~/.claude.json (in CLAUDE_CONFIG_DIR when set) holds user servers under `mcpServers`
 * and each project's under `projects[<path>].mcpServers`; a project's own are in .mcp.json at its root.
 */
export const claudeCode: HostDefinition = {
  name: 'claude-code',
  label: 'Claude Code',
  userFile: (place) => joinFor(place, place.env.CLAUDE_CONFIG_DIR || place.home, '.claude.json'),
  projectFile: (place) => joinFor(place, place.cwd, '.mcp.json'),
  sections: [
    { path: ['mcpServers'], protocol: 'mcp' },
    { path: ['projects', '*', 'mcpServers'], protocol: 'mcp' },
  ],
}
