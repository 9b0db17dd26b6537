import { resolve } from 'node:path'
import type { OAuthSettings, SavedTarget } from '../shared/contract'
import { UsageError } from './usage'

/** The flags that give a remote server's OAuth settings (inspect, call, converse, request): they go beside the target's own. */
export const AUTH_OPTIONS = {
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  'client-key': { type: 'string' },
  'client-metadata-url': { type: 'string' },
  'assertion-file': { type: 'string' },
  'id-token-file': { type: 'string' },
  'idp-token-endpoint': { type: 'string' },
  'idp-client-id': { type: 'string' },
  scope: { type: 'string' },
  'oauth-grant': { type: 'string' },
  'oauth-headless': { type: 'boolean' },
} as const

export interface AuthFlagValues {
  'client-id'?: string
  'client-secret'?: string
  'client-key'?: string
  'client-metadata-url'?: string
  'assertion-file'?: string
  'id-token-file'?: string
  'idp-token-endpoint'?: string
  'idp-client-id'?: string
  scope?: string
  'oauth-grant'?: string
  'oauth-headless'?: boolean
}

const GRANTS = ['authorization_code', 'client_credentials', 'jwt_bearer']

/** The target with the flags' OAuth settings over its own (a config entry's `oauth`); refused for a stdio server. */
export function withAuthFlags(target: SavedTarget, values: AuthFlagValues): SavedTarget {
  const flags: OAuthSettings = {
    ...(values['client-id'] !== undefined && { clientId: values['client-id'] }),
    ...(values['client-secret'] !== undefined && { clientSecret: values['client-secret'] }),
    ...(values['client-key'] !== undefined && { clientKeyFile: resolve(values['client-key']) }),
    ...(values['client-metadata-url'] !== undefined && { clientMetadataUrl: values['client-metadata-url'] }),
    ...(values['assertion-file'] !== undefined && { assertionFile: resolve(values['assertion-file']) }),
    ...(values['id-token-file'] !== undefined && { idTokenFile: resolve(values['id-token-file']) }),
    ...(values['idp-token-endpoint'] !== undefined && { idpTokenEndpoint: values['idp-token-endpoint'] }),
    ...(values['idp-client-id'] !== undefined && { idpClientId: values['idp-client-id'] }),
    ...(values.scope !== undefined && { scope: values.scope }),
    ...(values['oauth-headless'] && { headless: true }),
  }
  const grant = values['oauth-grant']
  if (grant !== undefined) {
    if (!GRANTS.includes(grant)) throw new UsageError(`--oauth-grant is one of ${GRANTS.join(', ')}`)
    flags.grant = grant as OAuthSettings['grant']
  }
  if ((flags.idTokenFile === undefined) !== (flags.idpTokenEndpoint === undefined))
    throw new UsageError(
      '--id-token-file and --idp-token-endpoint go together (the ID token, and where the identity provider exchanges it)',
    )
  if (flags.idpTokenEndpoint !== undefined && !URL.canParse(flags.idpTokenEndpoint))
    throw new UsageError('--idp-token-endpoint must be a URL (the identity provider’s token endpoint)')
  if (flags.clientMetadataUrl !== undefined && !/^https:\/\/[^/]+\/./.test(flags.clientMetadataUrl))
    throw new UsageError('--client-metadata-url must be an https URL with a path (the client metadata document)')
  if (Object.keys(flags).length === 0) return target
  const { spec } = target
  if (spec.kind === 'mcp-stdio' || spec.kind === 'acp')
    throw new UsageError(
      'OAuth flags are for remote servers (mcp:<url>, a2a:<url>); a stdio server or an ACP agent takes its credentials from its environment',
    )
  return { ...target, spec: { ...spec, oauth: { ...spec.oauth, ...flags } } }
}
