/**
 * AdCP's task-status vocabulary (enums/task-status.json of the release Parallax follows; a test keeps this list
 * the bundled schema's), and the one mapping from each protocol's word for how a turn ended to it: an MCP tool
 * result (`completed`, `error` for isError), an MCP task's status, an A2A TaskState, a message, an ACP stop reason.
 */
export const ADCP_TASK_STATUSES = [
  'submitted',
  'working',
  'input-required',
  'completed',
  'canceled',
  'failed',
  'rejected',
  'auth-required',
  'unknown',
] as const

export type AdcpTaskStatus = (typeof ADCP_TASK_STATUSES)[number]

const FROM_PROTOCOL: Record<string, AdcpTaskStatus> = {
  // MCP: a tool result, and the statuses of an MCP task (2025-11-25 tasks)
  completed: 'completed',
  error: 'failed',
  working: 'working',
  input_required: 'input-required',
  failed: 'failed',
  cancelled: 'canceled',
  // A2A: TaskState, lowercase without its prefix, and a plain message (a finished answer)
  submitted: 'submitted',
  'input-required': 'input-required',
  'auth-required': 'auth-required',
  canceled: 'canceled',
  rejected: 'rejected',
  message: 'completed',
  // ACP: a prompt turn's stop reason (`cancelled` as MCP's)
  end_turn: 'completed',
  max_tokens: 'failed',
  max_turn_requests: 'failed',
  refusal: 'rejected',
}

/** How a turn ended, in AdCP's words: `unknown` for a word neither protocol uses so. */
export function adcpTaskStatus(state: string): AdcpTaskStatus {
  return Object.hasOwn(FROM_PROTOCOL, state) ? FROM_PROTOCOL[state] : 'unknown'
}
