// What the CLI says when things go wrong, checked the way a user or a script would check it: the exit
// code, the one JSON object on stdout, the text on stdout and stderr. Against real servers: the fixture
// servers over stdio, the demos, and HTTP servers on 127.0.0.1 that answer as broken or guarded ones do.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createToolServer } from '../../shared/demo/mcpServers'
import { startSseServer } from '../../shared/demo/httpServers'
import { cliRunner, type CliRun } from '../fixtures/cli'
import { demoBuy } from '../fixtures/demoBuy'

const TSX = createRequire(import.meta.url).resolve('tsx')
const DEMO_RECORDING = fileURLToPath(new URL('../../shared/demo/recordings/media-buying.jsonl', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'parallax-cli-truth-'))

const parallax = cliRunner(join(dir, 'data'))

/** The one JSON object a --json run prints: exactly one line on stdout. */
function oneObject(
  run: CliRun,
): Record<string, unknown> & { error?: { kind: string; message: string; cause: Record<string, unknown> | null } } {
  const lines = run.stdout.trim().split('\n')
  expect(lines, run.stdout + run.stderr).toHaveLength(1)
  return JSON.parse(lines[0])
}

/** A fixture server over stdio, as a user would type it. */
const fixture = (name: string, ...args: string[]) =>
  `stdio:${[process.execPath, '--import', TSX, fileURLToPath(new URL(`../fixtures/servers/${name}.ts`, import.meta.url)), ...args].join(' ')}`

/** An HTTP server on 127.0.0.1 that answers every request with `answer`. */
async function httpServer(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => answer(req, res))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server }
}

const servers: Server[] = []
let refusedPort: number
beforeAll(async () => {
  // A port nothing listens on: bound, then released.
  const { server } = await httpServer(() => {})
  refusedPort = (server.address() as AddressInfo).port
  await new Promise((resolve) => server.close(resolve))
})
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
  rmSync(dir, { recursive: true, force: true })
})

async function serve(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const { url, server } = await httpServer(answer)
  servers.push(server)
  return url
}

describe('a server that dies while it is inspected', () => {
  it('is a finding: state down, the probes that ran, the exit code and the cause, in JSON and in text (exit 1)', async () => {
    // fixture-dying exits with code 3, 300 ms after initialize; five probes 200 ms apart cannot all run.
    const json = await parallax('inspect', fixture('dying', 'always'), '--probes', '5', '--interval', '200', '--json')
    expect(json.code).toBe(1)
    const report = oneObject(json) as unknown as {
      keepalive: { state: string; requested: number; probes: { ok: boolean }[] }
      connection: { state: string; reason?: string; cause?: { exit?: { code: number }; stderr?: string[]; command?: string } }[]
      findings: string[]
    }
    expect(report.keepalive.state).toBe('down')
    expect(report.keepalive.requested).toBe(5)
    expect(report.keepalive.probes.length).toBeLessThan(5)
    expect(report.findings[0]).toMatch(/^the server went down after \d of 5 probe\(s\): server process exited with code 3$/)
    const failed = report.connection.find((c) => c.state === 'failed')
    expect(failed?.reason).toBe('down: server process exited with code 3')
    expect(failed?.cause).toMatchObject({ exit: { code: 3 }, stderr: ['fixture-dying: exiting now'] })
    expect(failed?.cause?.command).toContain('dying.ts always')

    const text = await parallax('inspect', fixture('dying', 'always'), '--probes', '5', '--interval', '200')
    expect(text.code).toBe(1)
    expect(text.stdout).toMatch(/keepalive by ping every 200 ms: down \(\d of 5 probe\(s\) ran\)/)
    expect(text.stdout).not.toMatch(/: healthy/)
    expect(text.stdout).toMatch(/connection lost: server process exited with code 3/)
    expect(text.stdout).toMatch(/stderr\s+fixture-dying: exiting now/)
    expect(text.stdout).toMatch(/1 finding\(s\):\n {2}- the server went down/)
  }, 60_000)

  it('a server that lives through the probes is no finding (exit 0)', async () => {
    const run = await parallax('inspect', 'demo:prompts', '--probes', '2', '--interval', '150', '--json')
    expect(run.code).toBe(0)
    expect(oneObject(run)).toMatchObject({ keepalive: { state: 'healthy', requested: 2 }, findings: [] })
  })
})

