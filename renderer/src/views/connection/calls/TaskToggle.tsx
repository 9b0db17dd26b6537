import { duration } from '../../../components/format'
import type { ConnectionView } from '../../../store/connectionView'
import { useStore } from '../../../store/store'

/** How a tool may be called as a task (2025-11-25): the server's word, and the tool's `execution.taskSupport`. */
export function taskSupport(view: ConnectionView, tool: { execution?: { taskSupport?: unknown } }): 'required' | 'optional' | undefined {
  const handshake = view.handshake
  if (view.protocol !== 'mcp' || !handshake || !('serverCapabilities' in handshake)) return undefined
  const tasks = handshake.serverCapabilities.tasks as { requests?: { tools?: { call?: unknown } } } | undefined
  if (tasks?.requests?.tools?.call === undefined) return undefined
  const support = tool.execution?.taskSupport
  return support === 'required' ? 'required' : support === 'optional' ? 'optional' : undefined
}

/** "as a task": a call made as a task is followed to its result, its states in the conversation and under Tasks. */
export function TaskToggle({
  targetId,
  support,
  on,
  onChange,
}: {
  targetId: string
  support: 'required' | 'optional'
  on: boolean
  onChange: (on: boolean) => void
}) {
  const deadlineMs = useStore((s) => s.targets.find((t) => t.id === targetId)?.options.taskDeadlineMs ?? s.info?.defaults.taskDeadlineMs)
  return (
    <label
      className="muted"
      style={{ display: 'inline-flex', gap: 4, alignItems: 'center' }}
      title={
        support === 'required'
          ? 'This tool runs only as a task (execution.taskSupport: required)'
          : 'Call it as a task (tasks/get follows it, tasks/result fetches its result); its life shows in the conversation and under Tasks'
      }
    >
      <input
        type="checkbox"
        checked={support === 'required' || on}
        disabled={support === 'required'}
        onChange={(e) => onChange(e.target.checked)}
      />
      as a task
      {deadlineMs !== undefined && (
        <span
          data-testid="task-deadline"
          title="How long Parallax follows the task before it stops and says so (the target's task deadline)"
        >
          · followed up to {duration(deadlineMs)}
        </span>
      )}
    </label>
  )
}
