import type { OAuthSettings } from '../../../shared/contract'

/**
 * An HTTP target's OAuth settings in the editor. All optional: without them Parallax discovers the
 * authorization server and registers itself where the server allows. A client secret typed here goes to
 * the secret store when saved, never into the targets file.
 */
export function OAuthFields({ value, onChange }: { value: OAuthSettings; onChange: (next: OAuthSettings) => void }) {
  const set = (field: keyof OAuthSettings, text: string) => onChange({ ...value, [field]: text.trim() || undefined })
  const configured = Object.values(value).some((v) => v !== undefined && v !== false)
  return (
    <details className="editor-section" open={configured}>
      <summary>OAuth {configured ? '' : <span className="muted">· optional: discovered and registered when the server asks</span>}</summary>
      <div className="form">
        <label htmlFor="t-client-id">Client ID</label>
        <input
          id="t-client-id"
          className="input mono"
          value={value.clientId ?? ''}
          onChange={(e) => set('clientId', e.target.value)}
          placeholder="(registered dynamically, or by a metadata document)"
        />
        <label htmlFor="t-client-secret">Client secret</label>
        <input
          id="t-client-secret"
          type="password"
          autoComplete="off"
          className="input mono"
          value={value.clientSecret ?? ''}
          onChange={(e) => set('clientSecret', e.target.value)}
          placeholder="(none, or kept in the secret store: type to replace)"
        />
        <label htmlFor="t-client-key">Private key file</label>
        <input
          id="t-client-key"
          className="input mono"
          value={value.clientKeyFile ?? ''}
          onChange={(e) => set('clientKeyFile', e.target.value)}
          placeholder="(a PEM key: the client signs a JWT instead of sending a secret)"
        />
        <label htmlFor="t-client-metadata">Client metadata URL</label>
        <input
          id="t-client-metadata"
          className="input mono"
          value={value.clientMetadataUrl ?? ''}
          onChange={(e) => set('clientMetadataUrl', e.target.value)}
          placeholder="https://… (a Client ID Metadata Document)"
        />
        <label htmlFor="t-scope">Scopes</label>
        <input
          id="t-scope"
          className="input mono"
          value={value.scope ?? ''}
          onChange={(e) => set('scope', e.target.value)}
          placeholder="(as the server's challenge or metadata names them)"
        />
        <label htmlFor="t-grant">Grant</label>
        <select
          id="t-grant"
          className="input"
          value={value.grant ?? 'auto'}
          onChange={(e) =>
            onChange({ ...value, grant: e.target.value === 'auto' ? undefined : (e.target.value as OAuthSettings['grant']) })
          }
        >
          <option value="auto">As the server and the credentials allow</option>
          <option value="authorization_code">Authorization code (a person signs in)</option>
          <option value="client_credentials">Client credentials (a machine client)</option>
        </select>
        <span />
        <label className="check">
          <input
            type="checkbox"
            checked={value.headless ?? false}
            onChange={(e) => onChange({ ...value, headless: e.target.checked || undefined })}
          />{' '}
          Without a browser: follow the authorization redirect (servers that approve without a person)
        </label>
      </div>
    </details>
  )
}

/** The settings as a target keeps them: nothing when every field is empty. */
export function oauthDraft(value: OAuthSettings): OAuthSettings | undefined {
  const kept = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== false && v !== ''))
  return Object.keys(kept).length ? (kept as OAuthSettings) : undefined
}
