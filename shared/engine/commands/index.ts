import { approvalCommands } from './approvals'
import { authCommands } from './auth'
import { appCommands } from './app'
import { appViewCommands } from './apps'
import { callCommands } from './calls'
import { cardCommands } from './cards'
import { compareCommands } from './compare'
import { connectionCommands } from './connections'
import { conversationCommands } from './conversation'
import { eventCommands } from './events'
import type { Handlers } from './handler'
import { pushCommands } from './push'
import { recordingCommands } from './recordings'
import { requestCommands } from './requests'
import { serverRequestCommands } from './serverRequests'
import { sessionCommands } from './sessions'
import { tapCommands } from './tap'
import { targetCommands } from './targets'
import { timelineCommands } from './timeline'

export type { CommandContext, Handler, Handlers } from './handler'

/**
 * Every command's handler, one module per domain. To add a command: its schema and its output type in its
 * domain's module under shared/contract/commands/ (a new domain is spread into CommandInputs and extended
 * by CommandOutputs there), then its handler in the domain's module here; the engine validates the input
 * before any handler runs.
 */
export const handlers: Handlers = {
  ...appCommands,
  ...targetCommands,
  ...connectionCommands,
  ...requestCommands,
  ...conversationCommands,
  ...pushCommands,
  ...callCommands,
  ...recordingCommands,
  ...compareCommands,
  ...approvalCommands,
  ...eventCommands,
  ...serverRequestCommands,
  ...authCommands,
  ...appViewCommands,
  ...sessionCommands,
  ...tapCommands,
  ...timelineCommands,
  ...cardCommands,
}
