import { describe, expect, it } from 'vitest'
import { readSecurity } from '../../shared/a2a/securitySchemes'
import { parseChallenge } from '../../shared/auth/challenge'
import { redactBody, redactHeaders, redactUrl } from '../../shared/auth/redactExchange'
import { chooseScopes } from '../../shared/auth/scopes'

describe('authorization, the pure parts', () => {
  it('reads a challenge, quoted or not', () => {
    expect(
      parseChallenge(
        403,
        'Bearer error="insufficient_scope", scope="a b", resource_metadata="http://x/.well-known/oauth-protected-resource/mcp"',
      ),
    ).toEqual({
      status: 403,
      header: 'Bearer error="insufficient_scope", scope="a b", resource_metadata="http://x/.well-known/oauth-protected-resource/mcp"',
      error: 'insufficient_scope',
      scope: 'a b',
      resourceMetadata: 'http://x/.well-known/oauth-protected-resource/mcp',
    })
    expect(parseChallenge(401, 'Bearer error=invalid_token')).toMatchObject({ error: 'invalid_token' })
    expect(parseChallenge(401, null)).toEqual({ status: 401 })
    // A resource_metadata that is not a URL is not followed.
    expect(parseChallenge(401, 'Bearer resource_metadata="not a url"').resourceMetadata).toBeUndefined()
  })

  it('chooses scopes in the spec’s order, offline_access only where offered', () => {
    const prm = { resource: 'http://x/mcp', scopes_supported: ['r', 'w'] }
    const offers = {
      issuer: 'http://as',
      authorization_endpoint: 'a',
      token_endpoint: 't',
      response_types_supported: ['code'],
      scopes_supported: ['r', 'offline_access'],
    }
    expect(chooseScopes({ challengeScope: 'r', resourceMetadata: prm, refreshable: false }).scopes).toEqual(['r'])
    expect(chooseScopes({ settingsScope: 's', resourceMetadata: prm, refreshable: false }).scopes).toEqual(['s'])
    expect(chooseScopes({ resourceMetadata: prm, refreshable: false }).scopes).toEqual(['r', 'w'])
    expect(chooseScopes({ refreshable: false }).scopes).toEqual([])
    expect(chooseScopes({ resourceMetadata: prm, metadata: offers, refreshable: true }).scopes).toEqual(['r', 'w', 'offline_access'])
    expect(chooseScopes({ resourceMetadata: prm, metadata: offers, refreshable: false }).scopes).toEqual(['r', 'w'])
    expect(chooseScopes({ resourceMetadata: prm, metadata: { ...offers, scopes_supported: ['r'] }, refreshable: true }).scopes).toEqual([
      'r',
      'w',
    ])
    // A step-up keeps what was held.
    expect(chooseScopes({ challengeScope: 'w', held: ['r'], refreshable: false }).scopes).toEqual(['r', 'w'])
  })

  it('shows an exchange without its secrets: codes, verifiers, secrets, tokens; an assertion keeps its claims', () => {
    const assertion = `${Buffer.from('{"alg":"ES256"}').toString('base64url')}.${Buffer.from('{"iss":"me","aud":"as"}').toString('base64url')}.c2lnbmF0dXJl`
    const form = `grant_type=authorization_code&code=abc123&code_verifier=v3r&client_id=me&client_secret=s3cret&client_assertion=${assertion}`
    const shown = JSON.stringify(redactBody(form, 'application/x-www-form-urlencoded'))
    for (const secret of ['abc123', 'v3r', 's3cret', 'c2lnbmF0dXJl']) expect(shown).not.toContain(secret)
    expect(shown).toContain('"client_id":"me"')
    expect(shown).toContain('"iss":"me"')
    const answer = JSON.stringify(
      redactBody('{"access_token":"at1","refresh_token":"rt1","token_type":"Bearer","expires_in":60,"scope":"r"}', 'application/json'),
    )
    expect(answer).not.toMatch(/at1|rt1/)
    expect(answer).toContain('"token_type":"Bearer"')
    const metadata = JSON.stringify(
      redactBody('{"token_endpoint":"http://as/token","token_endpoint_auth_methods_supported":["none"]}', 'application/json'),
    )
    expect(metadata).toContain('http://as/token')
    expect(redactHeaders(new Headers({ Authorization: 'Basic bWU6czNjcmV0', Accept: 'application/json' }))).toEqual({
      authorization: 'Basic [redacted]',
      accept: 'application/json',
    })
    expect(redactUrl('http://127.0.0.1:5/callback?code=abc&state=xyz')).toBe('http://127.0.0.1:5/callback?code=%5Bredacted%5D&state=xyz')
  })

  it('reads an A2A card’s security schemes in both generations’ shapes', () => {
    const v1 = readSecurity(
      {
        securitySchemes: {
          o: {
            oauth2SecurityScheme: {
              flows: { authorizationCode: { authorizationUrl: 'http://as/authorize', tokenUrl: 'http://as/token', scopes: { r: '' } } },
            },
          },
        },
        securityRequirements: [{ schemes: { o: { list: ['r'] } } }],
      },
      [],
    )
    expect(v1.summary.requirements).toEqual([['o']])
    expect(v1.authorization).toEqual({ scheme: 'o', authorizationUrl: 'http://as/authorize', tokenUrl: 'http://as/token', scopes: ['r'] })
    const v03 = readSecurity({ securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-API-Key' } }, security: [{ key: [] }] }, [
      'x-api-key',
    ])
    expect(v03.summary.schemes).toEqual([{ name: 'key', type: 'apiKey', detail: 'API key in header "X-API-Key"' }])
    expect(v03.summary.choice).toContain('sent as your header X-API-Key')
    expect(readSecurity({}, []).summary.choice).toContain('names no security scheme')
  })
})
