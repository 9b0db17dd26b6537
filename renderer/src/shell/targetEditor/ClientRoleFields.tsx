import { useProfiles } from '../../views/connection/serverRequests/ProfilePicker'
import type { FieldsProps } from './targetForm'

/**
 * What Parallax is as the target's client: the profile it connects under (what it offers an MCP server, or
 * an ACP agent); for an MCP server, also the roots it offers and the scripted answers to what the server asks.
 * An A2A agent has none.
 */
export function ClientRoleFields({ form, set }: FieldsProps) {
  const profiles = useProfiles()
  const { profile } = form
  const description = profiles.find((p) => p.name === profile)?.description ?? ''
  const profileSelect = (
    <>
      <label htmlFor="t-profile">Client profile</label>
      <select id="t-profile" className="input" value={profile} onChange={(e) => set({ profile: e.target.value })}>
        {(profiles.some((p) => p.name === profile) ? profiles : [...profiles, { name: profile, description: undefined }]).map((p) => (
          <option key={p.name} value={p.name} title={p.description}>
            {p.name}
          </option>
        ))}
      </select>
    </>
  )
  if (form.kind === 'acp')
    return (
      <>
        {profileSelect}
        <div className="hint">What Parallax offers the agent (files, a terminal, the tool categories hint). {description}</div>
      </>
    )
  if (form.kind === 'a2a') return null
  return (
    <>
      {profileSelect}
      <div className="hint">What Parallax offers the server. {description}</div>
      <label htmlFor="t-roots">Roots</label>
      <textarea
        id="t-roots"
        value={form.roots}
        onChange={(e) => set({ roots: e.target.value })}
        placeholder={'file:///home/me/project  my project'}
      />
      <div className="hint">
        One file:// URI a line (a name may follow it), answered on roots/list. A live connection’s server is told when they change.
      </div>
      <label htmlFor="t-responder">Scripted answers</label>
      <input
        id="t-responder"
        className="input mono"
        value={form.responderFile}
        onChange={(e) => set({ responderFile: e.target.value })}
        placeholder="(none: you answer sampling and elicitation requests yourself)"
      />
      <div className="hint">
        A JSON file of canned replies, or a module (request) =&gt; result, which asks for your approval before it first runs.
      </div>
    </>
  )
}
