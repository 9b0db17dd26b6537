import { readFileSync } from 'node:fs'
import { Task } from '@a2a-js/sdk'
import { describe, expect, it } from 'vitest'
import { lastUserMessage, summary, type ConversationContext } from '../../shared/contract'
import { conversationFromTask } from '../../shared/a2a/taskHistory'
import { mcpCallMessage, mcpResultMessage } from '../../shared/mcp/conversationTurns'
import { parseTurn } from '../../cli/converse'

const load = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/payloads/${name}`, import.meta.url), 'utf8'))

describe('A2A task history → conversation', () => {
  // A GetTask answer captured from the demo agent: "buy prod_mobile_run 2000", a question, "acmeoutdoor.example", done.
  const task = Task.fromJSON(load('a2a-get-task-completed.json').result)

  it('keeps the history order, then the artifacts, with roles, states and data', () => {
    const context = conversationFromTask(task, new Map(), 1_000)
    expect(context.contextId).toBe(task.contextId)
    expect(context.history.map((m) => [m.role, m.metadata?.kind, m.metadata?.state ?? ''])).toEqual([
      ['user', 'message', ''],
      ['agent', 'message', ''],
      ['user', 'message', ''],
      ['agent', 'message', ''],
      ['agent', 'status', 'completed'],
      ['agent', 'artifact', ''],
    ])
    expect(context.history[1].content).toContain('Which brand')
    expect(context.history[1].metadata?.data).toEqual({ missing: ['brand'], skill: 'create_media_buy' })
    expect((context.history[5].metadata?.data as { media_buy_id: string }).media_buy_id).toBe('mb_0001')
  })

  it('stamps what was observed, keeps the agent-reported status time as reported, and the rest as first seen at fetch', () => {
    const userMessageId = task.history[0].messageId
    const context = conversationFromTask(task, new Map([[userMessageId, 500]]), 1_000)
    expect(context.history[0]).toMatchObject({ timestamp: 500, metadata: { timestampSource: 'observed' } })
    const status = context.history.find((m) => m.metadata?.kind === 'status')!
    expect(status.metadata?.timestampSource).toBe('reported')
    expect(status.timestamp).toBe(Date.parse(task.status!.timestamp!))
    expect(context.history[2]).toMatchObject({ timestamp: 1_000, metadata: { timestampSource: 'observed' } })
  })
})

describe('MCP tool calls → conversation', () => {
  const [ok, failed] = load('mcp-tools-call-results.json').map((p: { result: unknown }) => p.result)

  it('makes the call the user turn and the result the agent turn, with structured content as data', () => {
    const call = mcpCallMessage('create_media_buy', { product_id: 'prod_mobile_run' }, 10, 1)
    expect(call).toMatchObject({
      role: 'user',
      content: 'create_media_buy {"product_id":"prod_mobile_run"}',
      metadata: { kind: 'call', turn: 1 },
    })
    const result = mcpResultMessage(ok, 20, 1)
    expect(result).toMatchObject({ role: 'agent', metadata: { kind: 'result', turn: 1 } })
    expect((result.metadata?.data as { media_buy_id: string; context: unknown }).context).toEqual({ buyer: 'acme' })
  })

  it('marks a tool error as an error turn', () => {
    expect(mcpResultMessage(failed, 30, 2)).toMatchObject({
      role: 'agent',
      content: 'PRODUCT_NOT_FOUND: unknown product_id "nope"',
      metadata: { kind: 'error' },
    })
  })
})

describe('conversation helpers', () => {
  const context: ConversationContext = {
    history: [
      { role: 'user', content: 'first', timestamp: 1 },
      {
        role: 'agent',
        content: 'line one\nline two',
        timestamp: 2,
        metadata: { kind: 'status', state: 'input-required', timestampSource: 'observed' },
      },
      { role: 'user', content: 'second', timestamp: 3 },
      { role: 'agent', content: '', timestamp: 4, metadata: { kind: 'status', state: 'working', timestampSource: 'observed' } },
    ],
  }
  it('finds the last user message and summarises the last N messages one line each', () => {
    expect(lastUserMessage(context)?.content).toBe('second')
    expect(lastUserMessage({ history: [] })).toBeUndefined()
    expect(summary(context, 3)).toBe('agent [input-required]: line one · line two\nuser: second\nagent [working]')
    expect(summary(context).split('\n')).toHaveLength(4)
  })

  it('parses CLI turns per protocol', () => {
    expect(parseTurn('hello there', 'a2a')).toEqual({ text: 'hello there' })
    expect(parseTurn('{"skill":"x","input":{}}', 'a2a')).toEqual({ data: { skill: 'x', input: {} } })
    expect(parseTurn('{"tool":"t","arguments":{"a":1}}', 'mcp')).toEqual({ tool: 't', arguments: { a: 1 } })
    expect(() => parseTurn('hello', 'mcp')).toThrow(/an MCP turn is/)
    expect(() => parseTurn('{broken', 'a2a')).toThrow(/looks like JSON but is not/)
  })
})
