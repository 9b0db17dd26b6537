import { connect, selectTarget, startEditing } from '../store/actions'
import { useStore } from '../store/store'
import './welcome.css'

/** The first screen: what Parallax is and the demo servers, one click each. */
export function Welcome() {
  const targets = useStore((s) => s.targets)
  const demos = targets.filter((t) => t.origin === 'demo')
  return (
    <section className="main">
      <div className="panel">
        <div className="empty" style={{ maxWidth: 640 }}>
          <h2>Inspect an agent</h2>
          <p>
            Parallax shows what an MCP server or an A2A agent negotiated, what discovery found, how keepalive behaves, every frame on the
            wire, and how the conversation unfolds. Start with a demo, or add your own.
          </p>
          <div className="welcome-demos">
            {demos.map((t) => (
              <div className="welcome-demo" key={t.id}>
                <div>
                  <strong>{t.name}</strong>
                  <div className="muted">{t.description}</div>
                </div>
                <button className="btn primary" onClick={() => (selectTarget(t.id), connect(t))}>
                  Open
                </button>
              </div>
            ))}
          </div>
          <div className="actions">
            <button className="btn" onClick={() => startEditing('new')}>
              + Add your own server
            </button>
          </div>
        </div>
      </div>
    </section>
  )
}
