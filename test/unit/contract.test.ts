import { describe, expect, it } from 'vitest'
import { describeSpec, parseCommandInput, redactMap, splitCommandLine } from '../../shared/contract'
import { guardSender, isAppUrl } from '../../electron/main/ipcGuard'
import { Engine } from '../../shared/engine/engine'

describe('splitCommandLine', () => {
  it('splits like a shell for plain words, without any expansion', () => {
    expect(splitCommandLine(`npx -y "@scope/server name" --dir '/tmp/a b' x\\ y $HOME`)).toEqual([
      'npx',
      '-y',
      '@scope/server name',
      '--dir',
      '/tmp/a b',
      'x y',
      '$HOME',
    ])
    expect(splitCommandLine(`a "" b`)).toEqual(['a', '', 'b'])
    expect(splitCommandLine('  ')).toEqual([])
    expect(() => splitCommandLine('node "unterminated')).toThrow(/unterminated double quote/)
  })

  it('round-trips through describeSpec', () => {
    const args = ['--name', "it's here", 'plain']
    const line = describeSpec({ kind: 'mcp-stdio', command: 'my server', args, env: {} })
    expect(splitCommandLine(line)).toEqual(['my server', ...args])
  })
})

describe('redactMap', () => {
  it('hides values of secret-looking keys only', () => {
    expect(redactMap({ Authorization: 'Bearer x', API_KEY: 'k', GITHUB_TOKEN: 't', Cookie: 'c', LOG_LEVEL: 'debug' })).toEqual({
      Authorization: '[redacted]',
      API_KEY: '[redacted]',
      GITHUB_TOKEN: '[redacted]',
      Cookie: '[redacted]',
      LOG_LEVEL: 'debug',
    })
  })
})

describe('command schemas', () => {
  it('fill defaults and name the offending field', () => {
    const draft = parseCommandInput('targets.save', { name: 'x', spec: { kind: 'mcp-stdio', command: 'node' } })
    expect(draft.spec).toEqual({ kind: 'mcp-stdio', command: 'node', args: [], env: {} })
    expect(() => parseCommandInput('connections.setKeepalive', { connectionId: 'c', intervalMs: 5 })).toThrow(/intervalMs/)
    expect(() => parseCommandInput('targets.save', { name: '', spec: { kind: 'mcp-stdio', command: 'node' } })).toThrow(
      /name: name is required/,
    )
  })
})

describe('Electron IPC guard', () => {
  const appUrl = 'file:///opt/parallax/dist/renderer/index.html'
  const mainFrame = { url: appUrl, isMainFrame: true }

  it('accepts the app page', () => {
    expect(() => guardSender(mainFrame, appUrl)).not.toThrow()
  })

  it('refuses subframes and other pages; the engine behind it refuses unknown commands and malformed payloads', async () => {
    expect(() => guardSender({ url: appUrl, isMainFrame: false }, appUrl)).toThrow(/not the main frame/)
    expect(() => guardSender({ url: 'https://evil.example/', isMainFrame: true }, appUrl)).toThrow(/not the Parallax UI/)
    expect(() => guardSender({ url: 'file:///tmp/other.html', isMainFrame: true }, appUrl)).toThrow(/not the Parallax UI/)
    const engine = new Engine({ host: 'electron' })
    await expect(engine.execute('shell.exec', {})).rejects.toThrow(/unknown command/)
    await expect(engine.execute('targets.save', { name: 'x', spec: { kind: 'mcp-stdio', command: 42 } })).rejects.toThrow(/invalid input/)
    await engine.dispose()
  })

  it('matches the dev server by origin and file pages by path', () => {
    expect(isAppUrl('http://127.0.0.1:5173/#/x', 'http://127.0.0.1:5173/')).toBe(true)
    expect(isAppUrl('http://127.0.0.1:5174/', 'http://127.0.0.1:5173/')).toBe(false)
    expect(isAppUrl('not a url', appUrl)).toBe(false)
  })
})
