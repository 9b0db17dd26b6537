import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { EngineEvent } from '../../shared/contract'
import { compareOutcomes } from '../../shared/session/parity'
import { openRecording, parseRecording } from '../../shared/session/recording'
import { redactDeep } from '../../shared/runtime/redaction'
import { turnsFromEvents } from '../../shared/session/turns'

const header = JSON.stringify({
  format: 'parallax.recording/1',
  app: { name: 'Parallax', version: '0.1.0' },
  startedAt: '2026-11-22T00:00:00Z',
  targets: [],
  mapping: { skillField: 'skill', inputField: 'input' },
})
const event = (seq: number) =>
  JSON.stringify({ type: 'log', seq, ts: seq, connectionId: 'c', source: 'engine', level: 'info', text: String(seq) })

describe('recordings', () => {
  it('load every good line and report each bad one by its number, the truncated last one as such', () => {
    const text = [header, event(1), '{not json', event(3), '{"no":"type"}', event(5), '{"type":"log","seq":6,"te'].join('\n')
    const loaded = parseRecording(text)
    expect(loaded.header?.format).toBe('parallax.recording/1')
    expect(loaded.events.map((e) => e.seq)).toEqual([1, 3, 5])
    expect(loaded.problems).toEqual([
      { line: 3, message: 'not valid JSON' },
      { line: 5, message: 'not an event (needs "type" and "seq")' },
      { line: 7, message: 'truncated: the last line is incomplete (was the recording interrupted?)' },
    ])
  })

  it('open for replay: every line is checked, a corrupt one and a cut-short last one are reported by number, no turn is lost', () => {
    const demo = readFileSync(fileURLToPath(new URL('../../shared/demo/recordings/media-buying.jsonl', import.meta.url)), 'utf8')
    const lines = demo.trimEnd().split('\n')
    const damaged = [...lines.slice(0, 4), '{"type":"frame","seq":', ...lines.slice(4), '', '{"type":"log","seq":9999,"te', '', ''].join(
      '\n',
    )
    const whole = parseRecording(demo)
    const opened = openRecording(damaged)
    expect(opened.header).toEqual(whole.header)
    expect(opened.events).toBe(whole.events.length)
    expect(opened.turns.length).toBeGreaterThan(1)
    expect(opened.turns).toEqual(turnsFromEvents(whole.events, whole.header?.mapping))
    expect(opened.problems).toEqual([
      { line: 5, message: 'not valid JSON' },
      { line: lines.length + 3, message: 'truncated: the last line is incomplete (was the recording interrupted?)' },
    ])
  })

  it('say when the header is missing', () => {
    expect(parseRecording([event(1), event(2)].join('\n')).problems[0]).toEqual({
      line: 1,
      message: 'the first line is not a parallax.recording/1 header',
    })
    expect(parseRecording('').problems).toEqual([{ line: 1, message: 'no header line' }])
  })
})

describe('redaction', () => {
  it('replaces secret-looking values at any depth, copying only what it changes', () => {
    const clean = { a: { b: [1, { c: 'x' }] } }
    expect(redactDeep(clean)).toBe(clean)
    const dirty = {
      spec: { headers: { Authorization: 'Bearer s3cret', Accept: 'json' }, env: { GITHUB_TOKEN: 't', PATH: '/bin' } },
      list: [{ api_key: 'k' }],
    }
    expect(redactDeep(dirty)).toEqual({
      spec: { headers: { Authorization: '[redacted]', Accept: 'json' }, env: { GITHUB_TOKEN: '[redacted]', PATH: '/bin' } },
      list: [{ api_key: '[redacted]' }],
    })
    expect(dirty.spec.headers.Authorization).toBe('Bearer s3cret')
    expect(redactDeep({ buyer_ref: 'x' }, ['buyer_ref'])).toEqual({ buyer_ref: '[redacted]' })
  })
})

describe('parity', () => {
  it('ignores volatile ids and timestamps, and the user’s pointers', () => {
    const a = { state: 'completed', data: { media_buy: { media_buy_id: 'mb_1', budget: 10 }, taskId: 'x', timestamp: 't1' } }
    const b = { state: 'completed', data: { media_buy: { media_buy_id: 'mb_2', budget: 10 }, taskId: 'y', timestamp: 't2' } }
    expect(compareOutcomes(a, b)).toEqual([{ path: '/data/media_buy/media_buy_id', op: 'replace', a: 'mb_1', b: 'mb_2' }])
    expect(compareOutcomes(a, b, ['/data/media_buy/media_buy_id'])).toEqual([])
    expect(compareOutcomes(a, { ...b, state: 'failed' }, ['/data'])).toEqual([
      { path: '/state', op: 'replace', a: 'completed', b: 'failed' },
    ])
  })
})

describe('turns', () => {
  const conv = (seq: number, role: 'user' | 'agent', turn: number, metadata: Record<string, unknown>, content = '') =>
    ({
      type: 'conversation',
      seq,
      ts: seq,
      connectionId: 'c',
      message: { role, content, timestamp: seq, metadata: { turn, timestampSource: 'observed', ...metadata } },
    }) as EngineEvent

  it('map MCP calls and A2A {skill, input} data parts to the same call, and keep text and other data as they are', () => {
    const turns = turnsFromEvents([
      conv(1, 'user', 1, { kind: 'call', data: { tool: 't', arguments: { a: 1 } } }),
      conv(2, 'agent', 1, { kind: 'result', data: { ok: true } }, '{"ok":true}'),
      conv(3, 'user', 2, { kind: 'message', data: { skill: 't', input: { a: 2 } } }),
      conv(4, 'agent', 2, { kind: 'artifact', data: { ok: 2 } }),
      conv(5, 'agent', 2, { kind: 'status', state: 'completed' }, 'done'),
      conv(6, 'user', 3, { kind: 'message' }, 'hello'),
      conv(7, 'user', 4, { kind: 'message', data: { free: 'form' } }),
    ])
    expect(turns.map((t) => t.turn)).toEqual([
      { kind: 'call', tool: 't', arguments: { a: 1 } },
      { kind: 'call', tool: 't', arguments: { a: 2 } },
      { kind: 'text', text: 'hello' },
      { kind: 'data', data: { free: 'form' } },
    ])
    expect(turns[0].recorded).toEqual({ outcome: 'completed', state: 'completed', data: { ok: true } })
    expect(turns[1].recorded).toEqual({ outcome: 'completed', state: 'completed', data: { ok: 2 } })
    expect(turns[2].recorded).toBeUndefined()
  })
})
