import { describe, expect, it } from 'vitest'
import { ProgressTokens, serverLogLine } from '../../shared/mcp/serverVoice'

describe('a server log message as a log line', () => {
  it('keeps the level as sent and its logger, on the log’s one scale', () => {
    expect(serverLogLine({ level: 'notice', logger: 'db', data: 'vacuum done' })).toEqual({
      level: 'info',
      text: 'vacuum done',
      server: { level: 'notice', logger: 'db' },
    })
    expect(serverLogLine({ level: 'emergency', data: { disk: 'full' } })).toMatchObject({ level: 'error', text: '{"disk":"full"}' })
    expect(serverLogLine({ level: 'warning', data: 1 }).level).toBe('warn')
  })

  it('names a level outside the spec, and survives whatever a server sends', () => {
    expect(serverLogLine({ level: 'verbose', data: 'x' })).toMatchObject({
      level: 'info',
      offLevel: 'verbose',
      server: { level: 'verbose' },
    })
    expect(serverLogLine({ level: 3 })).toMatchObject({ offLevel: '3', text: '(no data)' })
    expect(serverLogLine(undefined)).toMatchObject({ offLevel: 'null' })
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(() => serverLogLine({ level: 'info', data: cyclic })).not.toThrow()
    const long = serverLogLine({ level: 'info', logger: 'l'.repeat(1000), data: 'x'.repeat(100_000) })
    expect(long.text.length).toBeLessThanOrEqual(4_001)
    expect(long.server.logger).toHaveLength(200)
  })
})

describe('progress tokens', () => {
  it('tells progress for a request in progress, after its answer, never given, and going backwards apart', () => {
    const tokens = new ProgressTokens()
    tokens.given(6, 6, 'tools/call')
    expect(tokens.progress({ progressToken: 6, progress: 1 })).toEqual({ kind: 'ok' })
    expect(tokens.progress({ progressToken: '6', progress: 2 })).toEqual({ kind: 'ok' }) // the SDK reads "6" as 6 too
    expect(tokens.progress({ progressToken: 6, progress: 1 })).toEqual({
      kind: 'backwards',
      requestId: 6,
      method: 'tools/call',
      from: 2,
      to: 1,
    })
    tokens.finished(6)
    expect(tokens.progress({ progressToken: 6, progress: 3 })).toEqual({ kind: 'late', requestId: 6, method: 'tools/call', first: true })
    expect(tokens.progress({ progressToken: 6, progress: 4 })).toMatchObject({ kind: 'late', first: false })
    expect(tokens.progress({ progressToken: 'other', progress: 1 })).toEqual({ kind: 'unknown', token: '"other"' })
    tokens.reset()
    expect(tokens.progress({ progressToken: 6, progress: 5 }).kind).toBe('unknown')
  })

  it('remembers a bounded number of answered requests', () => {
    const tokens = new ProgressTokens()
    for (let id = 0; id < 1_500; id++) {
      tokens.given(id, id, 'tools/list')
      tokens.finished(id)
    }
    expect(tokens.progress({ progressToken: 1_499 }).kind).toBe('late')
    expect(tokens.progress({ progressToken: 0 }).kind).toBe('unknown')
  })
})
