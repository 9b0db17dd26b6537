import { Fragment } from 'react'
import type { OAuthSettings } from '../../../../shared/contract'

/**
 * An HTTP target's OAuth settings in the editor. All optional: without them Parallax discovers the
 * authorization server and registers itself where the server allows. A client secret typed here goes to
 * the secret store when saved, never into the targets file.
 */
export function OAuthFields({ value, onChange }: { value: OAuthSettings; onChange: (next: OAuthSettings) => void }) {
  const set = (field: TextField, text: string) => onChange({ ...value, [field]: text.trim() || undefined })
  const configured = Object.values(value).some((v) => v !== undefined && v !== false)
  return (
    <details className="editor-section" open={configured}>
      <summary>OAuth {configured ? '' : <span className="muted">· optional: discovered and registered when the server asks</span>}</summary>
      <div className="form">
        {TEXT_FIELDS.map(({ field, id, label, placeholder, secret }) => (
          <Fragment key={field}>
            <label htmlFor={id}>{label}</label>
            <input
              id={id}
              className="input mono"
              type={secret ? 'password' : 'text'}
              autoComplete="off"
              value={value[field] ?? ''}
              onChange={(e) => set(field, e.target.value)}
              placeholder={placeholder}
            />
          </Fragment>
        ))}
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

type TextField = 'clientId' | 'clientSecret' | 'clientKeyFile' | 'clientMetadataUrl' | 'scope'

const TEXT_FIELDS: { field: TextField; id: string; label: string; placeholder: string; secret?: true }[] = [
  { field: 'clientId', id: 't-client-id', label: 'Client ID', placeholder: '(registered dynamically, or by a metadata document)' },
  {
    field: 'clientSecret',
    id: 't-client-secret',
    label: 'Client secret',
    placeholder: '(none, or kept in the secret store: type to replace)',
    secret: true,
  },
  {
    field: 'clientKeyFile',
    id: 't-client-key',
    label: 'Private key file',
    placeholder: '(a PEM key: the client signs a JWT instead of sending a secret)',
  },
  {
    field: 'clientMetadataUrl',
    id: 't-client-metadata',
    label: 'Client metadata URL',
    placeholder: 'https://… (a Client ID Metadata Document)',
  },
  { field: 'scope', id: 't-scope', label: 'Scopes', placeholder: "(as the server's challenge or metadata names them)" },
]
