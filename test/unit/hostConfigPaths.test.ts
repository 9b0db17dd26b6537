import { expect, it } from 'vitest'
import type { Place } from '../../cli/hostConfigs/host'
import { HOSTS } from '../../cli/hostConfigs/hosts'

// Where each host keeps its config, on each platform, as its documentation says (env overrides included).

const linux: Place = { platform: 'linux', env: {}, home: '/home/me', cwd: '/home/me/app' }
const mac: Place = { platform: 'darwin', env: {}, home: '/Users/me', cwd: '/Users/me/app' }
const windows: Place = {
  platform: 'win32',
  env: { APPDATA: 'C:\\Users\\me\\AppData\\Roaming' },
  home: 'C:\\Users\\me',
  cwd: 'C:\\Users\\me\\app',
}
const files = (place: Place) => Object.fromEntries(HOSTS.map((host) => [host.name, [host.userFile(place), host.projectFile?.(place)]]))

it('finds each host’s config files on Linux, macOS and Windows', () => {
  expect(files(linux)).toEqual({
    'claude-desktop': ['/home/me/.config/Claude/claude_desktop_config.json', undefined],
    'claude-code': ['/home/me/.claude.json', '/home/me/app/.mcp.json'],
    cursor: ['/home/me/.cursor/mcp.json', '/home/me/app/.cursor/mcp.json'],
    vscode: ['/home/me/.config/Code/User/mcp.json', '/home/me/app/.vscode/mcp.json'],
    windsurf: ['/home/me/.codeium/windsurf/mcp_config.json', undefined],
    zed: ['/home/me/.config/zed/settings.json', '/home/me/app/.zed/settings.json'],
  })
  expect(files(mac)).toMatchObject({
    'claude-desktop': ['/Users/me/Library/Application Support/Claude/claude_desktop_config.json', undefined],
    vscode: ['/Users/me/Library/Application Support/Code/User/mcp.json', '/Users/me/app/.vscode/mcp.json'],
    zed: ['/Users/me/.config/zed/settings.json', '/Users/me/app/.zed/settings.json'],
  })
  expect(files(windows)).toEqual({
    'claude-desktop': ['C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json', undefined],
    'claude-code': ['C:\\Users\\me\\.claude.json', 'C:\\Users\\me\\app\\.mcp.json'],
    cursor: ['C:\\Users\\me\\.cursor\\mcp.json', 'C:\\Users\\me\\app\\.cursor\\mcp.json'],
    vscode: ['C:\\Users\\me\\AppData\\Roaming\\Code\\User\\mcp.json', 'C:\\Users\\me\\app\\.vscode\\mcp.json'],
    windsurf: ['C:\\Users\\me\\.codeium\\windsurf\\mcp_config.json', undefined],
    zed: ['C:\\Users\\me\\AppData\\Roaming\\Zed\\settings.json', 'C:\\Users\\me\\app\\.zed\\settings.json'],
  })
})

it('follows XDG_CONFIG_HOME on Linux and CLAUDE_CONFIG_DIR for Claude Code', () => {
  const place = { ...linux, env: { XDG_CONFIG_HOME: '/xdg', CLAUDE_CONFIG_DIR: '/cc' } }
  expect(files(place)).toMatchObject({
    'claude-desktop': ['/xdg/Claude/claude_desktop_config.json', undefined],
    'claude-code': ['/cc/.claude.json', '/home/me/app/.mcp.json'],
    vscode: ['/xdg/Code/User/mcp.json', '/home/me/app/.vscode/mcp.json'],
    zed: ['/xdg/zed/settings.json', '/home/me/app/.zed/settings.json'],
  })
})
