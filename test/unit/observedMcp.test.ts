import { describe, expect, it } from 'vitest'
import type { EngineEvent, EventInput } from '../../shared/contract'
import { ObservedSession } from '../../shared/tap/observedSession'

// What Parallax concludes about a host from what it sends: the wire as a misbehaving host would write it
// (real hosts built on the SDK do not make these mistakes on purpose, so the messages are written here).

function watch() {
  const events: EngineEvent[] = []
  let seq = 0
  const session = new ObservedSession({
    connectionId: 'tap-1',
    name: 'files',
    transport: 'stdio',
    observed: { via: 'stdio', command: 'files-server' },
    emit: (input: EventInput) => {
      const event = Object.assign(input, { seq: ++seq, ts: input.ts ?? seq }) as EngineEvent
      events.push(event)
      return event
    },
  })
  let ts = 1_000
  const host = (message: object) => session.message('out', { jsonrpc: '2.0', ...message }, (ts += 10))
  const server = (message: object) => session.message('in', { jsonrpc: '2.0', ...message }, (ts += 10))
  const findings = () => events.filter((e) => e.type === 'log' && e.about === 'host').map((e) => (e as { text: string }).text)
  return { session, events, host, server, findings, end: () => session.end((ts += 10_000)) }
}

const initialize = (w: ReturnType<typeof watch>, capabilities: object) => {
  w.host({
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: { sampling: {} }, clientInfo: { name: 'Editor', version: '1.2' } },
  })
  w.server({ id: 0, result: { protocolVersion: '2025-11-25', capabilities, serverInfo: { name: 'files', version: '3' } } })
}

describe('an observed MCP session', () => {
  it('the handshake is the host’s: its name, version and capabilities, and the connection says who the host is', () => {
    const w = watch()
    initialize(w, { tools: { listChanged: true } })
    const handshake = w.events.find((e) => e.type === 'handshake')
    expect(handshake).toMatchObject({
      observed: true,
      clientInfo: { name: 'Editor', version: '1.2' },
      clientCapabilities: { sampling: {} },
    })
    const connected = w.events.find((e) => e.type === 'connection' && e.state === 'connected')
    expect(connected).toMatchObject({ owner: { purpose: 'tap', observed: { host: { name: 'Editor', version: '1.2' } } } })
  })

  it('a host listing what the server never advertised: the step is an oddity and a finding about the host', () => {
    const w = watch()
    initialize(w, { prompts: {} })
    w.host({ id: 1, method: 'tools/list' })
    w.server({ id: 1, error: { code: -32601, message: 'Method not found' } })
    const step = w.events.find((e) => e.type === 'discovery')
    expect(step).toMatchObject({ method: 'tools/list', status: 'failed', oddity: true, errorCode: -32601 })
    expect(w.findings()).toEqual(['the host called tools/list though the server did not advertise `tools`'])
  })

  it('a host ignoring list_changed, calling a tool from the old list and one never listed', () => {
    const w = watch()
    initialize(w, { tools: { listChanged: true } })
    w.host({ id: 1, method: 'tools/list' })
    w.server({
      id: 1,
      result: { tools: [{ name: 'read', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }] },
    })
    w.server({ method: 'notifications/tools/list_changed' })
    w.host({ id: 2, method: 'tools/call', params: { name: 'read', arguments: { path: 7 } } })
    w.server({ id: 2, result: { content: [{ type: 'text', text: 'ok' }] } })
    w.host({ id: 3, method: 'tools/call', params: { name: 'write', arguments: {} } })
    w.server({ id: 3, error: { code: -32602, message: 'unknown tool' } })
    w.end()
    expect(w.findings()).toEqual([
      'the host called "read" from a tool list the server had said was out of date',
      'the host called the tool "write", which the server did not list',
      'the host never listed tools again after the server said they changed (10.0 s)',
    ])
    const call = w.events.find((e) => e.type === 'call')
    expect(call).toMatchObject({ tool: 'read', validation: { raw: { valid: false } }, sent: true })
  })

  it('a host that lists again after list_changed: the step says why it came, and nothing is held against the host', () => {
    const w = watch()
    initialize(w, { tools: { listChanged: true } })
    w.host({ id: 1, method: 'tools/list' })
    w.server({ id: 1, result: { tools: [] } })
    w.server({ method: 'notifications/tools/list_changed' })
    w.host({ id: 2, method: 'tools/list' })
    w.server({ id: 2, result: { tools: [{ name: 'new', inputSchema: { type: 'object' } }] } })
    w.end()
    expect(w.events.filter((e) => e.type === 'discovery').map((e) => (e as { trigger: string }).trigger)).toEqual([
      'initial',
      'list_changed',
    ])
    expect(w.findings()).toEqual([])
  })

  it('pings are said with whose they were, and the server’s requests with how the host answered', () => {
    const w = watch()
    initialize(w, { tools: {} })
    w.server({ id: 's1', method: 'ping' })
    w.host({ id: 's1', result: {} })
    w.server({ id: 's2', method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } })
    w.host({ id: 's2', result: { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' } })
    expect(w.events.find((e) => e.type === 'keepalive')).toMatchObject({
      probe: 'ping',
      ok: true,
      note: 'sent by the server, answered by the host',
    })
    const asked = w.events.filter((e) => e.type === 'serverRequest').map((e) => [(e as { state: string }).state, (e as { by?: string }).by])
    expect(asked).toEqual([
      ['pending', undefined],
      ['answered', 'host'],
    ])
  })
})