describe('--json: one object on every exit path, failures included', () => {
  it('a refused port: every command prints {format, error} naming host:port, exit 2', async () => {
    const url = `http://127.0.0.1:${refusedPort}/mcp`
    const runs: [string, string[]][] = [
      ['parallax.inspect/1', ['inspect', `mcp:${url}`]],
      ['parallax.call/1', ['call', `mcp:${url}`, 'get_products']],
      ['parallax.conversation/1', ['converse', `mcp:${url}`, '--turn', '{"tool":"get_products"}']],
      ['parallax.record/1', ['record', `mcp:${url}`, '--turn', '{"tool":"get_products"}', '--out', join(dir, 'refused.jsonl')]],
      ['parallax.replay/1', ['replay', DEMO_RECORDING, '--target', `mcp:${url}`]],
      ['parallax.compare/1', ['compare', 'demo:tools', `mcp:${url}`]],
    ]
    for (const [format, args] of runs) {
      const run = await parallax(...args, '--json')
      expect(run.code, args.join(' ')).toBe(2)
      const object = oneObject(run)
      expect(object.format).toBe(format)
      expect(object.error).toMatchObject({
        kind: 'connection',
        message: expect.stringContaining(`connection refused at 127.0.0.1:${refusedPort} (ECONNREFUSED)`),
        cause: { code: 'ECONNREFUSED', address: `127.0.0.1:${refusedPort}`, request: { method: 'POST', url } },
      })
      expect(run.stderr).toMatch(new RegExp(`network\\s+ECONNREFUSED at 127\\.0\\.0\\.1:${refusedPort}`))
    }
  }, 120_000)

  it('usage mistakes, once the command is known: {format, error: {kind: usage, cause: null}}, exit 2', async () => {
    const runs: [string, string[], RegExp][] = [
      ['parallax.inspect/1', ['inspect'], /exactly one target/],
      ['parallax.inspect/1', ['inspect', 'demo:prompts', '--no-such-flag'], /Unknown option '--no-such-flag'/],
      ['parallax.inspect/1', ['inspect', 'demo:prompts', '--log-level', 'loud'], /--log-level is one of debug, info/],
      ['parallax.call/1', ['call', 'demo:tools'], /a target and a tool/],
      ['parallax.conversation/1', ['converse', 'demo:tools'], /at least one --turn/],
      ['parallax.record/1', ['record', 'demo:tools', '--turn', '{"tool":"x"}'], /--out FILE/],
      ['parallax.replay/1', ['replay', 'no-such-file.jsonl', '--target', 'demo:tools'], /cannot read no-such-file\.jsonl/],
      ['parallax.compare/1', ['compare'], /one target .* or two targets/],
    ]
    for (const [format, args, message] of runs) {
      const run = await parallax(...args, '--json')
      expect(run.code, args.join(' ')).toBe(2)
      const object = oneObject(run)
      expect(object).toEqual({ format, error: { kind: 'usage', message: expect.stringMatching(message), cause: null } })
    }
  }, 60_000)

  it('without --json, stdout stays empty and stderr says it', async () => {
    const run = await parallax('inspect')
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(/^parallax inspect: inspect takes exactly one target/)
  })
})

