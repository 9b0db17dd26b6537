import {
  askedTurn,
  DEFAULT_MAPPING,
  eventsByTurn,
  outcomeOf,
  type ConversationEvent,
  type EngineEvent,
  type Outcome,
  type ParityTurn,
  type TurnMapping,
} from '../contract'

// What a turn produced and how it is compared are the contract's (shared with the UI's side by side).
export { comparable, compact, DEFAULT_MAPPING, outcomeOf, type Outcome, type TurnMapping } from '../contract'

/** A recorded turn, protocol-neutral: a tool/skill call, an A2A data part, or A2A text. */
export type ReplayTurn = ParityTurn

export interface RecordedTurn {
  index: number
  turn: ReplayTurn
  recorded?: Outcome
  /** How long the recorded side took, from the ask to its last answer, when the recording says. */
  tookMs?: number
}

/**
 * The domain turns of a recording, from its conversation events: each user message is a turn, and the
 * agent messages of the same turn are its recorded outcome. An A2A data part `{skill, input}` is a call,
 * so it maps onto an MCP tool call and back (the mapping is per recording).
 */
export function turnsFromEvents(events: EngineEvent[], mapping: TurnMapping = DEFAULT_MAPPING): RecordedTurn[] {
  const byTurn = eventsByTurn(events.filter((e): e is ConversationEvent => e.type === 'conversation'))
  const turns: RecordedTurn[] = []
  for (const [, messages] of [...byTurn].sort((a, b) => a[0] - b[0])) {
    const user = messages.find((m) => m.message.role === 'user')
    if (!user) continue
    const answers = messages.filter((m) => m.message.role === 'agent')
    const answeredAt = answers.at(-1)?.message.timestamp
    turns.push({
      index: turns.length + 1,
      turn: askedTurn(user.message, mapping),
      recorded: outcomeOf(answers) ?? undefined,
      ...(answeredAt !== undefined && { tookMs: Math.max(0, answeredAt - user.message.timestamp) }),
    })
  }
  return turns
}
