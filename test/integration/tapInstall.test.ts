import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'jsonc-parser'
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { tapInstall } from '../../cli/tapInstall'

// `parallax tap install --host H` makes a host's stdio servers start through `parallax tap`, and `uninstall` puts
// them back: on real config files (each host's own shape, comments, odd layouts, CRLF) in a temporary home, run
// in this process and as a process of its own. Nothing else in a file changes, and uninstall gives back its bytes.

const root = mkdtempSync(join(tmpdir(), 'parallax-tap-install-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const CLI_SCRIPT = fileURLToPath(new URL('../../cli/parallax.mjs', import.meta.url))

/** A fresh home: HOME, XDG_CONFIG_HOME, APPDATA, Parallax's data folder, and a bin folder with a `parallax` that prints its argv as JSON. */
function freshHome() {
  const home = mkdtempSync(join(root, 'home-'))
  const bin = join(home, 'bin')
  mkdirSync(bin)
  const parallax = join(bin, 'parallax')
  writeFileSync(parallax, `#!${process.execPath}\nprocess.stdout.write(JSON.stringify(process.argv.slice(2)))\n`, { mode: 0o755 })
  return { home, bin, parallax, xdg: join(home, '.config'), data: join(home, 'parallax-data') }
}
type Home = ReturnType<typeof freshHome>

/** The config file of each host as it is found on Linux in `home`, with a realistic text. */
interface HostCase {
  host: string
  file: (h: Home) => string
  text: string
  /** The entries that are stdio servers, by their JSON path, and whether they are ACP agents. */
  tapped: { path: string[]; acp?: boolean; holder?: string }[]
  left: string[]
}

const CASES: HostCase[] = [
  {
    host: 'claude-desktop',
    file: (h) => join(h.xdg, 'Claude', 'claude_desktop_config.json'),
    text: `{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/Desktop", "/home/me/Down loads"],
      "env": {"DEBUG": "1"}
    },
    "git": {"command": "uvx", "args": ["mcp-server-git"]},
    "weather": {
      "command": "/opt/weather/bin/server"
    },
    "sleeping": { "command": "node", "args": ["sleep.js"], "disabled": true }
  },
  "globalShortcut": "Ctrl+Space"
}
`,
    tapped: [{ path: ['mcpServers', 'filesystem'] }, { path: ['mcpServers', 'git'] }, { path: ['mcpServers', 'weather'] }],
    left: ['sleeping'],
  },
  {
    host: 'claude-code',
    file: (h) => join(h.home, '.claude.json'),
    text: `{
  "numStartups": 42,
  "theme": "dark",
  "mcpServers": {
    "sentry": {
      "type": "http",
      "url": "https://mcp.sentry.dev/mcp"
    },
    "airtable": {
      "type": "stdio",
      "command": "npx",
      "args": [
        "-y",
        "airtable-mcp-server"
      ],
      "env": {
        "AIRTABLE_API_KEY": "pat-123"
      }
    }
  },
  "projects": {
    "/home/me/app": {
      "allowedTools": [],
      "mcpServers": {
        "db": {
          "type": "stdio",
          "command": "/home/me/app/bin/db-mcp",
          "args": [],
          "env": {}
        }
      },
      "hasTrustDialogAccepted": true
    }
  }
}`,
    tapped: [{ path: ['mcpServers', 'airtable'] }, { path: ['projects', '/home/me/app', 'mcpServers', 'db'] }],
    left: ['sentry'],
  },
  {
    host: 'cursor',
    file: (h) => join(h.home, '.cursor', 'mcp.json'),
    // Tabs and CRLF line endings, as a Windows editor leaves them.
    text: [
      '{',
      '\t"mcpServers": {',
      '\t\t"linear": {',
      '\t\t\t"url": "https://mcp.linear.app/sse"',
      '\t\t},',
      '\t\t"postgres": {',
      '\t\t\t"command": "docker",',
      '\t\t\t"args": [',
      '\t\t\t\t"run", "-i", "--rm",',
      '\t\t\t\t"-e", "DATABASE_URL",',
      '\t\t\t\t"mcp/postgres"',
      '\t\t\t],',
      '\t\t\t"env": { "DATABASE_URL": "postgresql://localhost/app" }',
      '\t\t}',
      '\t}',
      '}',
      '',
    ].join('\r\n'),
    tapped: [{ path: ['mcpServers', 'postgres'] }],
    left: ['linear'],
  },
  {
    host: 'vscode',
    file: (h) => join(h.xdg, 'Code', 'User', 'mcp.json'),
    text: `// VS Code MCP servers
{
    "inputs": [
        { "type": "promptString", "id": "github-token", "description": "GitHub token", "password": true }
    ],
    "servers": {
        /* remote, left alone */
        "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/" },
        "playwright": {
            "type": "stdio",
            "command": "npx",
            "args": ["@playwright/mcp@latest"],
            "env": { "TOKEN": "\${input:github-token}" } // from the prompt
        },
        "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "envFile": "\${workspaceFolder}/.env" }
    }
}
`,
    tapped: [{ path: ['servers', 'playwright'] }, { path: ['servers', 'memory'] }],
    left: ['github'],
  },
  {
    host: 'windsurf',
    file: (h) => join(h.home, '.codeium', 'windsurf', 'mcp_config.json'),
    text: `{
   "mcpServers": {
      "figma": { "serverUrl": "https://figma.example/mcp", "headers": { "Authorization": "Bearer x" } },
      "ollama": {
         "command": "py",
         "args": ["-m", "mcp_ollama_python"],
         "disabled": false,
         "env": {}
      },
      "git": { "command": "py", "args": ["-m", "mcp_server_git"], "disabled": true, "env": {} }
   }
}
`,
    tapped: [{ path: ['mcpServers', 'ollama'] }],
    left: ['figma', 'git'],
  },
  {
    host: 'zed',
    file: (h) => join(h.xdg, 'zed', 'settings.json'),
    // JSON with comments and trailing commas, as Zed writes and reads it.
    text: `// Zed settings
{
  "theme": "One Dark",
  "context_servers": {
    // a server of my own
    "local-mcp-server": {
      "source": "custom",
      "command": "some-command",
      "args": ["arg-1", "arg-2"],
      "env": {},
    },
    "older": {
      "command": {
        "path": "/usr/local/bin/older-mcp",
        "args": ["--stdio"],
        "env": { "LEVEL": "debug" },
      },
      "settings": {},
    },
    "from-extension": { "source": "extension", "settings": {} },
    "remote-mcp-server": { "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer <token>" } },
  },
  "agent_servers": {
    "My Agent": {
      "type": "custom",
      "command": "node",
      "args": ["~/projects/agent/index.js", "--acp"],
      "env": {},
    },
    "claude": { "env": { "CLAUDE_CODE_EXECUTABLE": "/usr/bin/claude" } },
  },
}
`,
    tapped: [
      { path: ['context_servers', 'local-mcp-server'] },
      { path: ['context_servers', 'older'], holder: 'command' },
      { path: ['agent_servers', 'My Agent'], acp: true },
    ],
    left: ['from-extension', 'remote-mcp-server', 'claude'],
  },
]

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `parallax tap <action> …` in a process of its own, with the home's environment. */
function runCli(h: Home, action: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_SCRIPT, 'tap', action, ...args], {
      cwd: h.home,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        HOME: h.home,
        XDG_CONFIG_HOME: h.xdg,
        APPDATA: join(h.home, 'AppData'),
        PARALLAX_DATA_DIR: h.data,
        PATH: `${h.bin}:${process.env.PATH}`,
      },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c) => (stdout += c))
    child.stderr.on('data', (c) => (stderr += c))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** Runs tapInstall in this process, with `h`'s data folder and PATH; what it printed. */