describe('connection errors name the real cause', () => {
  it('a 401 with its challenge: the status, the server’s words and WWW-Authenticate, and no SSE fallback', async () => {
    const challenge = 'Bearer realm="parallax-test", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"'
    const url = await serve((_req, res) =>
      res
        .writeHead(401, { 'WWW-Authenticate': challenge, 'Content-Type': 'application/json' })
        .end(JSON.stringify({ error: 'invalid_token', error_description: 'a bearer token is required' })),
    )
    const run = await parallax('inspect', `mcp:${url}`, '--json')
    expect(run.code).toBe(2)
    const { error } = oneObject(run)
    expect(error?.kind).toBe('connection')
    expect(error?.message).toContain(
      `POST ${url} answered HTTP 401 Unauthorized: a bearer token is required (WWW-Authenticate: ${challenge})`,
    )
    expect(error?.message).not.toMatch(/SSE error|404/)
    expect(error?.cause).toMatchObject({
      transport: 'streamable-http',
      request: { method: 'POST', url },
      status: 401,
      challenge,
      message: 'a bearer token is required',
      fallback: { tried: false, why: expect.stringContaining('credentials') },
    })
    expect(run.stderr).toContain(`challenge WWW-Authenticate: ${challenge}`)
    expect(run.stderr).toMatch(/fallback\s+not tried: HTTP 401 is about credentials/)
  })

  it('a 400 with the server’s message is shown as the 400, not as the 405 a legacy SSE attempt would meet', async () => {
    const url = await serve((req, res) =>
      req.method === 'GET'
        ? res.writeHead(405).end()
        : res.writeHead(400, { 'Content-Type': 'application/json' }).end(
            JSON.stringify({
              jsonrpc: '2.0',
              error: { code: -32600, message: 'unsupported protocol version, supported: 2026-07-28' },
              id: null,
            }),
          ),
    )
    const run = await parallax('call', `mcp:${url}`, 'anything', '--json')
    expect(run.code).toBe(2)
    const { error } = oneObject(run)
    expect(error?.message).toContain('answered HTTP 400 Bad Request: unsupported protocol version, supported: 2026-07-28')
    expect(error?.message).not.toMatch(/HTTP 405|\(405\)|SSE error/)
    expect(error?.cause).toMatchObject({
      status: 400,
      message: 'unsupported protocol version, supported: 2026-07-28',
      fallback: { tried: false },
    })
    expect(error?.cause?.fallback).toMatchObject({ why: expect.stringContaining('only a 404 or 405') })
  })

  it('a 404 is tried again as legacy SSE, and both answers are shown, with why the fallback was tried', async () => {
    const url = await serve((_req, res) => res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no MCP endpoint here'))
    const run = await parallax('inspect', `mcp:${url}`, '--json')
    expect(run.code).toBe(2)
    const { error } = oneObject(run)
    expect(error?.message).toContain(`streamable HTTP POST ${url} answered HTTP 404 Not Found: no MCP endpoint here`)
    expect(error?.message).toContain(`then, tried because of the 404, legacy SSE GET ${url} answered HTTP 404`)
    expect(error?.cause).toMatchObject({
      transport: 'sse',
      request: { method: 'GET', url },
      status: 404,
      fallback: {
        tried: true,
        why: expect.stringContaining('backwards compatibility'),
        first: { transport: 'streamable-http', status: 404 },
      },
    })
    expect(run.stderr).toMatch(/first attempt:\n\s+transport streamable-http\n\s+request\s+POST/)
    expect(run.stderr).toMatch(/fallback\s+tried legacy SSE: the first POST answered HTTP 404/)
  })

  it('a legacy SSE server: connected over SSE, and the report says a fallback was made and why', async () => {
    const server = await startSseServer(createToolServer)
    try {
      const json = await parallax('inspect', `mcp:${server.url}`, '--probes', '0', '--json')
      expect(json.code).toBe(0)
      const report = oneObject(json) as { transport?: string; handshake?: { fallback?: Record<string, unknown> } }
      expect(report.transport).toBe('sse')
      expect(report.handshake?.fallback).toMatchObject({
        from: 'streamable-http',
        why: expect.stringContaining('HTTP 405'),
        first: { status: 405, request: { method: 'POST' } },
      })
      const text = await parallax('inspect', `mcp:${server.url}`, '--probes', '0')
      expect(text.stdout).toMatch(/transport {3}legacy SSE, after streamable HTTP failed: the first POST answered HTTP 405/)
    } finally {
      await server.close()
    }
  })

  it('a stdio server that exits before the handshake: the whole command line, its exit code and its stderr', async () => {
    const marker = join(dir, 'died-once')
    writeFileSync(marker, 'ran before') // then-gone: every run after the first exits with code 4 before initialize
    const target = fixture('dying', 'then-gone', marker)
    const commandLine = target.slice('stdio:'.length)
    const run = await parallax('converse', target, '--turn', '{"tool":"x"}', '--json')
    expect(run.code).toBe(2)
    const { error } = oneObject(run)
    expect(error?.message).toBe(
      `cannot connect: the server process exited with code 4 before the handshake completed (${commandLine}); stderr: fixture-dying: cannot start`,
    )
    expect(error?.cause).toMatchObject({
      transport: 'stdio',
      command: commandLine,
      exit: { code: 4 },
      stderr: ['fixture-dying: cannot start'],
    })
    expect(run.stderr).toContain(`command   ${commandLine}`)
    expect(run.stderr).toMatch(/exited\s+with code 4/)
  })

  it('a stdio command that cannot run: named whole, its secrets redacted', async () => {
    const run = await parallax('inspect', 'stdio:/nonexistent/server --flag --token s3cret', '--json')
    expect(run.code).toBe(2)
    const { error } = oneObject(run)
    expect(error?.message).toMatch(/^cannot connect: cannot run \/nonexistent\/server --flag --token '\[redacted\]': spawn .*ENOENT/)
    expect(error?.cause).toMatchObject({ code: 'ENOENT', command: "/nonexistent/server --flag --token '[redacted]'" })
    expect(run.stdout + run.stderr).not.toContain('s3cret')
  })

  it('an A2A agent whose port refuses: host:port, not "fetch failed"', async () => {
    const run = await parallax('inspect', `a2a:http://127.0.0.1:${refusedPort}`, '--json')
    expect(run.code).toBe(2)
    const { error } = oneObject(run)
    expect(error?.message).toContain(`connection refused at 127.0.0.1:${refusedPort} (ECONNREFUSED)`)
    expect(error?.cause).toMatchObject({
      code: 'ECONNREFUSED',
      request: { method: 'GET', url: expect.stringContaining('agent-card.json') },
    })
  })
})

describe('every connection failure names its cause and host:port, never only "fetch failed"', () => {
  it('a port fetch refuses before connecting (9, a "bad port"), for an MCP server and an A2A agent: --json and text', async () => {
    for (const [target, request] of [
      ['mcp:http://127.0.0.1:9/mcp', { method: 'POST', url: 'http://127.0.0.1:9/mcp' }],
      ['a2a:http://127.0.0.1:9', { method: 'GET', url: 'http://127.0.0.1:9/.well-known/agent-card.json' }],
    ] as const) {
      const run = await parallax('inspect', target, '--json')
      expect(run.code, target).toBe(2)
      const { error } = oneObject(run)
      expect(error).toMatchObject({
        kind: 'connection',
        message: expect.stringContaining(
          'refused by fetch before connecting: port 9 is a "bad port" (one kept for another protocol) at 127.0.0.1:9',
        ),
        cause: { address: '127.0.0.1:9', error: 'fetch failed: bad port', request },
      })
      const text = await parallax('inspect', target)
      expect(text.code).toBe(2)
      expect(text.stderr).toMatch(/network\s+fetch failed: bad port at 127\.0\.0\.1:9/)
      expect(text.stderr).not.toMatch(/: fetch failed(\n|$)/m)
    }
  })

  it('TLS where the server speaks none (https at a plain http port): named, with host:port', async () => {
    const { url, server } = await httpServer((_req, res) => res.writeHead(404).end())
    servers.push(server)
    const tls = url.replace('http:', 'https:')
    const port = new URL(url).port
    const run = await parallax('inspect', `mcp:${tls}`, '--json')
    const { error } = oneObject(run)
    expect(error?.message).toContain(
      `the server did not answer in TLS (plain http at an https URL?) at 127.0.0.1:${port} (ERR_SSL_WRONG_VERSION_NUMBER)`,
    )
    expect(error?.cause).toMatchObject({
      code: 'ERR_SSL_WRONG_VERSION_NUMBER',
      address: `127.0.0.1:${port}`,
      error: 'fetch failed: wrong version number',
    })
  })
})

describe('one definition of a failed turn', () => {
  const unknownProduct = demoBuy({ product_id: 'prod_nope' }, { idempotency_key: 'acme-unknown-product-01' })

  it('a tool result with isError: call, converse and record all call it a failed turn and exit 1', async () => {
    const call = await parallax('call', 'demo:tools', 'create_media_buy', '--args', JSON.stringify(unknownProduct), '--json')
    expect(call.code).toBe(1)
    const report = oneObject(call) as { response: { isError: boolean }; findings: string[] }
    expect(report.response.isError).toBe(true)
    expect(report.findings).toEqual(['the tool answered with an error (isError): PRODUCT_NOT_FOUND: unknown product_id "prod_nope"'])

    const text = await parallax('call', 'demo:tools', 'create_media_buy', '--args', JSON.stringify(unknownProduct))
    expect(text.code).toBe(1)
    expect(text.stdout).toMatch(/1 finding\(s\):\n {2}- the tool answered with an error \(isError\)/)

    const turn = JSON.stringify({ tool: 'create_media_buy', arguments: unknownProduct })
    const converse = await parallax('converse', 'demo:tools', '--turn', turn, '--json')
    expect(converse.code).toBe(1)
    expect((oneObject(converse) as { turns: { state: string }[] }).turns[0].state).toBe('error')

    const out = join(dir, 'failed-turn.jsonl')
    const record = await parallax('record', 'demo:tools', '--turn', turn, '--out', out, '--json')
    expect(record.code).toBe(1)
    expect(oneObject(record)).toMatchObject({ format: 'parallax.record/1', failed: 1, turns: [{ turn: 1, state: 'error' }] })
    expect(existsSync(out)).toBe(true)
    expect(readFileSync(out, 'utf8')).toContain('prod_nope')
  }, 60_000)

  it('a call answered without a failure is no finding (exit 0)', async () => {
    const run = await parallax('call', 'demo:tools', 'list_creative_formats', '--args', '{"name_search":"audio"}', '--json')
    expect(run.code).toBe(0)
    expect(oneObject(run)).toMatchObject({ findings: [] })
  })
})

describe('the text report', () => {
  it('labels a list_changed re-discovery as such', async () => {
    // fixture-growing-tools adds a tool 200 ms after initialize and says so with tools/list_changed.
    const run = await parallax('inspect', fixture('growingTools'), '--probes', '2', '--interval', '400')
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/called {2}tools\/list\s+1 item\(s\) in [\d.]+ ms\n/)
    expect(run.stdout).toMatch(/called {2}tools\/list\s+2 item\(s\) in [\d.]+ ms {2}\[re-discovery after list_changed\]/)
  })
})

