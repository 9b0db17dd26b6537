import { describe, expect, it } from 'vitest'
import type { EngineEvent } from '../../shared/contract'
import { applyEvent, latestDiscovery, newConnectionView, statusTone } from '../../renderer/src/store/connectionView'

const base = { connectionId: 'demo:tools#1', ts: 1 }
let seq = 0
const ev = (e: Record<string, unknown>) => ({ ...base, seq: ++seq, ...e }) as unknown as EngineEvent

describe('the UI store folds events into a connection view', () => {
  it('tracks state, health, catalog and oddities, appending in place', () => {
    const first = ev({ type: 'connection', state: 'connecting', targetId: 'demo:tools', targetName: 'Demo', protocol: 'mcp' })
    const view = newConnectionView(first)
    applyEvent(view, first)
    const frames = view.frames
    applyEvent(view, ev({ type: 'frame', direction: 'out', kind: 'request', method: 'initialize', payload: {}, bytes: 10 }))
    applyEvent(
      view,
      ev({ type: 'discovery', method: 'tools/list', status: 'called', trigger: 'initial', reason: '', items: [{ name: 'a' }] }),
    )
    applyEvent(view, ev({ type: 'connection', state: 'connected', targetId: 'demo:tools', targetName: 'Demo', protocol: 'mcp', pid: 42 }))
    expect(view.frames).toBe(frames) // same array: no copy per event
    expect(view.frames).toHaveLength(1)
    expect(view.catalog['tools/list']).toEqual([{ name: 'a' }])
    expect(statusTone(view)).toBe('ok')
    expect(view.pid).toBe(42)

    applyEvent(
      view,
      ev({ type: 'keepalive', probe: 'tools/list', ok: false, rttMs: 5, health: 'degraded', intervalMs: 100, consecutiveFailures: 1 }),
    )
    expect(statusTone(view)).toBe('warn')
    applyEvent(
      view,
      ev({ type: 'discovery', method: 'tools/list', status: 'skipped', trigger: 'list_changed', reason: 'ignored', oddity: true }),
    )
    expect(view.oddities).toBe(1)
    expect(latestDiscovery(view).map((d) => d.status)).toEqual(['skipped'])
    applyEvent(
      view,
      ev({
        type: 'connection',
        state: 'reconnecting',
        targetId: 'demo:tools',
        targetName: 'Demo',
        protocol: 'mcp',
        attempt: 1,
        maxAttempts: 5,
      }),
    )
    expect([view.health, statusTone(view), view.attempt]).toEqual(['down', 'bad', 1])
  })
})
