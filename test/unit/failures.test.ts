import { describe, expect, it } from 'vitest'
import { answerState, causeLines, isFailedTurn, SavedTarget, turnFailure, toolResultState } from '../../shared/contract'
import { errorMessage, jsonRpcErrorWords, networkFailure } from '../../shared/runtime/errors'

describe('one definition of a failed turn', () => {
  it('an MCP tool result with isError, an A2A task failed or rejected, a turn that got no answer', () => {
    expect(toolResultState({ content: [], isError: true })).toBe('error')
    expect(toolResultState({ content: [] })).toBe('completed')
    expect(answerState({ content: [{ type: 'text', text: 'nope' }], isError: true })).toBe('error')
    expect(answerState({ id: 't1', contextId: 'c1', status: { state: 'failed' }, artifacts: [] })).toBe('failed')
    expect(answerState({ messageId: 'm1', role: 'agent', parts: [{ text: 'hi' }] })).toBe('message')
    expect(answerState(null)).toBe('unknown')
    expect(['error', 'failed', 'rejected'].every(isFailedTurn)).toBe(true)
    expect(['completed', 'input-required', 'canceled', 'message', 'unknown', undefined].some(isFailedTurn)).toBe(false)
  })

  it('says why, in the agent’s words', () => {
    expect(turnFailure({ content: [{ type: 'text', text: 'unknown product_id "x"' }], isError: true })).toBe(
      'the tool answered with an error (isError): unknown product_id "x"',
    )
    expect(
      turnFailure({
        id: 't',
        contextId: 'c',
        artifacts: [],
        status: { state: 'rejected', message: { parts: [{ text: 'budget too low' }] } },
      }),
    ).toBe('the task ended rejected: budget too low')
    expect(turnFailure({ content: [{ type: 'text', text: 'fine' }] })).toBeUndefined()
    expect(turnFailure({ id: 't', contextId: 'c', artifacts: [], status: { state: 'completed' } })).toBeUndefined()
  })
})

describe('network failures under "fetch failed"', () => {
  it('names the code and the host:port, from the error or from the URL', () => {
    const refused = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 9 }),
    })
    expect(networkFailure(refused)).toEqual({
      code: 'ECONNREFUSED',
      address: '127.0.0.1:9',
      phrase: 'connection refused',
      detail: 'fetch failed: connect ECONNREFUSED 127.0.0.1:9',
    })
    // localhost tried on both families: an AggregateError holds one error per address.
    const both = new TypeError('fetch failed', {
      cause: Object.assign(
        new AggregateError([
          Object.assign(new Error('a'), { code: 'ECONNREFUSED', address: '::1', port: 3000 }),
          Object.assign(new Error('b'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 3000 }),
        ]),
        { code: 'ECONNREFUSED' },
      ),
    })
    expect(networkFailure(both)?.address).toBe('[::1]:3000, 127.0.0.1:3000')
    const unknownHost = new TypeError('fetch failed', {
      cause: Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' }),
    })
    expect(networkFailure(unknownHost, 'https://nowhere.test/mcp')).toEqual({
      code: 'ENOTFOUND',
      address: 'nowhere.test:443',
      phrase: 'host not found',
      detail: 'fetch failed: getaddrinfo ENOTFOUND nowhere.test',
    })
    expect(networkFailure(new Error('MCP error -32001: Request timed out'))).toBeUndefined()
  })

  it('names every other way fetch fails to reach a server, with the host:port: a bad port, a certificate, TLS, a timeout', async () => {
    // Real errors from this runtime's fetch, not made-up shapes: port 9 is one fetch refuses before connecting.
    const badPort = await fetch('http://127.0.0.1:9/mcp').catch((e: unknown) => e)
    expect(networkFailure(badPort, 'http://127.0.0.1:9/mcp')).toEqual({
      address: '127.0.0.1:9',
      phrase: 'refused by fetch before connecting: port 9 is a "bad port" (one kept for another protocol)',
      detail: 'fetch failed: bad port',
    })
    const timedOut = await fetch('http://127.0.0.1:9/mcp', { signal: AbortSignal.abort(new DOMException('late', 'TimeoutError')) }).catch(
      (e: unknown) => e,
    )
    expect(networkFailure(timedOut, 'http://127.0.0.1:9/mcp')).toMatchObject({
      address: '127.0.0.1:9',
      phrase: 'timed out waiting for an answer',
    })
    const cert = (code: string, message: string) => new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) })
    expect(networkFailure(cert('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'), 'https://inner.test/a2a')).toEqual({
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      address: 'inner.test:443',
      phrase: 'the server’s certificate is self-signed (not trusted)',
      detail: 'fetch failed: self-signed certificate',
    })
    expect(networkFailure(cert('CERT_HAS_EXPIRED', 'certificate has expired'), 'https://old.test')?.phrase).toBe(
      'the server’s certificate has expired',
    )
    const openssl = cert(
      'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
      '80DCEB443F7F0000:error:0A000410:SSL routines:ssl3_read_bytes:sslv3 alert handshake failure:../ssl/record/rec_layer_s3.c:1584:',
    )
    expect(networkFailure(openssl, 'https://old.test:8443')).toMatchObject({
      address: 'old.test:8443',
      phrase: 'TLS failed: sslv3 alert handshake failure',
    })
  })
})

describe('a failure cause as text', () => {
  it('a fallback: the first attempt, why the fallback, then the last attempt', () => {
    const lines = causeLines({
      transport: 'sse',
      request: { method: 'GET', url: 'http://h/mcp' },
      status: 404,
      fallback: {
        tried: true,
        why: 'a 404',
        first: { transport: 'streamable-http', request: { method: 'POST', url: 'http://h/mcp' }, status: 404 },
      },
    })
    expect(lines).toEqual([
      '  first attempt:',
      '    transport streamable-http',
      '    request   POST http://h/mcp',
      '    answer    HTTP 404',
      '  fallback  tried legacy SSE: a 404',
      '  transport sse',
      '  request   GET http://h/mcp',
      '  answer    HTTP 404',
    ])
  })
})

describe("a target's own options", () => {
  it('are not filled with the schema defaults, which would override the engine’s (the CLI’s --timeout, no reconnects)', () => {
    const target = SavedTarget.parse({ id: 't', name: 't', spec: { kind: 'mcp-stdio', command: 'x' }, options: { requestTimeoutMs: 500 } })
    expect(target.options).toEqual({ requestTimeoutMs: 500 })
    expect(() =>
      SavedTarget.parse({ id: 't', name: 't', spec: { kind: 'mcp-stdio', command: 'x' }, options: { requestTimeoutMs: 5 } }),
    ).toThrow()
  })
})

describe('a JSON-RPC error’s code is said once', () => {
  it('for every code: the SDK’s "MCP error <code>: " taken off however often it came, another code’s kept', () => {
    for (const code of [-1, 0, 7, -32002, -32602, -32603]) {
      const prefix = `MCP error ${code}: `
      expect(jsonRpcErrorWords(`${prefix}${prefix}${prefix}disk full`, code)).toBe('disk full')
      expect(jsonRpcErrorWords('disk full', code)).toBe('disk full')
      expect(errorMessage(Object.assign(new Error(`${prefix}${prefix}disk full`), { code }))).toBe(`${prefix}disk full`)
    }
    // The server's words naming another error are its own.
    expect(jsonRpcErrorWords('MCP error -32602: bad uri', -32603)).toBe('MCP error -32602: bad uri')
  })
})