async function runHere(h: Home, action: 'install' | 'uninstall', ...args: string[]): Promise<Run> {
  vi.stubEnv('PARALLAX_DATA_DIR', h.data)
  vi.stubEnv('PATH', `${h.bin}:${process.env.PATH}`)
  let stdout = ''
  let stderr = ''
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true))
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true))
  try {
    return { code: await tapInstall(args, action), stdout, stderr }
  } finally {
    out.mockRestore()
    err.mockRestore()
  }
}
afterEach(() => vi.unstubAllEnvs())

/** Walks a parsed document by a JSON path. */
function at(value: unknown, path: string[]): Record<string, unknown> {
  return path.reduce((v, key) => (v as Record<string, unknown>)[key], value) as Record<string, unknown>
}

function backups(h: Home, host: string): string[] {
  const folder = join(h.data, 'tap-backups', host)
  return existsSync(folder) ? readdirSync(folder) : []
}

describe.each(CASES)('$host', (c) => {
  let h: Home
  let file: string
  let original: Buffer
  beforeEach(() => {
    h = freshHome()
    file = c.file(h)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, c.text)
    original = readFileSync(file)
  })

  it('finds the config where the host keeps it, and a dry run lists every entry and writes nothing', async () => {
    const run = await runCli(h, 'install', '--host', c.host, '--json')
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const report = JSON.parse(run.stdout)
    expect(report).toMatchObject({ format: 'parallax.tap-install/1', host: c.host, file, action: 'install', written: false })
    expect(report.backup).toBeUndefined()
    const statuses = Object.fromEntries(report.entries.map((e: { name: string; status: string }) => [e.name, e.status]))
    for (const t of c.tapped) expect(statuses[t.path.at(-1)!]).toBe('wrapped')
    for (const name of c.left) expect(statuses[name]).toBe('left')
    expect(readFileSync(file).equals(original)).toBe(true)
    expect(backups(h, c.host)).toEqual([])

    const text = await runHere(h, 'install', '--host', c.host, '--config', file)
    expect(text.code).toBe(0)
    expect(text.stdout).toContain('nothing written: add --write')
    expect(text.stdout).toMatch(/^\s+- \d+ \|/m) // the lines before…
    expect(text.stdout).toMatch(/^\s+\+ \d+ \| .*"tap"/m) // …and after
    expect(readFileSync(file).equals(original)).toBe(true)
  })

  it('wraps exactly the stdio entries, runnable as they were, and uninstall gives back the same bytes', async () => {
    const installed = await runHere(h, 'install', '--host', c.host, '--config', file, '--write')
    expect(installed.stderr).toBe('')
    expect(installed.code).toBe(0)
    const [backup] = backups(h, c.host)
    expect(readFileSync(join(h.data, 'tap-backups', c.host, backup)).equals(original)).toBe(true)
    expect(statSync(join(h.data, 'tap-backups', c.host, backup)).mode & 0o777).toBe(0o600)
    expect(statSync(join(h.data, 'tap-backups', c.host)).mode & 0o777).toBe(0o700)

    // The document is the same but for the tapped entries' command and args.
    const before = parse(c.text)
    const after = parse(readFileSync(file, 'utf8'))
    const expected = structuredClone(before)
    for (const t of c.tapped) {
      const launch = (doc: unknown) => (t.holder ? at(doc, [...t.path, t.holder]) : at(doc, t.path))
      const was = launch(before)
      const key = t.holder ? 'path' : 'command'
      Object.assign(launch(expected), {
        [key]: h.parallax,
        args: ['tap', '--name', t.path.at(-1)!, ...(t.acp ? ['--protocol', 'acp'] : []), '--', was[key], ...((was.args as string[]) ?? [])],
      })
      // What the host would run starts Parallax's tap with the original command line after `--`.
      const now = launch(after)
      const argv = JSON.parse(spawnSync(now[key] as string, now.args as string[], { encoding: 'utf8' }).stdout) as string[]
      expect(argv.slice(argv.indexOf('--') + 1)).toEqual([was[key], ...((was.args as string[]) ?? [])])
    }
    expect(after).toEqual(expected)
    if (c.text.includes('\r\n')) expect(readFileSync(file, 'utf8').replace(/\r\n/g, '')).not.toContain('\n')

    const wrapped = readFileSync(file)
    // A second install changes nothing: every entry is already tapped (or left as before), no new backup.
    const again = await runHere(h, 'install', '--host', c.host, '--config', file, '--write')
    expect(again.code).toBe(0)
    expect(again.stdout).toContain('nothing to change')
    for (const t of c.tapped) expect(again.stdout).toContain(`${t.path.at(-1)} (`)
    expect(again.stdout.match(/already tapped/g)).toHaveLength(c.tapped.length)
    expect(readFileSync(file).equals(wrapped)).toBe(true)
    expect(backups(h, c.host)).toHaveLength(1)

    // uninstall: a dry run first, then the file as it was, byte for byte.
    const dry = await runHere(h, 'uninstall', '--host', c.host, '--config', file)
    expect(dry.stdout.match(/: unwrapped/g)).toHaveLength(c.tapped.length)
    expect(readFileSync(file).equals(wrapped)).toBe(true)
    const removed = await runCli(h, 'uninstall', '--host', c.host, '--write', '--json')
    expect(removed.code).toBe(0)
    expect(JSON.parse(removed.stdout)).toMatchObject({ action: 'uninstall', written: true })
    expect(readFileSync(file).equals(original)).toBe(true)
  })
})

