import { useState } from 'react'
import type { ClientProfile } from '../../../../shared/contract'
import { command } from '../../store/store'
import { Modal } from '../../components/Modal'

const TEMPLATE = {
  name: 'my-profile',
  description: 'What this client says about itself',
  mcp: {
    capabilities: { experimental: { 'io.parallax/tool-categories': { categories: ['forecasting'] } } },
  },
  a2a: { extensions: [], headers: {}, metadata: {} },
}

/** Client profiles: presets to read, your own to write as JSON (validated when saved). */
export function ProfilesDialog({ profiles, onClose }: { profiles: (ClientProfile & { preset: boolean })[]; onClose: () => void }) {
  const [text, setText] = useState(JSON.stringify(TEMPLATE, null, 2))
  const [error, setError] = useState<string>()
  const save = async () => {
    setError(undefined)
    let profile: unknown
    try {
      profile = JSON.parse(text)
    } catch (e) {
      setError(`not JSON: ${(e as Error).message}`)
      return
    }
    const saved = await command((api) => api.invoke('profiles.save', { profile }))
    if (saved) onClose()
  }
  return (
    <Modal
      title="Client profiles"
      width="min(820px, 94vw)"
      onClose={onClose}
      footer={
        <>
          <button className="btn" onClick={onClose}>
            Close
          </button>
          <button className="btn primary" onClick={() => void save()}>
            Save profile
          </button>
        </>
      }
    >
      <table className="grid">
        <tbody>
          {profiles.map((p) => (
            <tr key={p.name}>
              <td className="mono">{p.name}</td>
              <td className="muted">{p.preset ? 'preset' : 'yours'}</td>
              <td>{p.description}</td>
              <td style={{ textAlign: 'right' }}>
                <button
                  className="btn small"
                  onClick={() => setText(JSON.stringify({ ...p, preset: undefined, name: p.preset ? `${p.name}-copy` : p.name }, null, 2))}
                >
                  Edit{p.preset ? ' a copy' : ''}
                </button>{' '}
                {!p.preset && (
                  <button
                    className="btn small danger"
                    onClick={() => void command((api) => api.invoke('profiles.remove', { name: p.name })).then(onClose)}
                  >
                    Delete
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="section-title">Profile (JSON)</div>
      <p className="muted" data-testid="protocol-version-hint">
        <span className="mono">mcp.protocolVersion</span>: leave it out to negotiate the MCP era (2026-07-28 through server/discover, else
        the 2025 versions); <span className="mono">2026-07-28</span> for the 2026 era only; a 2025 version such as{' '}
        <span className="mono">2025-06-18</span> for the 2025 handshake only.
      </p>
      <textarea
        className="input composer-input mono"
        style={{ width: '100%', minHeight: 220 }}
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-label="Profile JSON"
      />
      {error && <div className="error-text">{error}</div>}
    </Modal>
  )
}
