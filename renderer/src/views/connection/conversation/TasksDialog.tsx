import { useEffect, useState } from 'react'
import type { ConversationContext } from '../../../../../shared/contract'
import { command } from '../../../store/store'
import { MessageView } from '../../../components/ConversationTimeline'
import { JsonView } from '../../../components/JsonView'
import { Modal } from '../../../components/Modal'

interface PlainTask {
  id: string
  contextId: string
  status: { state: string }
  artifacts: unknown[]
}

const TERMINAL = new Set(['completed', 'failed', 'canceled', 'rejected'])

/** The tasks of the current context: their state, their full history, cancel and follow. */
export function TasksDialog({ connectionId, onClose }: { connectionId: string; onClose: () => void }) {
  const [tasks, setTasks] = useState<PlainTask[]>()
  const [history, setHistory] = useState<{ task: unknown; conversation: ConversationContext }>()
  const [error, setError] = useState<string>()
  const load = async () => {
    const list = await command((api) => api.invoke('tasks.list', { connectionId }))
    if (list) setTasks(list as PlainTask[])
    else setError('The agent could not list tasks (v0.3 agents have no ListTasks).')
  }
  // eslint-disable-next-line react-hooks/exhaustive-deps -- load the list once per connection; `load` is remade each render
  useEffect(() => void load(), [connectionId])
  const act = async (run: () => Promise<unknown>) => {
    await run()
    await load()
  }
  return (
    <Modal
      title="Tasks"
      width="min(900px, 94vw)"
      onClose={onClose}
      footer={
        <button className="btn" onClick={onClose} autoFocus>
          Close
        </button>
      }
    >
      {error && <div className="error-text">{error}</div>}
      {!tasks && !error && <div className="muted">Loading…</div>}
      {tasks && tasks.length === 0 && <div className="muted">No tasks yet.</div>}
      {tasks && tasks.length > 0 && (
        <table className="grid" data-testid="tasks">
          <tbody>
            {tasks.map((t) => (
              <tr key={t.id}>
                <td className="mono">{t.id.slice(0, 8)}</td>
                <td>
                  <span className={`state-chip ${t.status.state}`}>{t.status.state}</span>
                </td>
                <td className="muted">{t.artifacts.length} artifact(s)</td>
                <td style={{ textAlign: 'right' }}>
                  <button
                    className="btn small"
                    onClick={() =>
                      void command((api) => api.invoke('tasks.get', { connectionId, taskId: t.id, historyLength: 100 })).then(
                        (r) => r && setHistory(r),
                      )
                    }
                  >
                    History
                  </button>{' '}
                  {!TERMINAL.has(t.status.state) && (
                    <>
                      <button
                        className="btn small"
                        onClick={() => void act(() => command((api) => api.invoke('tasks.resubscribe', { connectionId, taskId: t.id })))}
                      >
                        Follow
                      </button>{' '}
                      <button
                        className="btn small danger"
                        onClick={() => void act(() => command((api) => api.invoke('tasks.cancel', { connectionId, taskId: t.id })))}
                      >
                        Cancel
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {history && (
        <>
          <div className="section-title">
            History from GetTask <span className="muted">· A2A history has no timestamps: times are when Parallax saw each message</span>
          </div>
          <div data-testid="task-history">
            {history.conversation.history.map((m, i) => (
              <MessageView key={i} message={m} />
            ))}
          </div>
          <div className="section-title">The task</div>
          <JsonView value={history.task} openDepth={1} />
        </>
      )}
    </Modal>
  )
}
