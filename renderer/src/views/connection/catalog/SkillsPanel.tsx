import type { A2aHandshakeEvent } from '../../../../../shared/contract'
import { CatalogItem } from './CatalogPanel'
import { CopyButton } from '../../../components/CopyButton'
import { actOn } from '../../../store/actions'
import './catalog.css'

/** The agent's skills, the A2A counterpart of an MCP catalog. */
export function SkillsPanel({ handshake, targetId }: { handshake: A2aHandshakeEvent | undefined; targetId: string }) {
  const skills = handshake?.skills ?? []
  if (skills.length === 0) {
    return (
      <div className="panel">
        <div className="empty">
          <h2>No skills</h2>
          <p>{handshake ? 'The agent card lists no skills.' : 'The card has not been fetched yet.'}</p>
        </div>
      </div>
    )
  }
  return (
    <div className="panel" data-testid="skills">
      <div className="section-title">
        Skills <span className="count">{skills.length}</span>
        <CopyButton value={() => skills} />
      </div>
      {skills.map((s) => (
        <CatalogItem
          key={s.id}
          name={s.id}
          description={s.description}
          open
          action={{
            label: 'Call',
            title: 'Call it with a data part {"skill", "input"} (Calls)',
            run: () => actOn(targetId, 'tool', s.id),
          }}
        >
          <div className="fields">
            {s.tags.map((t) => (
              <span key={t} className="field">
                #{t}
              </span>
            ))}
          </div>
          {s.examples.length > 0 && (
            <div className="muted">
              Try:{' '}
              {s.examples.map((e) => (
                <code key={e} style={{ marginRight: 8 }}>
                  {e}
                </code>
              ))}
            </div>
          )}
        </CatalogItem>
      ))}
    </div>
  )
}
