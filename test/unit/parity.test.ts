import { describe, expect, it } from 'vitest'
import {
  askedTurn,
  compareOutcomes,
  compareTurn,
  eventsByTurn,
  outcomeDifferences,
  outcomeOf,
  type ConversationEvent,
  type ConversationMetadata,
} from '../../shared/contract'
import * as session from '../../shared/session/parity'
import * as turns from '../../shared/session/turns'

let seq = 0
const message = (role: 'user' | 'agent', turn: number | undefined, metadata: Partial<ConversationMetadata>, content = '') =>
  ({
    type: 'conversation',
    seq: ++seq,
    ts: seq,
    connectionId: 'c',
    message: {
      role,
      content,
      timestamp: seq,
      metadata: { kind: 'message', timestampSource: 'observed', ...(turn !== undefined && { turn }), ...metadata },
    },
  }) as ConversationEvent

/** An MCP turn: the call and its result (structuredContent as data). */
const mcpTurn = (turn: number, tool: string, args: Record<string, unknown>, data: unknown, isError = false) => [
  message('user', turn, { kind: 'call', data: { tool, arguments: args } }, `${tool} ${JSON.stringify(args)}`),
  message('agent', turn, { kind: isError ? 'error' : 'result', data }, JSON.stringify(data)),
]

/** An A2A turn: the `{skill, input}` data part, an artifact and the final status. */
const a2aTurn = (turn: number, skill: string, input: Record<string, unknown>, data: unknown, state = 'completed') => [
  message('user', turn, { kind: 'message', data: { skill, input }, messageId: `m${seq}` }),
  message('agent', turn, { kind: 'artifact', data, artifactId: `a${seq}` }),
  message('agent', turn, { kind: 'status', state, taskId: `t${seq}` }, state === 'completed' ? 'Done.' : 'Refused.'),
]

describe('parity in the contract', () => {
  it('is the one comparison: replay (shared/session) re-exports it', () => {
    expect(session.compareOutcomes).toBe(compareOutcomes)
    expect(turns.outcomeOf).toBe(outcomeOf)
  })

  it('compares outcomes in the one vocabulary: the protocol’s own word is not a difference, the data is, volatile keys are not', () => {
    const mcp = { outcome: 'failed' as const, state: 'error', text: 'budget too low' }
    const a2a = { outcome: 'failed' as const, state: 'rejected', text: 'budget too low' }
    expect(outcomeDifferences(mcp, a2a)).toEqual([])
    expect(
      outcomeDifferences(
        { outcome: 'completed', state: 'completed', data: { context: { ref: 'x' }, taskId: 't1' } },
        { outcome: 'completed', state: 'message', data: { context: { ref: 'x', seller_normalized: true }, taskId: 't2' } },
      ),
    ).toEqual([{ path: '/data/context/seller_normalized', op: 'add', b: true }])
    expect(
      outcomeDifferences({ outcome: 'completed', state: 'completed' }, { outcome: 'input-required', state: 'input-required' }),
    ).toEqual([{ path: '/outcome', op: 'replace', a: 'completed', b: 'input-required' }])
    // No outcome on one side is one difference, at the root (replay shows it so).
    expect(outcomeDifferences(undefined, { outcome: 'completed', state: 'completed' })).toEqual([
      { path: '/', op: 'replace', a: undefined, b: { outcome: 'completed' } },
    ])
  })

  it('reads a turn’s outcome from its messages: data before text, the last status, an MCP error as failed', () => {
    const [, result] = mcpTurn(1, 't', {}, { ok: true })
    expect(outcomeOf([result])).toEqual({ outcome: 'completed', state: 'completed', data: { ok: true } })
    expect(outcomeOf([message('agent', 1, { kind: 'error' }, 'boom')])).toEqual({ outcome: 'failed', state: 'error', text: 'boom' })
    const [, artifact, status] = a2aTurn(2, 't', {}, { ok: 2 })
    expect(outcomeOf([message('agent', 2, { kind: 'status', state: 'working' }), artifact, status])).toEqual({
      outcome: 'completed',
      state: 'completed',
      data: { ok: 2 },
    })
    expect(outcomeOf([message('agent', 3, { kind: 'message' }, 'hi')])).toEqual({ outcome: 'completed', state: 'message', text: 'hi' })
    expect(outcomeOf([])).toBeUndefined()
  })

  it('asks the same call over MCP and over A2A', () => {
    const [call] = mcpTurn(1, 'list_creative_formats', { context: { ref: 'x' } }, {})
    const [data] = a2aTurn(1, 'list_creative_formats', { context: { ref: 'x' } }, {})
    expect(askedTurn(call.message)).toEqual(askedTurn(data.message))
    expect(askedTurn(message('user', 1, { kind: 'message' }, 'hello').message)).toEqual({ kind: 'text', text: 'hello' })
  })
})

