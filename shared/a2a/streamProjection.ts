import { Role, type Message, type Part, type StreamResponse, type Task } from '@a2a-js/sdk'
import type { ConversationMessage } from '../contract'
import { now } from '../runtime/clock'
import { AWAITING_STATES, isTask, partsData, partsText, stateName } from './plain'

/** The last task of a conversation and its state. */
export interface TaskThread {
  id: string
  contextId: string
  state: string
}

/**
 * How what an A2A agent sends back becomes the conversation, as it arrives: the live counterpart of
 * taskHistory.ts, which does the same for a GetTask answer.
 *
 * An answer is a task or a message, or a stream of events: task snapshots, status updates and artifact
 * updates. Each message, status and artifact in it is said once, however often the agent repeats it,
 * and stamped when Parallax first observed it (A2A carries no timestamps; a status's own time is kept as
 * `reportedAt`). Stream events are folded into the task they describe: status replaced, artifacts added
 * or appended. Every answer moves the thread on — the context the conversation is in, and its last task
 * and that task's state — which the next turn continues while the task awaits input.
 */
export class StreamProjection {
  /** The context the conversation is in, once the agent named one. */
  contextId: string | undefined
  lastTask: TaskThread | undefined
  /** When each message and artifact was first seen, by messageId or artifactId (a GetTask history is stamped from it too). */
  readonly observed = new Map<string, number>()
  private readonly said = new Set<string>()

  constructor(
    private readonly say: (message: ConversationMessage) => void,
    private readonly clock: () => number = now,
  ) {}

  /** The task the next turn continues: the last one, while it awaits input or authorization. */
  get continuing(): TaskThread | undefined {
    return this.lastTask && AWAITING_STATES.has(this.lastTask.state) ? this.lastTask : undefined
  }

  /** Forgets the thread: the next turn starts a new context. */
  newContext(): void {
    this.contextId = undefined
    this.lastTask = undefined
  }

  /** The user's message, said as it is sent. */
  sent(message: Message, turn: number): void {
    const at = this.clock()
    this.observed.set(message.messageId, at)
    this.say({
      role: 'user',
      content: partsText(message.parts),
      timestamp: at,
      metadata: {
        kind: 'message',
        timestampSource: 'observed',
        messageId: message.messageId,
        taskId: message.taskId || undefined,
        contextId: message.contextId || undefined,
        turn,
        data: partsData(message.parts),
      },
    })
  }

  /** A whole answer: a message, or a task with its agent messages, artifacts and status. */
  answer(result: Message | Task, turn: number): void {
    if (!isTask(result)) {
      if (result.contextId) this.contextId = result.contextId
      this.sayMessage(result, turn)
      return
    }
    const state = stateName(result.status?.state)
    this.track(result.id, result.contextId, state)
    // The status message is usually in the history too: it is said once, with its status.
    const statusMessage = result.status?.message?.messageId
    for (const message of result.history)
      if (message.role === Role.ROLE_AGENT && message.messageId !== statusMessage) this.sayMessage(message, turn)
    for (const artifact of result.artifacts) this.sayArtifact(result.id, result.contextId, artifact, turn)
    this.sayStatus(result.id, result.contextId, state, result.status?.message, result.status?.timestamp, turn)
  }

  /** One stream event: said, and folded into `result`, the task (or message) the stream has described so far, which it returns. */
  fold(event: StreamResponse, result: Task | Message | undefined, turn: number): Task | Message | undefined {
    const payload = event.payload
    switch (payload?.$case) {
      case 'task':
        result = { ...payload.value, artifacts: [...payload.value.artifacts] }
        this.answer(payload.value, turn)
        break
      case 'message':
        result = payload.value
        this.answer(payload.value, turn)
        break
      case 'statusUpdate': {
        const { taskId, contextId, status } = payload.value
        // A stream may begin with an update rather than the task itself: the task is known from it.
        if (!result || !isTask(result) || result.id !== taskId) result = emptyTask(taskId, contextId)
        result.status = status
        this.track(taskId, contextId, stateName(status?.state))
        this.sayStatus(taskId, contextId, stateName(status?.state), status?.message, status?.timestamp, turn)
        break
      }
      case 'artifactUpdate': {
        const { taskId, contextId, artifact, append } = payload.value
        if (!artifact) break
        if (!result || !isTask(result) || result.id !== taskId) result = emptyTask(taskId, contextId)
        const existing = result.artifacts.find((a) => a.artifactId === artifact.artifactId)
        if (existing && append) existing.parts = [...existing.parts, ...artifact.parts]
        else if (existing) Object.assign(existing, artifact)
        else result.artifacts.push({ ...artifact, parts: [...artifact.parts] })
        this.sayArtifact(taskId, contextId, artifact, turn)
        break
      }
    }
    return result
  }

  private track(taskId: string, contextId: string, state: string): void {
    this.contextId = contextId || this.contextId
    this.lastTask = { id: taskId, contextId, state }
  }

  private sayMessage(message: Message, turn: number): void {
    if (!this.once(`m:${message.messageId}`)) return
    this.say({
      role: 'agent',
      content: partsText(message.parts),
      timestamp: this.seen(message.messageId),
      metadata: {
        kind: 'message',
        timestampSource: 'observed',
        messageId: message.messageId,
        taskId: message.taskId || undefined,
        contextId: message.contextId || undefined,
        turn,
        data: partsData(message.parts),
      },
    })
  }

  private sayStatus(
    taskId: string,
    contextId: string,
    state: string,
    message: Message | undefined,
    reported: string | undefined,
    turn: number,
  ): void {
    if (!this.once(`s:${taskId}:${state}:${message?.messageId ?? reported ?? ''}`)) return
    // A status message already said (it is in the task's history too, or came as a message event) is not said twice.
    const fresh = message ? this.once(`m:${message.messageId}`) : false
    this.say({
      role: 'agent',
      content: message && fresh ? partsText(message.parts) : '',
      timestamp: message ? this.seen(message.messageId) : this.clock(),
      metadata: {
        kind: 'status',
        timestampSource: 'observed',
        state,
        taskId,
        contextId,
        turn,
        ...(message && { messageId: message.messageId }),
        ...(message && fresh && { data: partsData(message.parts) }),
        ...(reported && { reportedAt: reported }),
      },
    })
  }

  private sayArtifact(
    taskId: string,
    contextId: string,
    artifact: { artifactId: string; name: string; parts: Part[] },
    turn: number,
  ): void {
    if (!this.once(`a:${taskId}:${artifact.artifactId}`)) return
    this.say({
      role: 'agent',
      content: partsText(artifact.parts),
      timestamp: this.seen(artifact.artifactId),
      metadata: {
        kind: 'artifact',
        timestampSource: 'observed',
        taskId,
        contextId,
        turn,
        artifactId: artifact.artifactId,
        name: artifact.name,
        data: partsData(artifact.parts),
      },
    })
  }

  private seen(key: string): number {
    let at = this.observed.get(key)
    if (at === undefined) this.observed.set(key, (at = this.clock()))
    return at
  }

  private once(key: string): boolean {
    if (this.said.has(key)) return false
    this.said.add(key)
    return true
  }
}

/** A task known so far only by an update about it. */
function emptyTask(id: string, contextId: string): Task {
  return { id, contextId, status: undefined, artifacts: [], history: [], metadata: undefined }
}
