import microdiff from 'microdiff'
import { adcpTaskStatus } from './adcpStatus'
import { turnOutcome, type ConversationMessage } from './conversation'
import type { ConversationEvent, ReplayOutcome, TurnParity } from './events'

/**
 * Parity, the pure part: what a turn produced, reduced to what is compared, and how two of them differ.
 * Replay (shared/session) and the UI's side by side use the same rules: the protocol-neutral outcome plus
 * the data (else the text), volatile keys ignored.
 */

/** Keys whose values differ on every run by design: ids minted per run, timestamps. */
export const VOLATILE_KEYS: ReadonlySet<string> = new Set([
  'id',
  'messageId',
  'taskId',
  'contextId',
  'artifactId',
  'timestamp',
  'reportedAt',
])

/** One change between two outcomes, at a JSON Pointer: what A had (`a`) and what B has (`b`). */
export type Difference = TurnParity['diff'][number]

/**
 * What a turn produced, reduced to what parity compares: how it ended in the one vocabulary (`outcome`),
 * and the data (else the text). `state` is the protocol's own word: detail, never a difference.
 */
export type Outcome = ReplayOutcome

/** A turn as asked, protocol-neutral: a tool/skill call, an A2A data part, or A2A text. */
export type ParityTurn = TurnParity['turn']

/** Where an A2A data part names its skill and its input: `{skill: X, input: A}` is the MCP call of `X` with `A`. */
export interface TurnMapping {
  skillField: string
  inputField: string
}

export const DEFAULT_MAPPING: TurnMapping = { skillField: 'skill', inputField: 'input' }

/**
 * A structural diff of two outcomes, ignoring volatile keys at any depth and every path under the
 * user's JSON Pointers.
 */
export function compareOutcomes(a: unknown, b: unknown, ignore: readonly string[] = []): Difference[] {
  return microdiff({ v: a } as Record<string, unknown>, { v: b } as Record<string, unknown>)
    .map((d) => {
      const keys = d.path.slice(1).map(String)
      const path = `/${keys.map((k) => k.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`
      return { keys, path, d }
    })
    .filter(({ keys, path }) => !keys.some((k) => VOLATILE_KEYS.has(k)) && !ignore.some((p) => path === p || path.startsWith(`${p}/`)))
    .map(({ path, d }) =>
      d.type === 'CREATE'
        ? { path, op: 'add' as const, b: d.value }
        : d.type === 'REMOVE'
          ? { path, op: 'remove' as const, a: d.oldValue }
          : { path, op: 'replace' as const, a: d.oldValue, b: d.value },
    )
}

/** Data wins over text: when there is data, the text (a human summary) is not compared. */
export function compact(outcome: Omit<Outcome, 'outcome'>): Outcome {
  const ended = { outcome: turnOutcome(outcome.state), state: outcome.state }
  return outcome.data !== undefined ? { ...ended, data: outcome.data } : { ...ended, ...(outcome.text && { text: outcome.text }) }
}

/**
 * What parity compares of an outcome: everything but the protocol's own word for its state; to an AdCP agent,
 * AdCP's task status rather than the one vocabulary (AdCP tells a rejected task from a failed one).
 */
export function comparable({ state: _protocolWord, ...rest }: Outcome): Omit<Outcome, 'state'> {
  if (rest.adcpStatus === undefined) return rest
  const { outcome: _oneVocabulary, ...adcp } = rest
  return adcp as Omit<Outcome, 'state'>
}

/** An outcome with AdCP's task status (the one mapping from the protocol's word), for an AdCP agent's turn. */
export function withAdcpStatus(outcome: Outcome): Outcome {
  return { ...outcome, adcpStatus: adcpTaskStatus(outcome.state) }
}

/** How two outcomes of the same turn differ (either may be missing), by the rules above. */
export function outcomeDifferences(a: Outcome | undefined, b: Outcome | undefined, ignore: readonly string[] = []): Difference[] {
  return compareOutcomes(a && comparable(a), b && comparable(b), ignore)
}

