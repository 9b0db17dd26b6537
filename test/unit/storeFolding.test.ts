import { beforeEach, describe, expect, it } from 'vitest'
import type {
  BacklogPage,
  ConnectionEvent,
  ConnectionPurpose,
  ConnectionState,
  EngineEvent,
  EventInput,
  ReplayEvent,
  TurnParity,
} from '../../shared/contract'
import { useStore } from '../../renderer/src/store/store'
import { EventLog } from '../../shared/runtime/eventLog'

// The UI store is plain zustand: it folds events in Node as it does in the browser.
const initial = useStore.getState()
let seq = 0
beforeEach(() => {
  useStore.setState(initial, true)
  seq = 0
})

const at = (n?: number) => (n === undefined ? ++seq : (seq = n))
const connection = (connectionId: string, state: ConnectionState, n?: number, extra: Partial<ConnectionEvent> = {}) =>
  ({
    type: 'connection',
    seq: at(n),
    ts: seq,
    connectionId,
    state,
    targetId: connectionId.replace(/#\d+$/, ''),
    targetName: 'Demo',
    protocol: 'mcp',
    owner: { purpose: 'session', startedAt: 1 },
    ...extra,
  }) as EngineEvent
const owned = (purpose: ConnectionPurpose, by?: string) => ({ owner: { purpose, ...(by && { by }), startedAt: 2 } })
const frame = (connectionId: string, method: string, n?: number) =>
  ({
    type: 'frame',
    seq: at(n),
    ts: seq,
    connectionId,
    direction: 'out',
    protocol: 'mcp',
    transport: 'stdio',
    kind: 'request',
    method,
    payload: {},
    bytes: 2,
  }) as EngineEvent
const replay = (replayId: string, fields: Omit<ReplayEvent, 'type' | 'seq' | 'ts' | 'connectionId' | 'replayId'>) =>
  ({ type: 'replay', seq: at(), ts: seq, connectionId: `replay:${replayId}`, replayId, ...fields }) as EngineEvent
const turn = (index: number, status: TurnParity['status']): TurnParity => ({
  index,
  status,
  turn: { kind: 'text', text: `turn ${index}` },
  diff: [],
  connections: {},
})

const fold = (events: EngineEvent[]) => useStore.getState().applyEvents(events)
const state = () => useStore.getState()

describe('the UI store folds engine events', () => {
  it('skips what it has already folded where the backlog and the live stream overlap', () => {
    fold([connection('demo:tools#1', 'connecting', 1), frame('demo:tools#1', 'initialize', 2), frame('demo:tools#1', 'tools/list', 3)])
    // Live events that arrived while the backlog was in flight: 2 and 3 again, then 4.
    fold([frame('demo:tools#1', 'initialize', 2), frame('demo:tools#1', 'tools/list', 3), frame('demo:tools#1', 'ping', 4)])
    const view = state().connections['demo:tools#1']
    expect(view.frames.all().map((f) => f.method)).toEqual(['initialize', 'tools/list', 'ping'])
    expect(state().lastSeq).toBe(4)

    // A batch with nothing new leaves the store as it was: no new objects, no re-render.
    const before = state()
    fold([frame('demo:tools#1', 'ping', 4), connection('demo:tools#1', 'connected', 1)])
    expect(state()).toBe(before)
  })

  it('folds a batch that touches two connections into both, once each, and leaves the others alone', () => {
    fold([connection('demo:tools#1', 'connected'), connection('demo:a2a#2', 'connecting'), connection('demo:prompts#3', 'connected')])
    const [tools, a2a, prompts] = ['demo:tools#1', 'demo:a2a#2', 'demo:prompts#3'].map((id) => state().connections[id])
    fold([
      frame('demo:tools#1', 'tools/call'),
      connection('demo:a2a#2', 'connected'),
      frame('demo:a2a#2', 'SendMessage'),
      frame('demo:tools#1', 'ping'),
    ])

    const next = state().connections
    expect(next['demo:tools#1'].frames.all().map((f) => f.method)).toEqual(['tools/call', 'ping'])
    expect(next['demo:a2a#2'].state).toBe('connected')
    expect(next['demo:a2a#2'].frames).toHaveLength(1)
    // A touched view is a new object with its `rev` moved on once per batch, so selectors see the change;
    // its arrays are the same ones, appended in place.
    expect(next['demo:tools#1']).not.toBe(tools)
    expect(next['demo:tools#1'].rev).toBe(tools.rev + 1)
    expect(next['demo:a2a#2'].rev).toBe(a2a.rev + 1)
    expect(next['demo:tools#1'].frames).toBe(tools.frames)
    expect(next['demo:prompts#3']).toBe(prompts)
  })

  it('makes a target’s newest connection the one its page shows', () => {
    fold([connection('demo:tools#1', 'connecting'), connection('demo:tools#1', 'connected')])
    expect(state().latestByTarget).toEqual({ 'demo:tools': 'demo:tools#1' })

    fold([connection('demo:tools#1', 'closed'), connection('demo:tools#2', 'connecting')])
    expect(state().latestByTarget).toEqual({ 'demo:tools': 'demo:tools#2' })
    // The older connection keeps its view (its frames stay readable); only which one is shown moves on.
    expect(state().connections['demo:tools#1'].state).toBe('closed')

    // Traffic on a connection that is already the newest does not copy the map.
    const latest = state().latestByTarget
    fold([connection('demo:tools#2', 'connected'), frame('demo:tools#2', 'initialize')])
    expect(state().latestByTarget).toBe(latest)
  })

  it('shows only the user’s own session on a target’s page: a compare’s or a replay’s connection never takes its place', () => {
    fold([connection('demo:tools#1', 'connecting'), connection('demo:tools#1', 'connected')])
    fold([
      connection('demo:tools#2', 'connecting', undefined, owned('compare', 'c1')),
      connection('demo:tools#3', 'connecting', undefined, owned('replay', 'r1')),
      connection('demo:tools#4', 'connecting', undefined, owned('recording')),
      connection('demo:tools#2', 'closed', undefined, owned('compare', 'c1')),
    ])
    expect(state().latestByTarget).toEqual({ 'demo:tools': 'demo:tools#1' })
    expect(state().connections['demo:tools#3'].owner).toMatchObject({ purpose: 'replay', by: 'r1' })

    // A new session (Reconnect) does take over, within the same batch as the old one's closing.
    fold([connection('demo:tools#1', 'closed'), connection('demo:tools#5', 'connecting'), connection('demo:tools#5', 'connected')])
    expect(state().latestByTarget).toEqual({ 'demo:tools': 'demo:tools#5' })
  })

  it('counts what a recording writes from when it started, and says what was saved, with a way to replay it', () => {
    fold([connection('demo:tools#1', 'connected'), frame('demo:tools#1', 'initialize')])
    const started = { type: 'recording', seq: at(), ts: 1000, connectionId: 'demo:tools#1', state: 'started', name: 'mine', context: 3 }
    fold([started as EngineEvent, frame('demo:tools#1', 'tools/call'), frame('demo:tools#1', 'tools/call')])
    expect(state().connections['demo:tools#1'].recording).toEqual({ name: 'mine', startedAt: 1000, events: 5 })

    const stopped = {
      type: 'recording',
      seq: at(),
      ts: seq,
      connectionId: 'demo:tools#1',
      state: 'stopped',
      name: 'mine',
      lines: 6,
      events: 5,
      turns: 1,
    }
    fold([stopped as EngineEvent])
    expect(state().connections['demo:tools#1'].recording).toBeUndefined()
    expect(state().toast).toMatchObject({ text: 'Saved "mine": 5 events, 1 turn', tone: 'info', action: { label: 'Open in Replay' } })
  })

  it('tells the user when their session’s server came back after going away, but not when catching up on history', () => {
    const back = (n?: number) =>
      connection('demo:prompts#1', 'connected', n, {
        transport: 'stdio',
        pid: 7,
        reconnected: { cause: 'server process exited', downSince: 5 },
      })
    fold([connection('demo:prompts#1', 'connected', undefined, { transport: 'stdio' })])
    useStore.getState().applyEvents([back()], { live: false })
    expect(state().toast).toBeUndefined()
    expect(state().connections['demo:prompts#1'].reconnected).toMatchObject({ cause: 'server process exited', downSince: 5 })

    fold([back()])
    expect(state().toast?.text).toMatch(/restarted after "server process exited": state the server kept .* may be gone/)
  })

  it('folds replay progress into its replay, not into a connection', () => {
    const sides = { a: { label: 'Demo (MCP)', connectionId: 'demo:tools#1' }, b: { label: 'Demo (A2A)', connectionId: 'demo:a2a#2' } }
    fold([
      replay('r1', { phase: 'started', recording: 'media-buying', sides, total: 3 }),
      replay('r1', { phase: 'turn', turn: turn(1, 'same') }),
    ])
    expect(state().replays.r1).toMatchObject({ id: 'r1', recording: 'media-buying', sides, total: 3, finished: false })
    expect(state().replays.r1.turns.map((t) => t.status)).toEqual(['same'])

    const first = state().replays
    fold([
      replay('r1', { phase: 'turn', turn: turn(2, 'differs') }),
      replay('r1', { phase: 'finished', stopped: true, summary: { total: 3, same: 1, differs: 1, errors: 0, skipped: 0 } }),
    ])
    expect(state().replays).not.toBe(first)
    expect(state().replays.r1).toMatchObject({ finished: true, stopped: true, summary: { same: 1, differs: 1 } })
    expect(state().replays.r1.turns.map((t) => t.index)).toEqual([1, 2])
    expect(state().connections).toEqual({})
    expect(state().lastSeq).toBe(seq)
  })
})

describe('opening on a backlog', () => {
  /** A session as an engine keeps it: a call in flight with its progress, a flood of log messages, an oddity, the log level agreed, a recording. */
  function session(): EventLog {
    const log = new EventLog()
    const C = 'demo:tools#1'
    const emit = (event: Record<string, unknown>) => log.emit({ connectionId: C, ...event } as EventInput)
    const wire = (fields: Record<string, unknown>) =>
      emit({ type: 'frame', direction: 'in', protocol: 'mcp', transport: 'stdio', kind: 'notification', bytes: 120, ...fields })
    emit({
      type: 'connection',
      state: 'connected',
      targetId: 'demo:tools',
      targetName: 'Demo',
      protocol: 'mcp',
      owner: { purpose: 'session', startedAt: 1 },
    })
    const setLevel = wire({ direction: 'out', kind: 'request', method: 'logging/setLevel', id: 1, payload: { params: { level: 'debug' } } })
    wire({ kind: 'response', method: 'logging/setLevel', id: 1, requestSeq: setLevel.seq, payload: { result: {} } })
    emit({ type: 'recording', state: 'started', name: 'mine', context: 2 })
    emit({
      type: 'conversation',
      message: {
        role: 'user',
        content: 'slow',
        timestamp: 1,
        metadata: { kind: 'call', requestId: 2, progressToken: 2, data: { tool: 'slow' } },
      },
    })
    wire({ direction: 'out', kind: 'request', method: 'tools/call', id: 2, subject: 'slow', payload: { params: { name: 'slow' } } })
    for (let i = 0; i < 50; i++) {
      const message = wire({ method: 'notifications/message', payload: { params: { level: 'info', data: { i } } } })
      emit({
        type: 'log',
        source: 'server',
        level: 'info',
        text: `{"i":${i}}`,
        server: { level: 'info', logger: 'db', frameSeq: message.seq },
      })
    }
    wire({ method: 'notifications/progress', payload: { params: { progressToken: 2, progress: 1, total: 3, message: 'a third' } } })
    emit({ type: 'log', source: 'server', level: 'warn', text: 'a level the spec does not have', oddity: true, server: { level: 'loud' } })
    return log
  }

  /** What the views show of a connection, its frames and log lines as events (a backlog's without the payloads and texts left in the engine). */
  const shown = (id: string) => {
    const { frames, logs, findings, rev: _rev, ...rest } = state().connections[id]
    return {
      ...rest,
      frames: frames.all().map(({ payload: _payload, deferred: _deferred, ...frame }) => frame),
      logs: logs.all().map(({ text: _text, ...line }) => line),
      findings: findings.map(({ text: _text, ...finding }) => finding),
    }
  }

  it('shows every view as it was when the same events came live', () => {
    const log = session()
    fold(log.since(0))
    const live = shown('demo:tools#1')
    expect(live.requests.inFlight['2'].progress).toMatchObject({ progress: 1, total: 3, message: 'a third' })
    expect([live.logLevel, live.oddities, live.logOddities, live.recording?.events]).toEqual(['debug', 1, 1, 2 + 1 + 1 + 100 + 2])

    useStore.setState(initial, true)
    for (let afterSeq = 0; ;) {
      const page = JSON.parse(JSON.stringify(log.backlog(afterSeq, 40))) as BacklogPage
      useStore.getState().applyBacklog(page)
      if (!page.more) break
      afterSeq = page.lastSeq
    }
    expect(shown('demo:tools#1')).toEqual(live)
    expect(state().lastSeq).toBe(log.lastSeq)
    // The frames' rows are listed whole but for the payloads the views do not fold; those come when opened.
    const frames = state().connections['demo:tools#1'].frames
    expect(frames.length).toBe(log.since(0).filter((e) => e.type === 'frame').length)
    expect(
      frames
        .all()
        .filter((f) => !f.deferred)
        .map((f) => f.method),
    ).toEqual(['logging/setLevel', 'logging/setLevel', 'notifications/progress'])
    expect(frames.at(frames.indexOfSeq(frames.at(0)!.seq))!.method).toBe('logging/setLevel')
    // Log lines are listed without their text until the Log view asks for it.
    const logs = state().connections['demo:tools#1'].logs
    expect([logs.length, logs.textAt(0), logs.textlessCount]).toEqual([51, undefined, 51])
    expect(logs.at(50)).toMatchObject({ oddity: true, server: { level: 'loud' } })
  })

  it('opens on a long session with its counts and latest rows, the call in flight and its progress from those rows', () => {
    const log = session()
    const C = 'demo:tools#1'
    for (let i = 0; i < 5000; i++)
      log.emit({
        type: 'frame',
        connectionId: C,
        direction: 'in',
        protocol: 'mcp',
        transport: 'stdio',
        kind: 'notification',
        method: 'notifications/message',
        bytes: 90,
        payload: {},
      } as EventInput)
    log.emit({
      type: 'frame',
      connectionId: C,
      direction: 'in',
      protocol: 'mcp',
      transport: 'stdio',
      kind: 'notification',
      method: 'notifications/progress',
      bytes: 90,
      payload: { params: { progressToken: 2, progress: 2, total: 3 } },
    } as EventInput)
    const frameCount = log.since(0).filter((e) => e.type === 'frame').length
    useStore.getState().applyBacklog(JSON.parse(JSON.stringify(log.backlog(0))) as BacklogPage)

    const view = state().connections[C]
    expect([view.frames.length, view.frames.heldCount, view.frames.complete]).toEqual([frameCount, 2000, false])
    expect(view.frames.at(frameCount - 1)?.method).toBe('notifications/progress')
    expect(view.frames.at(0)).toBeUndefined() // fetched by position when shown
    expect(view.requests.inFlight['2'].progress).toMatchObject({ progress: 2, total: 3 })
    expect(state().lastSeq).toBe(log.lastSeq)

    // Live frames after it go at the end; one the page brought already is not folded twice.
    const last = log.since(log.lastSeq - 1)[0]
    const next = log.emit({
      type: 'frame',
      connectionId: C,
      direction: 'in',
      protocol: 'mcp',
      transport: 'stdio',
      kind: 'notification',
      method: 'ping',
      bytes: 9,
      payload: {},
    } as EventInput)
    fold([last, next])
    expect([state().connections[C].frames.length, state().connections[C].frames.at(frameCount)?.seq]).toEqual([frameCount + 1, next.seq])
  })
})