describe('two conversations turn by turn', () => {
  it('groups by turn, leaving out what is outside any turn (an MCP request that is not a call)', () => {
    const events = [
      ...mcpTurn(1, 't', {}, {}),
      message('user', undefined, { kind: 'request', method: 'prompts/get' }),
      ...mcpTurn(2, 't', {}, {}),
    ]
    const grouped = eventsByTurn(events)
    expect([...grouped.keys()]).toEqual([1, 2])
    expect(grouped.get(1)).toHaveLength(2)
  })

  it('says same, differs (with the diff), only one side, or waiting; and when the sides were asked different things', () => {
    const args = { context: { buyer_ref: 'r1' } }
    const plain = mcpTurn(1, 'list_creative_formats', args, { formats: ['f1'], context: { buyer_ref: 'r1' } })
    const echoBug = mcpTurn(1, 'list_creative_formats', args, { formats: ['f1'], context: { buyer_ref: 'r1', seller_normalized: true } })
    expect(compareTurn(1, plain, plain)).toMatchObject({ status: 'same', diff: [] })
    const differs = compareTurn(1, plain, echoBug)
    expect(differs.status).toBe('differs')
    expect(differs.diff).toEqual([{ path: '/data/context/seller_normalized', op: 'add', b: true }])
    expect(differs.asked).toBeUndefined()
    expect(compareTurn(1, plain, [])).toMatchObject({ status: 'only-a', diff: [] })
    expect(compareTurn(1, [], plain)).toMatchObject({ status: 'only-b', diff: [] })
    expect(compareTurn(1, plain, [plain[0]])).toMatchObject({ status: 'pending', a: { outcome: 'completed' }, diff: [] })
  })

  it('compares an MCP call with the same A2A skill as replay does: a refusal is the same outcome, whatever each protocol calls it', () => {
    const mcp = mcpTurn(1, 'create_media_buy', { budget: 1 }, undefined, true)
    mcp[1].message.content = 'budget below minimum'
    const a2a = [
      message('user', 1, { kind: 'message', data: { skill: 'create_media_buy', input: { budget: 1 } } }),
      message('agent', 1, { kind: 'status', state: 'rejected' }, 'budget below minimum'),
    ]
    const compared = compareTurn(1, mcp, a2a)
    expect(compared).toMatchObject({
      status: 'same',
      a: { outcome: 'failed', state: 'error' },
      b: { outcome: 'failed', state: 'rejected' },
    })
    // To an AdCP agent the same turn differs: AdCP tells a rejected task from a failed one, as replay does.
    expect(compareTurn(1, mcp, a2a, undefined, true)).toMatchObject({
      status: 'differs',
      a: { adcpStatus: 'failed' },
      b: { adcpStatus: 'rejected' },
      diff: [{ path: '/adcpStatus', op: 'replace', a: 'failed', b: 'rejected' }],
    })
    const other = compareTurn(1, mcp, a2aTurn(1, 'get_products', {}, { products: [] }))
    expect(other.asked).toEqual({
      a: { kind: 'call', tool: 'create_media_buy', arguments: { budget: 1 } },
      b: { kind: 'call', tool: 'get_products', arguments: {} },
    })
    expect(other.status).toBe('differs')
  })
})
