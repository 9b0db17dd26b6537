import type { Task } from '@a2a-js/sdk'
import type { ConversationContext, ConversationMessage } from '../contract'
import { partsData, partsText, roleName, stateName } from './plain'

/**
 * Builds the conversation of an A2A task from its `history` and artifacts. A2A history carries no
 * timestamps, so each message gets the time Parallax observed it (`observed`, keyed by messageId or
 * artifactId); what was never observed live is stamped with the time the task was fetched. The
 * status message's own timestamp, when the agent reported one, is kept as `reported`. Order is the
 * history's own, then the artifacts.
 */
export function conversationFromTask(task: Task, observed: ReadonlyMap<string, number>, fetchedAt: number): ConversationContext {
  const history: ConversationMessage[] = []
  const seen = new Set<string>()
  const statusMessageId = task.status?.message?.messageId
  const reported = task.status?.timestamp ? Date.parse(task.status.timestamp) : undefined
  const messages = [...task.history]
  if (task.status?.message && !task.history.some((m) => m.messageId === statusMessageId)) messages.push(task.status.message)
  for (const message of messages) {
    if (seen.has(message.messageId)) continue
    seen.add(message.messageId)
    const isStatus = message.messageId === statusMessageId
    const at = observed.get(message.messageId)
    const useReported = at === undefined && isStatus && reported !== undefined && !Number.isNaN(reported)
    history.push({
      role: roleName(message.role),
      content: partsText(message.parts),
      timestamp: at ?? (useReported ? reported! : fetchedAt),
      metadata: {
        kind: isStatus ? 'status' : 'message',
        timestampSource: useReported ? 'reported' : 'observed',
        messageId: message.messageId,
        taskId: task.id,
        contextId: task.contextId,
        ...(isStatus && { state: stateName(task.status?.state) }),
        ...(partsData(message.parts) !== undefined && { data: partsData(message.parts) }),
      },
    })
  }
  for (const artifact of task.artifacts) {
    history.push({
      role: 'agent',
      content: partsText(artifact.parts),
      timestamp: observed.get(artifact.artifactId) ?? fetchedAt,
      metadata: {
        kind: 'artifact',
        timestampSource: 'observed',
        taskId: task.id,
        contextId: task.contextId,
        artifactId: artifact.artifactId,
        name: artifact.name,
        data: partsData(artifact.parts),
      },
    })
  }
  return { contextId: task.contextId, history }
}