describe('a file edited after install', () => {
  it('keeps the user’s edits when it is uninstalled', async () => {
    const h = freshHome()
    const file = join(h.home, 'mcp.json')
    writeFileSync(
      file,
      `{\n  "mcpServers": {\n    "a": { "command": "srv", "args": ["--x"], "env": {} },\n    "b": { "command": "other" }\n  }\n}\n`,
    )
    expect((await runHere(h, 'install', '--host', 'cursor', '--config', file, '--write')).code).toBe(0)
    const edited = readFileSync(file, 'utf8')
      .replace('"--x"]', '"--x", "--verbose"]')
      .replace('"env": {}', '"env": { "K": "v" }')
      .replace('  }\n}', '  },\n  "extra": true\n}')
    writeFileSync(file, edited)
    expect((await runHere(h, 'uninstall', '--host', 'cursor', '--config', file, '--write')).code).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(
      `{\n  "mcpServers": {\n    "a": { "command": "srv", "args": ["--x", "--verbose"], "env": { "K": "v" } },\n    "b": { "command": "other" }\n  },\n  "extra": true\n}\n`,
    )
  })

  it('without a parallax on PATH, starts Parallax’s own CLI with this Node', async () => {
    const h = freshHome()
    rmSync(h.parallax)
    const file = join(h.home, 'mcp.json')
    writeFileSync(file, `{"mcpServers": {"a": {"command": "srv", "args": ["--x"]}}}`)
    expect((await runHere(h, 'install', '--host', 'cursor', '--config', file, '--write')).code).toBe(0)
    expect(parse(readFileSync(file, 'utf8')).mcpServers.a).toEqual({
      command: process.execPath,
      args: [CLI_SCRIPT, 'tap', '--name', 'a', '--', 'srv', '--x'],
    })
    expect((await runHere(h, 'uninstall', '--host', 'cursor', '--config', file, '--write')).code).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(`{"mcpServers": {"a": {"command": "srv", "args": ["--x"]}}}`)
  })

  it('--server taps only the entries named', async () => {
    const h = freshHome()
    const file = join(h.home, 'mcp.json')
    writeFileSync(file, `{"mcpServers": {"a": {"command": "one"}, "b": {"command": "two"}}}`)
    const run = await runHere(h, 'install', '--host', 'cursor', '--config', file, '--server', 'b', '--write')
    expect(run.code).toBe(0)
    const servers = parse(readFileSync(file, 'utf8')).mcpServers
    expect(servers.a).toEqual({ command: 'one' })
    expect(servers.b.args).toEqual(['tap', '--name', 'b', '--', 'two'])
  })
})