/** The outcome of a turn from its agent messages (MCP result, or A2A artifacts and final status). */
export function outcomeOf(agent: readonly ConversationEvent[]): Outcome | undefined {
  if (agent.length === 0) return undefined
  const messages = agent.map((e) => e.message)
  const result = messages.findLast((m) => m.metadata?.kind === 'result' || m.metadata?.kind === 'error')
  const status = messages.findLast((m) => m.metadata?.kind === 'status')
  const artifact = messages.findLast((m) => m.metadata?.kind === 'artifact')
  // A result with no task, or a failed one, is the outcome; an MCP task's result is its data, its last status its state.
  if (result && (!status || result.metadata?.kind === 'error'))
    return compact({ state: result.metadata?.kind === 'error' ? 'error' : 'completed', data: result.metadata?.data, text: result.content })
  const reply = messages.findLast((m) => m.metadata?.kind === 'message')
  return compact({
    state: status?.metadata?.state ?? (reply ? 'message' : 'unknown'),
    data: artifact?.metadata?.data ?? result?.metadata?.data ?? status?.metadata?.data ?? reply?.metadata?.data,
    text: result?.content || status?.content || reply?.content,
  })
}

/** What the user asked in a turn, protocol-neutral: an MCP call and an A2A `{skill, input}` data part are the same call. */
export function askedTurn(message: ConversationMessage, mapping: TurnMapping = DEFAULT_MAPPING): ParityTurn {
  const { metadata, content } = message
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

/**
 * Two conversations' same turn, compared: `only-a` / `only-b` when one side has no such turn, `pending`
 * while a side has asked but not heard back, else `same` or `differs` by the outcomes. `asked` is set
 * when the two sides were asked different things (the outcomes are still compared, but say less).
 */
export interface TurnComparison {
  turn: number
  status: 'same' | 'differs' | 'only-a' | 'only-b' | 'pending'
  a?: Outcome
  b?: Outcome
  diff: Difference[]
  asked?: { a?: ParityTurn; b?: ParityTurn }
}

/**
 * Groups a conversation's events by their turn, in arrival order. Events outside any turn (an MCP request
 * such as `prompts/get`, which is not a call) are left out: they are not compared.
 */
export function eventsByTurn(events: readonly ConversationEvent[]): Map<number, ConversationEvent[]> {
  const turns = new Map<number, ConversationEvent[]>()
  for (const e of events) {
    const turn = e.message.metadata?.turn
    if (turn === undefined) continue
    let list = turns.get(turn)
    if (!list) turns.set(turn, (list = []))
    list.push(e)
  }
  return turns
}

/**
 * Compares one turn of two conversations (A's events and B's events for it), by the same rules as replay: when
 * either side is an AdCP agent (`adcp`), in AdCP's task statuses.
 */
export function compareTurn(
  turn: number,
  a: readonly ConversationEvent[],
  b: readonly ConversationEvent[],
  mapping: TurnMapping = DEFAULT_MAPPING,
  adcp = false,
): TurnComparison {
  if (a.length === 0 || b.length === 0) return { turn, status: a.length === 0 ? 'only-b' : 'only-a', diff: [] }
  const agent = (events: readonly ConversationEvent[]) => events.filter((e) => e.message.role === 'agent')
  const userA = a.find((e) => e.message.role === 'user')
  const userB = b.find((e) => e.message.role === 'user')
  const askedA = userA && askedTurn(userA.message, mapping)
  const askedB = userB && askedTurn(userB.message, mapping)
  const asked = microdiff({ v: askedA }, { v: askedB }).length > 0 ? { asked: { a: askedA, b: askedB } } : {}
  const inAdcpTerms = (outcome: Outcome | undefined) => (outcome && adcp ? withAdcpStatus(outcome) : outcome)
  const outcomeA = inAdcpTerms(outcomeOf(agent(a)))
  const outcomeB = inAdcpTerms(outcomeOf(agent(b)))
  const outcomes = { ...(outcomeA && { a: outcomeA }), ...(outcomeB && { b: outcomeB }) }
  if (!outcomeA || !outcomeB) return { turn, status: 'pending', ...outcomes, diff: [], ...asked }
  const diff = outcomeDifferences(outcomeA, outcomeB)
  return { turn, status: diff.length ? 'differs' : 'same', ...outcomes, diff, ...asked }
}
