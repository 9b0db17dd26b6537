import { turnOutcome, type ConversationEvent, type EngineEvent, type TurnOutcome } from '../contract'

/** A recorded turn, protocol-neutral: a tool/skill call, an A2A data part, or A2A text. */
export type ReplayTurn =
  | { kind: 'call'; tool: string; arguments: Record<string, unknown> }
  | { kind: 'data'; data: Record<string, unknown> }
  | { kind: 'text'; text: string }

/**
 * What a turn produced, reduced to what parity compares: how it ended in the one vocabulary (`outcome`),
 * and the data (else the text). `state` is the protocol's own word: detail, never a difference.
 */
export interface Outcome {
  outcome: TurnOutcome
  state: string
  data?: unknown
  text?: string
}

export interface RecordedTurn {
  index: number
  turn: ReplayTurn
  recorded?: Outcome
}

export interface TurnMapping {
  skillField: string
  inputField: string
}

export const DEFAULT_MAPPING: TurnMapping = { skillField: 'skill', inputField: 'input' }

/**
 * The domain turns of a recording, from its conversation events: each user message is a turn, and the
 * agent messages of the same turn are its recorded outcome. An A2A data part `{skill, input}` is a call,
 * so it maps onto an MCP tool call and back (the mapping is per recording).
 */
export function turnsFromEvents(events: EngineEvent[], mapping: TurnMapping = DEFAULT_MAPPING): RecordedTurn[] {
  const byTurn = new Map<number, ConversationEvent[]>()
  for (const event of events) {
    if (event.type !== 'conversation') continue
    const turn = event.message.metadata?.turn
    if (turn === undefined) continue
    let list = byTurn.get(turn)
    if (!list) byTurn.set(turn, (list = []))
    list.push(event)
  }
  const turns: RecordedTurn[] = []
  for (const [number, messages] of [...byTurn].sort((a, b) => a[0] - b[0])) {
    const user = messages.find((m) => m.message.role === 'user')
    if (!user) continue
    turns.push({
      index: turns.length + 1,
      turn: toTurn(user, mapping),
      recorded: outcomeOf(messages.filter((m) => m.message.role === 'agent')) ?? undefined,
    })
    void number
  }
  return turns
}

function toTurn(event: ConversationEvent, mapping: TurnMapping): ReplayTurn {
  const { metadata, content } = event.message
  const data = metadata?.data as Record<string, unknown> | undefined
  if (metadata?.kind === 'call' && data)
    return { kind: 'call', tool: String(data.tool), arguments: (data.arguments ?? {}) as Record<string, unknown> }
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const skill = data[mapping.skillField]
    if (typeof skill === 'string')
      return { kind: 'call', tool: skill, arguments: (data[mapping.inputField] ?? {}) as Record<string, unknown> }
    return { kind: 'data', data }
  }
  return { kind: 'text', text: content }
}

/** The outcome of a turn from its agent messages (MCP result, or A2A artifacts and final status). */
export function outcomeOf(agent: ConversationEvent[]): Outcome | undefined {
  if (agent.length === 0) return undefined
  const messages = agent.map((e) => e.message)
  const result = messages.findLast((m) => m.metadata?.kind === 'result' || m.metadata?.kind === 'error')
  const status = messages.findLast((m) => m.metadata?.kind === 'status')
  const artifact = messages.findLast((m) => m.metadata?.kind === 'artifact')
  if (result && !status)
    return compact({ state: result.metadata?.kind === 'error' ? 'error' : 'completed', data: result.metadata?.data, text: result.content })
  const reply = messages.findLast((m) => m.metadata?.kind === 'message')
  return compact({
    state: status?.metadata?.state ?? (reply ? 'message' : 'unknown'),
    data: artifact?.metadata?.data ?? status?.metadata?.data ?? reply?.metadata?.data,
    text: status?.content || reply?.content,
  })
}

/** Data wins over text: when there is data, the text (a human summary) is not compared. */
export function compact(outcome: Omit<Outcome, 'outcome'>): Outcome {
  const ended = { outcome: turnOutcome(outcome.state), state: outcome.state }
  return outcome.data !== undefined ? { ...ended, data: outcome.data } : { ...ended, ...(outcome.text && { text: outcome.text }) }
}

/** What parity compares of an outcome: everything but the protocol's own word for its state. */
export function comparable({ state: _protocolWord, ...rest }: Outcome): Omit<Outcome, 'state'> {
  return rest
}