describe('bad input', () => {
  it('a host with no config file says so and exits 0; a --config that is missing exits 2', async () => {
    const h = freshHome()
    const none = await runCli(h, 'install', '--host', 'windsurf')
    expect(none.code).toBe(0)
    expect(none.stdout).toContain(`Windsurf has no config at ${join(h.home, '.codeium', 'windsurf', 'mcp_config.json')}: nothing to do`)
    // A project's own config is pointed to when the user has none.
    writeFileSync(join(h.home, '.mcp.json'), `{"mcpServers": {}}`)
    rmSync(join(h.home, '.claude.json'), { force: true })
    const project = await runCli(h, 'install', '--host', 'claude-code')
    expect(project.code).toBe(0)
    expect(project.stdout).toContain(
      `this project has its own: parallax tap install --host claude-code --config ${join(h.home, '.mcp.json')}`,
    )
    const missing = await runHere(h, 'install', '--host', 'cursor', '--config', join(h.home, 'nope.json'))
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain(`${join(h.home, 'nope.json')} does not exist`)
  })

  it('a file that does not parse: the error with its line and column, nothing written', async () => {
    const h = freshHome()
    const file = join(h.home, 'mcp.json')
    const text = `{\n  "mcpServers": {\n    "a": { "command": "one" }\n    "b": { "command": "two" }\n  }\n}\n`
    writeFileSync(file, text)
    const run = await runCli(h, 'install', '--host', 'cursor', '--config', file, '--write', '--json')
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`${file}:4:5: comma expected: nothing written`)
    expect(JSON.parse(run.stdout)).toMatchObject({ format: 'parallax.tap-install/1', error: { kind: 'usage' } })
    expect(readFileSync(file, 'utf8')).toBe(text)
    expect(backups(h, 'cursor')).toEqual([])
  })

  it('an unknown host: exit 2, listing the known ones', async () => {
    const run = await runHere(freshHome(), 'install', '--host', 'emacs')
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('unknown host "emacs": Parallax knows claude-desktop, claude-code, cursor, vscode, windsurf, zed')
  })

  it('a read-only file: exit 2, nothing written, no backup', async () => {
    const h = freshHome()
    const file = join(h.home, 'mcp.json')
    const text = `{"mcpServers": {"a": {"command": "one"}}}`
    writeFileSync(file, text)
    chmodSync(file, 0o444)
    const run = await runHere(h, 'install', '--host', 'cursor', '--config', file, '--write')
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`${file} is read-only: nothing written`)
    expect(readFileSync(file, 'utf8')).toBe(text)
    expect(backups(h, 'cursor')).toEqual([])
  })

  it('an entry named with --server that the file does not have: exit 2, naming those it has', async () => {
    const h = freshHome()
    const file = join(h.home, 'mcp.json')
    writeFileSync(file, `{"mcpServers": {"a": {"command": "one"}}}`)
    const run = await runHere(h, 'install', '--host', 'cursor', '--config', file, '--server', 'zz')
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`no entry named "zz" in ${file} (it has a)`)
  })
})
