import { describe, expect, it } from 'vitest'
import type { EngineEvent } from '../../shared/contract'
import { duration } from '../../renderer/src/components/format'
import { applyEvent, newConnectionView } from '../../renderer/src/store/connectionView'
import { fuzzyMatch } from '../../renderer/src/shell/fuzzyMatch'

let seq = 0
const ev = (e: Record<string, unknown>) => ({ connectionId: 'logs#1', ts: 1, seq: ++seq, ...e }) as unknown as EngineEvent

describe('durations read as the user set them', () => {
  it('never "2000 ms" for 2 seconds', () => {
    expect([300, 1000, 1500, 2000, 15_000, 60_000, 90_000, 3_600_000].map(duration)).toEqual([
      '300 ms',
      '1 s',
      '1.5 s',
      '2 s',
      '15 s',
      '1 min',
      '1 min 30 s',
      '60 min',
    ])
  })
})

describe('the command palette matches fuzzily', () => {
  it('finds letters in order, prefers word starts and runs, and says where', () => {
    expect(fuzzyMatch('sbs', 'Side by side')?.at).toEqual([0, 5, 8])
    expect(fuzzyMatch('rec', 'Record this connection')?.at).toEqual([0, 1, 2])
    expect(fuzzyMatch('xyz', 'Side by side')).toBeUndefined()
    // A later word start is taken only when the rest still fits after it.
    expect(fuzzyMatch('abc', 'axb c b')?.at).toEqual([0, 2, 4])
    const run = fuzzyMatch('frames', 'Frames')!.score
    const scattered = fuzzyMatch('frames', 'Refresh: run discovery again, with all frames')!.score
    expect(run).toBeGreaterThan(scattered)
    expect(fuzzyMatch('', 'anything')).toEqual({ score: 0, at: [] })
  })
})

describe('the log folds into the connection view', () => {
  it('counts the log’s oddities and follows logging/setLevel on the wire, reset by a new session', () => {
    const first = ev({ type: 'connection', state: 'connecting', targetId: 'logs', targetName: 'logs', protocol: 'mcp' })
    const view = newConnectionView(first)
    applyEvent(view, first)
    applyEvent(view, ev({ type: 'handshake', protocol: 'mcp', serverCapabilities: { logging: {} } }))
    applyEvent(view, ev({ type: 'log', source: 'engine', level: 'warn', text: 'protocol oddity: …', oddity: true }))
    applyEvent(view, ev({ type: 'log', source: 'server', level: 'info', text: 'hi', server: { level: 'notice' } }))
    expect([view.oddities, view.logOddities]).toEqual([1, 1])
    const setLevel = (direction: string, kind: string, payload: unknown) =>
      applyEvent(view, ev({ type: 'frame', direction, kind, method: 'logging/setLevel', payload, bytes: 1 }))
    setLevel('out', 'request', { params: { level: 'warning' } })
    expect(view.logLevel).toBeUndefined()
    setLevel('in', 'response', { result: {} })
    expect(view.logLevel).toBe('warning')
    setLevel('out', 'request', { params: { level: 'debug' } })
    setLevel('in', 'error', { error: { code: -32602, message: 'no' } })
    expect(view.logLevel).toBe('warning') // refused: still what the server agreed to before
    applyEvent(view, ev({ type: 'handshake', protocol: 'mcp', serverCapabilities: { logging: {} } }))
    expect(view.logLevel).toBeUndefined() // a new session starts at the server's default
  })
})
