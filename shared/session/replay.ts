import {
  outcomeDifferences,
  withAdcpStatus,
  type AcpPromptAnswer,
  type Protocol,
  toolResultState,
  type ReplayEvent,
  type ReplaySummary,
  type SavedTarget,
  type Turn,
  type TurnParity,
  type TurnResult,
} from '../contract'
import type { ConnectionOwner } from '../contract'
import type { EventLog } from '../runtime/eventLog'
import type { SupervisedConnection, TurnOptions } from '../runtime/supervisedConnection'
import { errorMessage } from '../runtime/errors'
import { compact, type Outcome, type RecordedTurn, type ReplayTurn, type TurnMapping, DEFAULT_MAPPING } from './turns'

/** A recorded turn that took this long (or that the recording cannot time) is replayed asking for progress. */
const SLOW_TURN_MS = 1_000

/** What a replay needs of the engine: connections of its own, turns on them, and the event log to report on. */
export interface ReplayHost {
  readonly events: Pick<EventLog, 'emit' | 'lastSeq'>
  /** A connection owned by this replay (never the user's session). */
  createConnection(target: SavedTarget, profile: undefined, owner: Omit<ConnectionOwner, 'startedAt'>): Promise<SupervisedConnection>
  /** Why a connection could not open, as the error the replay's caller sees. */
  connectFailure(connection: SupervisedConnection): Error
  sendTurn(connectionId: string, turn: Turn, options?: TurnOptions): Promise<TurnResult>
}

export interface ReplayOptions {
  /** One target: compare with the recording; two: compare A with B. */
  targets: SavedTarget[]
  turns: RecordedTurn[]
  ignore?: string[]
  mapping?: TurnMapping
  recording?: string
  /** Keep the connections open when the replay ends, for the user to inspect (and close). */
  keep?: boolean
}

/**
 * Replays recorded turns against one or two targets, turn by turn, each side keeping its own
 * conversation (A2A task/context threading; the MCP session), and reports parity per turn. A side
 * that fails only fails its turns: every later turn is still reported and nothing compared is lost.
 * The connections are the replay's own; they close (with their processes) when it ends — every turn
 * run, stopped, or replaced by a newer replay — unless it was asked to keep them.
 */
export class Replay {
  private readonly sides: SupervisedConnection[] = []
  private next = 0
  private stopped = false
  readonly results: TurnParity[] = []

  constructor(
    private readonly engine: ReplayHost,
    readonly id: string,
    private readonly options: ReplayOptions,
  ) {}

  get done(): boolean {
    return this.stopped || this.next >= this.options.turns.length
  }

  /** Opens fresh connections to the targets; throws when one cannot be reached at all. */
  async start(): Promise<void> {
    const two = this.options.targets.length === 2
    for (const [i, target] of this.options.targets.entries()) {
      const side = two ? { side: i === 0 ? 'A' : 'B' } : {}
      const connection = await this.engine.createConnection(target, undefined, { purpose: 'replay', by: this.id, ...side })
      this.sides.push(connection)
      if (!(await connection.open())) throw this.engine.connectFailure(connection)
    }
    const [a, b] = this.options.targets
    this.emit({
      phase: 'started',
      total: this.options.turns.length,
      sides:
        this.options.targets.length === 2
          ? { a: { label: a.name, connectionId: this.sides[0].id }, b: { label: b.name, connectionId: this.sides[1].id } }
          : { a: { label: 'recorded' }, b: { label: a.name, connectionId: this.sides[0].id } },
      ...(this.options.keep && { keep: true }),
    })
  }

  /** Runs the next turn; returns its parity, or undefined when there is none left. */
  async step(): Promise<TurnParity | undefined> {
    if (this.done) return undefined
    const recorded = this.options.turns[this.next++]
    const runs = await Promise.all(this.sides.map((side) => this.run(side, recorded)))
    if (this.finished) return undefined // stopped while the turn ran: its connections are gone, its result would mislead
    const parity = this.compare(recorded, runs)
    this.results.push(parity)
    this.emit({ phase: 'turn', turn: parity })
    if (this.done) this.finish()
    return parity
  }

  async runAll(): Promise<ReplaySummary> {
    while (!this.done) await this.step()
    return summarize(this.results)
  }

  stop(): void {
    if (this.stopped) return
    this.stopped = true
    this.finish()
  }

  /** Closes the replay's connections (and their processes); their frames stay readable. */
  async close(): Promise<void> {
    await Promise.all(this.sides.map((s) => s.close()))
  }

  private finished = false
  private finish(): void {
    if (this.finished) return
    this.finished = true
    this.emit({ phase: 'finished', summary: summarize(this.results), stopped: this.next < this.options.turns.length })
    if (!this.options.keep) void this.close()
  }

  private async run(side: SupervisedConnection, { turn, tookMs }: RecordedTurn): Promise<Run> {
    const mapping = this.options.mapping ?? DEFAULT_MAPPING
    const message = forProtocol(turn, side.protocol, mapping)
    if ('skipped' in message) return { skipped: message.skipped }
    const from = this.engine.events.lastSeq + 1
    const frames = () => ({ from, to: this.engine.events.lastSeq })
    try {
      // Progress is asked for only where the recording says a timeout may need it (a slow turn, or one it cannot time).
      const progress = tookMs === undefined || tookMs >= SLOW_TURN_MS
      const result = await this.engine.sendTurn(side.id, message.turn, { progress })
      // An AdCP agent's turn (the engine checked it as one) ends in AdCP's words too.
      const outcome = outcomeOfResult(side.protocol, result)
      return { outcome: result.adcp ? withAdcpStatus(outcome) : outcome, frames: frames() }
    } catch (error) {
      return { error: errorMessage(error), frames: frames() }
    }
  }

