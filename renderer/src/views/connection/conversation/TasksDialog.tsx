import { Fragment, useEffect, useState } from 'react'
import type { A2aPushConfig, ConversationContext } from '../../../../../shared/contract'
import { clock } from '../../../components/format'
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

/** The tasks of the current context: their state, their full history, cancel and follow, and their push notifications. */
export function TasksDialog({
  connectionId,
  onClose,
  pushNotifications,
}: {
  connectionId: string
  onClose: () => void
  /** A2A only (push notifications are A2A's): whether the card advertises them; undefined hides them. */
  pushNotifications?: boolean
}) {
  const [tasks, setTasks] = useState<PlainTask[]>()
  const [history, setHistory] = useState<{ task: unknown; conversation: ConversationContext }>()
  const [error, setError] = useState<string>()
  /** The task whose push-notification configs are shown. */
  const [pushTask, setPushTask] = useState<string>()
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
              <Fragment key={t.id}>
                <tr>
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
                    {pushNotifications !== undefined && (
                      <>
                        <button
                          className="btn small"
                          aria-expanded={pushTask === t.id}
                          title="This task's push-notification configs: Parallax's webhook receiver on 127.0.0.1 gets what the agent pushes"
                          onClick={() => setPushTask(pushTask === t.id ? undefined : t.id)}
                        >
                          Push…
                        </button>{' '}
                      </>
                    )}
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
                {pushTask === t.id && (
                  <tr>
                    <td colSpan={4}>
                      <PushConfigs
                        connectionId={connectionId}
                        taskId={t.id}
                        advertised={pushNotifications}
                        finishedAs={TERMINAL.has(t.status.state) ? t.status.state : undefined}
                      />
                    </td>
                  </tr>
                )}
              </Fragment>
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

/**
 * A task's push-notification configs, as the agent holds them: **Add webhook** points the agent at
 * Parallax's receiver (127.0.0.1, its own path and token); each config says how many pushes arrived, and
 * whether the agent is a finding (the task changed state and no push came within the bound). Get, Delete.
 * A finished task changes no more, so nothing would be pushed: it is not offered a webhook.
 */
function PushConfigs({
  connectionId,
  taskId,
  advertised,
  finishedAs,
}: {
  connectionId: string
  taskId: string
  advertised?: boolean
  /** The terminal state the task ended in (completed, failed, canceled, rejected); undefined while it runs. */
  finishedAs?: string
}) {
  const [configs, setConfigs] = useState<A2aPushConfig[]>()
  const [shown, setShown] = useState<A2aPushConfig>()
  const [expectWithinMs, setExpectWithinMs] = useState(10_000)
  const load = async () => {
    const list = await command((api) => api.invoke('pushConfigs.list', { connectionId, taskId }))
    setConfigs(list ?? [])
  }
  // eslint-disable-next-line react-hooks/exhaustive-deps -- load once per task; `load` is remade each render
  useEffect(() => void load(), [connectionId, taskId])
  const create = async () => {
    const made = await command((api) => api.invoke('pushConfigs.create', { connectionId, taskId, expectWithinMs }))
    if (made) setShown(made)
    await load()
  }
  return (
    <div className="push-configs" data-testid="push-configs">
      {advertised === false && (
        <div className="muted">The card does not advertise pushNotifications: the agent may refuse push configs.</div>
      )}
      {!configs && <div className="muted">Loading push configs…</div>}
      {configs && configs.length === 0 && <div className="muted">No push-notification config for this task.</div>}
      {configs && configs.length > 0 && (
        <table className="grid">
          <tbody>
            {configs.map((c) => (
              <tr key={c.id} data-testid="push-config">
                <td className="mono">{c.id.slice(0, 8)}</td>
                <td className="mono url">{c.url}</td>
                <td>
                  {c.receiver ? (
                    <>
                      <span data-testid="push-count">
                        {c.receiver.pushes} push{c.receiver.pushes === 1 ? '' : 'es'}
                      </span>
                      {c.receiver.lastPushAt !== undefined && <span className="muted"> · last {clock(c.receiver.lastPushAt)}</span>}
                      {c.receiver.finding && (
                        <div className="finding" data-testid="push-finding">
                          ⚠ {c.receiver.finding}
                        </div>
                      )}
                    </>
                  ) : (
                    <span className="muted">not Parallax&apos;s receiver</span>
                  )}
                </td>
                <td style={{ textAlign: 'right' }}>
                  <button
                    className="btn small"
                    onClick={() =>
                      void command((api) => api.invoke('pushConfigs.get', { connectionId, taskId, configId: c.id })).then(
                        (got) => got && setShown(got),
                      )
                    }
                  >
                    Get
                  </button>{' '}
                  <button
                    className="btn small danger"
                    onClick={() =>
                      void command((api) => api.invoke('pushConfigs.delete', { connectionId, taskId, configId: c.id })).then(() => load())
                    }
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="row-actions">
        {finishedAs ? (
          <span className="muted" data-testid="push-finished">
            The task is {finishedAs}: it will change no more, so a webhook would receive nothing.
          </span>
        ) : (
          <>
            <button className="btn small primary" onClick={() => void create()}>
              Add webhook
            </button>{' '}
            <label className="muted">
              a push expected within{' '}
              <input
                className="input"
                type="number"
                min={100}
                step={500}
                value={expectWithinMs}
                aria-label="Push expected within (ms)"
                onChange={(e) => setExpectWithinMs(Math.max(100, Number(e.target.value) || 10_000))}
                style={{ width: 90 }}
              />{' '}
              ms of a state change
            </label>
          </>
        )}{' '}
        <button className="btn small" onClick={() => void load()}>
          Refresh
        </button>
      </div>
      {shown && <JsonView value={shown} openDepth={1} />}
    </div>
  )
}
