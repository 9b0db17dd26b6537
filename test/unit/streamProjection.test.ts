import { readFileSync } from 'node:fs'
import { Role, StreamResponse, type Message, type Task } from '@a2a-js/sdk'
import { describe, expect, it } from 'vitest'
import type { ConversationMessage } from '../../shared/contract'
import { plainTask } from '../../shared/a2a/plain'
import { StreamProjection } from '../../shared/a2a/streamProjection'

const load = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/payloads/${name}`, import.meta.url), 'utf8'))

// Two streamed turns captured from the demo agent (SendStreamingMessage, JSON-RPC id = turn):
// "buy prod_mobile_run 2000" → submitted, then input-required with a question; "acmeoutdoor.example" → the
// task again, working, the media buy as an artifact, completed.
const frames = load('a2a-stream-buy-brand.json') as { id: number; result: unknown }[]
const turn = (n: number) => frames.filter((f) => f.id === n).map((f) => StreamResponse.fromJSON(f.result))

/** A projection with a clock that ticks 1 ms per reading, from 1000, and everything it said. */
function projection() {
  const said: ConversationMessage[] = []
  let clock = 1_000
  return {
    said,
    projection: new StreamProjection(
      (message) => said.push(message),
      () => clock++,
    ),
  }
}

function follow(projection: StreamProjection, events: StreamResponse[], number: number): Task | Message | undefined {
  let result: Task | Message | undefined
  for (const event of events) result = projection.fold(event, result, number)
  return result
}

describe('A2A stream → conversation', () => {
  it('says each status and artifact once, in order, and folds the stream into the task it describes', () => {
    const { said, projection: p } = projection()
    const first = follow(p, turn(1), 1)
    expect(plainTask(first as Task).status.state).toBe('input-required')
    // The task awaits input: the next turn continues it, in its context.
    const task = first as Task
    expect(p.continuing).toEqual({ id: task.id, contextId: task.contextId, state: 'input-required' })
    expect(p.contextId).toBe(task.contextId)

    const second = plainTask(follow(p, turn(2), 2) as Task)
    expect(second.status.state).toBe('completed')
    expect(second.artifacts).toHaveLength(1)
    expect((second.artifacts[0].parts[0] as { data: { media_buy_id: string } }).data.media_buy_id).toBe('mb_0001')
    expect(p.continuing).toBeUndefined()

    // The second turn's opening snapshot repeats the question: it is not said again.
    expect(said.map((m) => [m.role, m.metadata?.kind, m.metadata?.state ?? '', m.metadata?.turn])).toEqual([
      ['agent', 'status', 'submitted', 1],
      ['agent', 'status', 'input-required', 1],
      ['agent', 'status', 'working', 2],
      ['agent', 'artifact', '', 2],
      ['agent', 'status', 'completed', 2],
    ])
    expect(said[1].content.split('\n')[0]).toBe('Which brand is the buy for? Send its domain, e.g. acmeoutdoor.example.')
    expect(said[1].metadata?.data).toEqual({ missing: ['brand'], skill: 'create_media_buy' })
    expect(said[4].content).toMatch(/^Created mb_\d+ \(active\)$/)
  })

  it('stamps what it observed when it first observed it, and keeps the time the agent reported', () => {
    const { said, projection: p } = projection()
    follow(p, turn(1), 1)
    follow(p, turn(2), 2)
    expect(said.map((m) => m.timestamp)).toEqual([1_000, 1_001, 1_002, 1_003, 1_004])
    expect(said.every((m) => m.metadata?.timestampSource === 'observed')).toBe(true)
    const question = said[1]
    expect(question.metadata?.reportedAt).toBe((turn(1)[1].payload as { value: { status: { timestamp: string } } }).value.status.timestamp)
    // What was seen live stamps the task's history later (GetTask), by message and artifact id.
    expect(p.observed.get(String(question.metadata?.messageId))).toBe(1_001)
    expect(p.observed.get(String(said[3].metadata?.artifactId))).toBe(1_003)
  })

  it('appends an artifact sent in chunks, and says the artifact once', () => {
    const { said, projection: p } = projection()
    const events = turn(2)
    const chunk = events.find((e) => e.payload?.$case === 'artifactUpdate')!
    const more = StreamResponse.fromJSON(StreamResponse.toJSON(chunk))
    if (more.payload?.$case !== 'artifactUpdate') throw new Error('expected an artifact update')
    more.payload.value.append = true
    more.payload.value.artifact!.parts = [
      { content: { $case: 'text', value: 'and a note' }, metadata: undefined, filename: '', mediaType: 'text/plain' },
    ]
    const last = events.indexOf(chunk)
    const result = plainTask(follow(p, [...events.slice(0, last + 1), more, ...events.slice(last + 1)], 2) as Task)
    expect(result.artifacts).toHaveLength(1)
    expect(result.artifacts[0].parts).toHaveLength(2)
    expect(result.artifacts[0].parts[1]).toEqual({ text: 'and a note' })
    expect(said.filter((m) => m.metadata?.kind === 'artifact')).toHaveLength(1)
  })

  it('takes a message for an answer: said, and its context kept for the next turn; a new context forgets the thread', () => {
    const { said, projection: p } = projection()
    const sent: Message = {
      messageId: 'u1',
      role: Role.ROLE_USER,
      parts: [{ content: { $case: 'text', value: 'hello' }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
      taskId: '',
      contextId: '',
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    }
    p.sent(sent, 1)
    p.answer(
      {
        ...sent,
        messageId: 'a1',
        role: Role.ROLE_AGENT,
        contextId: 'ctx-1',
        parts: [{ content: { $case: 'data', value: { ok: true } }, metadata: undefined, filename: '', mediaType: 'application/json' }],
      },
      1,
    )
    expect(said.map((m) => [m.role, m.content, m.timestamp, m.metadata?.kind])).toEqual([
      ['user', 'hello', 1_000, 'message'],
      ['agent', '{"ok":true}', 1_001, 'message'],
    ])
    expect(said[0].metadata).toMatchObject({ messageId: 'u1', turn: 1, taskId: undefined, contextId: undefined })
    expect(said[1].metadata?.data).toEqual({ ok: true })
    expect(p.contextId).toBe('ctx-1')
    p.newContext()
    expect(p.contextId).toBeUndefined()
    expect(p.continuing).toBeUndefined()
  })
})
