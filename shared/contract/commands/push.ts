import { z } from 'zod'
import type { A2aPushConfig } from '../agentData'
import { ConnectionRef } from './refs'

/** A2A push notifications: a task's configs made (pointing at Parallax's webhook receiver), read, listed and removed. */
export const pushInputs = {
  /**
   * A2A push notifications for a task: `create` opens a webhook on Parallax's receiver (127.0.0.1, a random
   * path and token, checked on every push) and gives it to the agent; each push is a frame and a
   * conversation event. A task that changes state with no push within `expectWithinMs` is a finding.
   */
  'pushConfigs.create': ConnectionRef.extend({
    taskId: z.string().min(1).max(500),
    expectWithinMs: z.number().int().min(100).max(3_600_000).default(10_000),
  }),
  'pushConfigs.get': ConnectionRef.extend({ taskId: z.string().min(1).max(500), configId: z.string().min(1).max(500) }),
  'pushConfigs.list': ConnectionRef.extend({ taskId: z.string().min(1).max(500) }),
  'pushConfigs.delete': ConnectionRef.extend({ taskId: z.string().min(1).max(500), configId: z.string().min(1).max(500) }),
} as const

export interface PushOutputs {
  'pushConfigs.create': A2aPushConfig
  'pushConfigs.get': A2aPushConfig
  'pushConfigs.list': A2aPushConfig[]
  'pushConfigs.delete': { deleted: true }
}
