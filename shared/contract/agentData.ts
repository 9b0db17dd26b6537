/**
 * What agents answered, as commands hand it on. A2A objects are plain JSON (the SDK's protobuf shapes —
 * numeric enums, `$case` unions — turned into what a person reads and a diff compares, the same for v1.0
 * and v0.3 agents); MCP tool results are as the wire carried them.
 */

/** An A2A part: text, a data value, a file by URL, or raw bytes (shown by type and size). */
export type A2aPart = { text: string } | { data: unknown } | { url: string; mediaType?: string } | { raw: string; bytes: number }

export interface A2aMessage {
  messageId: string
  role: 'user' | 'agent'
  taskId?: string
  contextId?: string
  parts: A2aPart[]
}

export interface A2aArtifact {
  artifactId: string
  name: string
  parts: A2aPart[]
}

export interface A2aTask {
  id: string
  contextId: string
  /** `state` without its TASK_STATE_ prefix, lowercase: submitted, working, input-required, completed … */
  status: { state: string; message?: A2aMessage; timestamp?: string }
  artifacts: A2aArtifact[]
  /** Present when the agent sent any. */
  history?: A2aMessage[]
}

/** One block of an MCP tool result's `content` (text, image, audio, a resource or a link to one). */
export type McpContentBlock = { type: string; text?: string; [field: string]: unknown }

/** An MCP `tools/call` result. */
export type McpToolResult = {
  content: McpContentBlock[]
  structuredContent?: Record<string, unknown>
  isError?: boolean
  [field: string]: unknown
}

/**
 * A task's push-notification config as the agent holds it (A2A TaskPushNotificationConfig, its token never
 * shown), and, when its URL is Parallax's own webhook receiver, what that receiver got for it.
 */
export interface A2aPushConfig {
  id: string
  taskId: string
  url: string
  /** Whether the agent holds a token to send with each push (the receiver checks it). */
  hasToken: boolean
  /** The scheme the agent authenticates its pushes with, when the config names one. */
  authentication?: { scheme: string }
  /** Set for a config whose URL is this connection's receiver on 127.0.0.1. */
  receiver?: {
    pushes: number
    lastPushAt?: number
    /** How long after the task changes state a push is expected; past it, its absence is a finding. */
    expectWithinMs: number
    /** Why this config is a finding: the task changed state and no push came within the bound. */
    finding?: string
  }
}
