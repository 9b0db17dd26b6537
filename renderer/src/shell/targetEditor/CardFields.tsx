import { useState } from 'react'
import type { ServerCardRead } from '../../../../shared/contract'
import { useStore } from '../../store/store'
import { ServerCardPreview, cardEndpoint } from '../../views/connection/serverCard/ServerCardPreview'
import '../../views/connection/serverCard/serverCard.css'
import type { FieldsProps } from './targetForm'

/**
 * Inspect before connecting: paste a server card's URL (SEP-2127, draft), a server.json's or a server's base URL,
 * see what it claims, and take its endpoint (and name) into this target.
 */
export function CardFields({ form, set }: FieldsProps) {
  const [url, setUrl] = useState('')
  const [card, setCard] = useState<ServerCardRead>()
  const [error, setError] = useState<string>()
  const read = async () => {
    setError(undefined)
    setCard(undefined)
    try {
      setCard(await useStore.getState().api!.invoke('cards.read', { url: url.trim() }))
    } catch (e) {
      setError((e as Error).message)
    }
  }
  const endpoint = card && cardEndpoint(card)
  return (
    <>
      <label htmlFor="t-card" className="card-label">
        Server card
      </label>
      <div>
        <div className="card-drift-bar">
          <input
            id="t-card"
            className="input mono"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://example.com (its /.well-known/mcp/server-card), a card's or a server.json's URL"
          />
          <button className="btn" onClick={() => void read()} disabled={!url.trim()}>
            Read card
          </button>
        </div>
        {error && <div className="error-text">{error}</div>}
        {card && (
          <>
            <ServerCardPreview card={card} />
            {endpoint && (
              <button
                className="btn primary small"
                style={{ marginTop: 6 }}
                onClick={() => set({ url: endpoint, name: form.name || card.title || card.name?.split('/').at(-1) || '' })}
              >
                Use its endpoint
              </button>
            )}
          </>
        )}
      </div>
    </>
  )
}
