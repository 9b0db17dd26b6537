import { Role, TaskState, type Artifact, type Message, type Part, type Task } from '@a2a-js/sdk'
import type { A2aArtifact, A2aMessage, A2aPart, A2aTask } from '../contract'

/**
 * The SDK's in-memory A2A objects use protobuf shapes (numeric enums, `$case` unions). These turn
 * them into the plain JSON a person reads and a diff compares, the same for v1.0 and v0.3 agents
 * (the contract's A2aTask, A2aMessage, A2aPart).
 */

export function plainPart(part: Part): A2aPart {
  const content = part.content
  switch (content?.$case) {
    case 'text':
      return { text: content.value }
    case 'data':
      return { data: content.value }
    case 'url':
      return { url: content.value, ...(part.mediaType && { mediaType: part.mediaType }) }
    case 'raw':
      return { raw: part.mediaType || 'application/octet-stream', bytes: content.value?.length ?? 0 }
    default:
      return { text: '' }
  }
}

/** `TASK_STATE_INPUT_REQUIRED` → `input-required`. */
export function stateName(state: TaskState | undefined): string {
  const name = state === undefined ? 'TASK_STATE_UNSPECIFIED' : (TaskState[state] ?? String(state))
  return name
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replaceAll('_', '-')
}

export const TERMINAL_STATES = new Set(['completed', 'failed', 'canceled', 'rejected'])
export const AWAITING_STATES = new Set(['input-required', 'auth-required'])

export function roleName(role: Role): 'user' | 'agent' {
  return role === Role.ROLE_USER ? 'user' : 'agent'
}

export function plainMessage(message: Message): A2aMessage {
  return {
    messageId: message.messageId,
    role: roleName(message.role),
    ...(message.taskId && { taskId: message.taskId }),
    ...(message.contextId && { contextId: message.contextId }),
    parts: message.parts.map(plainPart),
  }
}

export function plainArtifact(artifact: Artifact): A2aArtifact {
  return { artifactId: artifact.artifactId, name: artifact.name, parts: artifact.parts.map(plainPart) }
}

export function plainTask(task: Task): A2aTask {
  return {
    id: task.id,
    contextId: task.contextId,
    status: {
      state: stateName(task.status?.state),
      ...(task.status?.message && { message: plainMessage(task.status.message) }),
      ...(task.status?.timestamp && { timestamp: task.status.timestamp }),
    },
    artifacts: task.artifacts.map(plainArtifact),
    ...(task.history.length && { history: task.history.map(plainMessage) }),
  }
}

/** The readable text of some parts: text as is, data as JSON. */
export function partsText(parts: Part[]): string {
  return parts
    .map(plainPart)
    .map((p) => ('text' in p ? p.text : 'data' in p ? JSON.stringify(p.data) : 'url' in p ? p.url : `[${p.raw}, ${p.bytes} bytes]`))
    .filter(Boolean)
    .join('\n')
}

/** The data parts' values, when there are any. */
export function partsData(parts: Part[]): unknown {
  const data = parts.flatMap((p) => (p.content?.$case === 'data' ? [p.content.value] : []))
  return data.length === 0 ? undefined : data.length === 1 ? data[0] : data
}

export function isTask(value: Message | Task): value is Task {
  return 'status' in value && 'id' in value
}