  private compare(recorded: RecordedTurn, runs: Run[]): TurnParity {
    const single = runs.length === 1
    const [a, b] = adcpOnBothSides(single ? [{ outcome: recorded.recorded }, runs[0]] : runs)
    const frames = single ? { ...(b.frames && { b: b.frames }) } : { ...(a.frames && { a: a.frames }), ...(b.frames && { b: b.frames }) }
    const base = {
      index: recorded.index,
      turn: recorded.turn,
      a: a.outcome,
      b: b.outcome,
      diff: [],
      connections: single ? { b: this.sides[0].id } : { a: this.sides[0].id, b: this.sides[1].id },
      ...(Object.keys(frames).length > 0 && { frames }),
    }
    const skipped =
      runs.find((r) => r.skipped)?.skipped ?? (single && !recorded.recorded ? 'the recording has no response for this turn' : undefined)
    if (skipped) return { ...base, status: 'skipped', reason: skipped }
    if (a.error || b.error) return { ...base, status: 'error', errors: { ...(a.error && { a: a.error }), ...(b.error && { b: b.error }) } }
    const diff = outcomeDifferences(a.outcome, b.outcome, this.options.ignore)
    return { ...base, status: diff.length ? 'differs' : 'same', diff }
  }

  private emit(input: Omit<ReplayEvent, 'type' | 'replayId' | 'seq' | 'ts' | 'connectionId'>): void {
    this.engine.events.emit({
      type: 'replay',
      connectionId: `replay:${this.id}`,
      replayId: this.id,
      ...(this.options.recording && { recording: this.options.recording }),
      ...input,
    })
  }
}

/**
 * Where one side is an AdCP agent, both are said in AdCP's words (the recording, or a side the engine could not
 * tell for one, by the same mapping), so parity compares AdCP's statuses.
 */
function adcpOnBothSides(runs: Run[]): Run[] {
  if (!runs.some((r) => r.outcome?.adcpStatus !== undefined)) return runs
  return runs.map((r) => (r.outcome && r.outcome.adcpStatus === undefined ? { ...r, outcome: withAdcpStatus(r.outcome) } : r))
}

/** What one side did with a turn, and the events (by seq) its work on it spans. */
interface Run {
  outcome?: Outcome
  error?: string
  skipped?: string
  frames?: { from: number; to: number }
}

/**
 * The same turn, said the way each protocol says it. ACP is prompts: a call goes as its slash command
 * (`/tool {json}`, how an MCP tool or an A2A skill maps onto an ACP agent's commands), text as it is.
 */
function forProtocol(turn: ReplayTurn, protocol: Protocol, mapping: TurnMapping): { turn: Turn } | { skipped: string } {
  if (protocol === 'acp') {
    if (turn.kind === 'call') return { turn: { tool: turn.tool, arguments: turn.arguments } }
    if (turn.kind === 'text') return { turn: { text: turn.text } }
    return { skipped: 'this A2A data part names no skill, so it maps to no ACP prompt' }
  }
  if (protocol === 'a2a') {
    if (turn.kind === 'call') return { turn: { data: { [mapping.skillField]: turn.tool, [mapping.inputField]: turn.arguments } } }
    return { turn: turn.kind === 'data' ? { data: turn.data } : { text: turn.text } }
  }
  if (turn.kind === 'call') return { turn: { tool: turn.tool, arguments: turn.arguments } }
  return {
    skipped: turn.kind === 'text' ? 'an MCP target has no free-text turns' : 'this A2A data part names no skill, so it maps to no MCP tool',
  }
}

/** Reduces what a target answered to the outcome parity compares. */
export function outcomeOfResult(protocol: Protocol, result: TurnResult): Outcome {
  if (protocol === 'acp') {
    // The stop reason is how it ended; the last completed tool call's output is its data (else what the agent said).
    const answer = result.response as AcpPromptAnswer
    return compact({ state: answer.stopReason, data: answer.data, text: answer.error?.message ?? answer.text })
  }
  if (protocol === 'mcp') {
    const response = result.response as { isError?: boolean; structuredContent?: unknown; content?: { type: string; text?: string }[] }
    const text = (response.content ?? []).map((c) => c.text ?? '').join('\n')
    let data = response.structuredContent
    if (data === undefined) {
      try {
        data = JSON.parse(text)
      } catch {
        data = undefined
      }
    }
    return compact({ state: toolResultState(response), data, text })
  }
  const response = result.response as {
    artifacts?: { parts: { data?: unknown }[] }[]
    status?: { message?: { parts: { text?: string; data?: unknown }[] } }
    parts?: { text?: string; data?: unknown }[]
  } | null
  const artifactData = (response?.artifacts ?? [])
    .flatMap((a) => a.parts.map((p) => p.data))
    .filter((d) => d !== undefined)
    .at(-1)
  const parts = response?.status?.message?.parts ?? response?.parts ?? []
  const statusData = parts.map((p) => p.data).find((d) => d !== undefined)
  return compact({
    state: result.state,
    data: artifactData ?? statusData,
    text: parts
      .map((p) => p.text ?? '')
      .filter(Boolean)
      .join('\n'),
  })
}

export function summarize(results: TurnParity[]): ReplaySummary {
  const count = (status: TurnParity['status']) => results.filter((r) => r.status === status).length
  return { total: results.length, same: count('same'), differs: count('differs'), errors: count('error'), skipped: count('skipped') }
}