describe('--log-level', () => {
  it('asks a server that advertises logging (logging/setLevel after connecting), and shows what it said', async () => {
    const run = await parallax('inspect', fixture('serverLogs'), '--log-level', 'warning', '--probes', '0', '--frames', '--json')
    expect(run.code).toBe(0)
    const report = oneObject(run) as {
      logLevel: unknown
      frames: { direction: string; method?: string; payload: { params?: unknown } }[]
      serverLog: unknown[]
    }
    expect(report.logLevel).toEqual({ level: 'warning', sent: true })
    const asked = report.frames.filter((f) => f.direction === 'out' && f.method === 'logging/setLevel')
    expect(asked).toHaveLength(1)
    expect(asked[0].payload.params).toMatchObject({ level: 'warning' })
    const initialized = report.frames.findIndex((f) => f.method === 'notifications/initialized')
    expect(report.frames.indexOf(asked[0])).toBeGreaterThan(initialized)
    expect(report.serverLog).toContainEqual({ level: 'info', logger: 'startup', text: 'fixture-server-logs is up' })

    const text = await parallax(
      'call',
      fixture('serverLogs'),
      'log',
      '--args',
      '{"level":"error","logger":"db","data":"disk full"}',
      '--log-level',
      'debug',
    )
    expect(text.code).toBe(0)
    expect(text.stderr).toContain('log level: asked the server for "debug" and above (logging/setLevel)')
    expect(text.stderr).toContain('server error [db]: disk full')
  })

  it('skips a server that did not advertise logging, and says why', async () => {
    const run = await parallax(
      'inspect',
      fixture('serverLogs', 'unadvertised'),
      '--log-level',
      'debug',
      '--probes',
      '0',
      '--frames',
      '--json',
    )
    expect(run.code).toBe(0)
    const report = oneObject(run) as { logLevel: unknown; frames: { method?: string }[] }
    expect(report.logLevel).toEqual({
      level: 'debug',
      sent: false,
      skipped: expect.stringContaining('did not advertise the "logging" capability'),
    })
    expect(report.frames.some((f) => f.method === 'logging/setLevel')).toBe(false)

    const converse = await parallax('converse', 'demo:a2a', '--turn', 'hello', '--log-level', 'info')
    expect(converse.stderr).toMatch(/log level: skipped: this A2A connection has no log level to set/)
    const text = await parallax('inspect', 'demo:prompts', '--log-level', 'debug', '--probes', '0')
    expect(text.stdout).toMatch(/log level debug: skipped: this server did not advertise the "logging" capability/)
  })
})
