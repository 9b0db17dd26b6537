import { describe, expect, it } from 'vitest'
import type { EngineEvent } from '../../shared/contract'
import { applyEvent, newConnectionView } from '../../renderer/src/store/connectionView'

let seq = 0
const ev = (e: Record<string, unknown>) => ({ connectionId: 'logs#1', ts: 1, seq: ++seq, ...e }) as unknown as EngineEvent

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
