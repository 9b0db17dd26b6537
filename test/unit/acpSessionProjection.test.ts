import { describe, expect, it } from 'vitest'
import type { ConversationMessage } from '../../shared/contract'
import { SessionProjection } from '../../shared/acp/sessionProjection'

const chunk = (text: string, messageId?: string) => ({
  sessionId: 's',
  update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text }, ...(messageId && { messageId }) },
})

describe('an ACP session update stream as the conversation', () => {
  it('joins message chunks, says a tool call at each change of status only, and ends with the stop reason and the last output', () => {
    const said: ConversationMessage[] = []
    const projection = new SessionProjection(
      (m) => said.push(m),
      () => 1,
    )
    projection.begin(1, 'hi')
    projection.update(chunk('Hel'))
    projection.update(chunk('lo'))
    projection.update({
      sessionId: 's',
      update: { sessionUpdate: 'tool_call', toolCallId: 't', title: 'Look', name: 'look', status: 'pending' },
    })
    for (let i = 0; i < 50; i++)
      projection.update({
        sessionId: 's',
        update: {
          sessionUpdate: 'tool_call_update',
          toolCallId: 't',
          content: [{ type: 'content', content: { type: 'text', text: `${i}` } }],
        },
      })
    projection.update({
      sessionId: 's',
      update: { sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed', rawOutput: { n: 1 } },
    })
    projection.update({ sessionId: 's', update: { sessionUpdate: 'some_future_update', whatever: true } })
    const answer = projection.end('s', 'end_turn')
    expect(said.map((m) => `${m.metadata?.kind}:${m.metadata?.state ?? ''}:${m.content.split('\n')[0]}`)).toEqual([
      'message::hi',
      'message::Hello',
      'tool:pending:Look',
      'tool:completed:Look',
      'status:end_turn:',
    ])
    expect(answer).toMatchObject({ stopReason: 'end_turn', text: 'Hello', data: { n: 1 } })
    expect(said.at(-1)?.metadata?.data).toEqual({ n: 1 })
  })

  it('keeps a flood of chunks bounded: a message is said every 64 KB, nothing is lost', () => {
    const said: ConversationMessage[] = []
    const projection = new SessionProjection(
      (m) => said.push(m),
      () => 1,
    )
    projection.begin(1, 'flood')
    const piece = 'x'.repeat(1000)
    for (let i = 0; i < 1000; i++) projection.update(chunk(piece))
    const answer = projection.end('s', 'end_turn')
    const messages = said.filter((m) => m.role === 'agent' && m.metadata?.kind === 'message')
    expect(messages.length).toBeGreaterThan(10)
    expect(messages.length).toBeLessThan(20)
    expect(messages.reduce((n, m) => n + m.content.length, 0)).toBe(1_000_000)
    expect(answer.text.length).toBe(1_000_000)
  })

  it('starts a new message when the messageId changes, and says updates outside a prompt as replayed history', () => {
    const said: ConversationMessage[] = []
    const projection = new SessionProjection(
      (m) => said.push(m),
      () => 1,
    )
    projection.update(chunk('first', 'm1'))
    projection.update(chunk('second', 'm2'))
    projection.settle()
    expect(said.map((m) => [m.content, m.metadata?.replayed, m.metadata?.turn])).toEqual([
      ['first', true, undefined],
      ['second', true, undefined],
    ])
  })
})
