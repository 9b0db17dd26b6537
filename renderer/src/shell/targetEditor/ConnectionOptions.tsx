import type { FieldsProps } from './targetForm'

/** How the connection behaves: how often keepalive probes, how long a request may take, and (MCP) how long a task is followed. */
export function ConnectionOptions({ form, set }: FieldsProps) {
  return (
    <>
      <label htmlFor="t-interval">Keepalive every</label>
      <span>
        <input
          id="t-interval"
          className="input"
          style={{ width: 90 }}
          value={form.interval}
          onChange={(e) => set({ interval: e.target.value })}
        />{' '}
        seconds
      </span>
      <label htmlFor="t-timeout">Request timeout</label>
      <span>
        <input
          id="t-timeout"
          className="input"
          style={{ width: 90 }}
          value={form.timeout}
          onChange={(e) => set({ timeout: e.target.value })}
        />{' '}
        seconds
        <span className="muted"> · reset by progress notifications</span>
      </span>
      {(form.kind === 'mcp-stdio' || form.kind === 'mcp-http') && (
        <>
          <label htmlFor="t-task-deadline">Task deadline</label>
          <span>
            <input
              id="t-task-deadline"
              className="input"
              style={{ width: 90 }}
              value={form.taskDeadline}
              onChange={(e) => set({ taskDeadline: e.target.value })}
            />{' '}
            minutes
            <span className="muted"> · how long a call made as a task is followed before Parallax stops</span>
          </span>
        </>
      )}
    </>
  )
}
