import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { isSecretName, looksSecret, redactArgs, redactMap, redactText, secretNameMatcher } from '../../shared/contract'
import { redactRecordingText } from '../../shared/session/recording'
import { Redactor, TOO_DEEP } from '../../shared/runtime/redaction'

describe('secret names: matched by words, not substrings', () => {
  it('finds the names that hold secrets, however they are spelled', () => {
    const secret = [
      'OPENAI_KEY',
      'apiKey',
      'APIKey',
      'x-api-key',
      'X-API-KEY',
      'GITHUB_PAT',
      'GitHubPAT',
      'accessToken',
      'refresh_token',
      'client_secret',
      'AWS_SECRET_ACCESS_KEY',
      'Set-Cookie',
      'cookie',
      'Authorization',
      'proxy-authorization',
      'password',
      'DB_PASSWORD',
      'db.password',
      'MYSQL_PWD',
      'passphrase',
      'credentials',
      'auth',
      'X-Auth-Token',
      'NODE_AUTH_TOKEN',
      'jwt',
      'X-Amz-Signature',
      'sig',
    ]
    expect(secret.filter((name) => !isSecretName(name))).toEqual([])
  })

  it('leaves alone the names that only look alike, and those that describe a secret instead of holding it', () => {
    const plain = [
      'author',
      'authenticated',
      'keyboard',
      'monkey',
      'keys',
      'patch',
      'path',
      'pattern',
      'passport',
      'tokenizer_model',
      'max_tokens',
      'maxTokens',
      'input_tokens',
      'progressToken',
      'nextPageToken',
      'page_token',
      'token_url',
      'tokenEndpoint',
      'authorization_servers',
      'auth_type',
      'key_id',
      'AWS_ACCESS_KEY_ID',
      'token_expires_at',
      'password_file',
      'public_key',
      'primary_key',
      'idempotency_key',
      'PWD',
      'OLDPWD',
      'DATABASE_URL',
      'session_id',
      'product_id',
      'buyer_ref',
    ]
    expect(plain.filter((name) => isSecretName(name))).toEqual([])
  })

  it("adds the user's own names, matched by words too", () => {
    const matcher = secretNameMatcher(['buyer_ref', 'ssn'])
    expect(['buyer_ref', 'buyerRef', 'X-Buyer-Ref', 'customer_ssn', 'OPENAI_KEY'].every(matcher)).toBe(true)
    expect(['buyer', 'ref', 'lesson', 'product_id'].some(matcher)).toBe(false)
  })
})

describe('secrets in text', () => {
  it('takes the password out of a URL, and secret query parameters, keeping the user, the host and the rest', () => {
    expect(redactText('connect to postgres://report_user:Pa55w0rd@db.example:5432/sales?sslmode=require')).toBe(
      'connect to postgres://report_user:[redacted]@db.example:5432/sales?sslmode=require',
    )
    expect(redactText('GET https://api.example.com/v1/items?api_key=AK-123456&page=2&access_token=tok9')).toBe(
      'GET https://api.example.com/v1/items?api_key=[redacted]&page=2&access_token=[redacted]',
    )
    expect(redactText('https://user:p@ss@host.example/x')).toBe('https://user:[redacted]@host.example/x')
    expect(redactText('https://example.com/path?page=2&sort=asc')).toBe('https://example.com/path?page=2&sort=asc')
  })

  it('takes out flag-style arguments, assignments, JSON pairs and authorization schemes', () => {
    expect(redactText('run --token tok_ABC123 --api-key=key-xyz-9 --verbose --port 8080')).toBe(
      'run --token [redacted] --api-key=[redacted] --verbose --port 8080',
    )
    expect(redactText('OPENAI_KEY=sk-live-abc123 GITHUB_PAT=ghp_xyz789 PATH=/usr/bin')).toBe(
      'OPENAI_KEY=[redacted] GITHUB_PAT=[redacted] PATH=/usr/bin',
    )
    expect(redactText('create_media_buy({"product_id":"p1","password":"hunter2-pw","pin_code":1234})')).toBe(
      'create_media_buy({"product_id":"p1","password":"[redacted]","pin_code":1234})',
    )
    expect(redactText('{"api_key": 12345678}')).toBe('{"api_key": "[redacted]"}')
    expect(redactText('env: {\\"client_secret\\": \\"cs-42-xyz\\"}')).toBe('env: {\\"client_secret\\": \\"[redacted]\\"}')
    expect(redactText('Authorization: Bearer eyJhbGciOi.JIUzI1.NiJ9')).toBe('Authorization: Bearer [redacted]')
    expect(redactText('sent Basic dXNlcjpwYXNzd29yZA== upstream')).toBe('sent Basic [redacted] upstream')
    expect(redactText('password = "two words" and token: 12ab34cd')).toBe('password = [redacted] and token: [redacted]')
  })

  it('leaves ordinary prose and ordinary fields as they are', () => {
    for (const text of [
      'basic well-known things; the bearer token expired',
      'path=/usr/bin author=Jane keyboard=us max_tokens=300',
      'use --verbose --output report.json',
      '{"product_id":"p1","budget":25000}',
      'progressToken: 7',
    ]) {
      expect(redactText(text)).toBe(text)
    }
  })

  it('reads command lines argument by argument: `--token X` across two arguments, `--api-key=X` and `NAME=X` in one', () => {
    expect(
      redactArgs([
        'server.js',
        '--token',
        'TOKEN_X1',
        '--api-key=APIKEY_Y2',
        'GITHUB_PAT=ghp_1',
        '--port',
        '8080',
        '--password-file',
        '/etc/pw',
        '--auth',
        '--verbose',
      ]),
    ).toEqual([
      'server.js',
      '--token',
      '[redacted]',
      '--api-key=[redacted]',
      'GITHUB_PAT=[redacted]',
      '--port',
      '8080',
      '--password-file',
      '/etc/pw',
      '--auth',
      '--verbose',
    ])
  })

  it('redacts a map by its names, and secrets inside its other values', () => {
    expect(
      redactMap({
        Authorization: 'Bearer x',
        API_KEY: 'k',
        GITHUB_PAT: 'p',
        DATABASE_URL: 'mysql://app:secretpw@db/x',
        LOG_LEVEL: 'debug',
      }),
    ).toEqual({
      Authorization: '[redacted]',
      API_KEY: '[redacted]',
      GITHUB_PAT: '[redacted]',
      DATABASE_URL: 'mysql://app:[redacted]@db/x',
      LOG_LEVEL: 'debug',
    })
  })
})

describe('Redactor', () => {
  const target = {
    targets: [
      {
        spec: {
          kind: 'mcp-stdio',
          command: 'node',
          args: ['server.js', '--token', 'TOKEN-x1y2z3', '--api-key=APIKEY-a1b2c3'],
          env: {
            OPENAI_KEY: 'sk-OPENAI-111',
            GITHUB_PAT: 'ghp_PAT222',
            DATABASE_URL: 'postgres://dbuser:DBPASS333@dbhost/db',
            LOG: 'debug',
          },
        },
      },
    ],
  }

  it('remembers what it redacted, and finds it later in text with no name beside it', () => {
    const redactor = new Redactor()
    expect(redactor.redact(target)).toEqual({
      targets: [
        {
          spec: {
            kind: 'mcp-stdio',
            command: 'node',
            args: ['server.js', '--token', '[redacted]', '--api-key=[redacted]'],
            env: {
              OPENAI_KEY: '[redacted]',
              GITHUB_PAT: '[redacted]',
              DATABASE_URL: 'postgres://dbuser:[redacted]@dbhost/db',
              LOG: 'debug',
            },
          },
        },
      ],
    })
    const line = redactor.redact({ type: 'log', text: 'saw sk-OPENAI-111, DBPASS333, TOKEN-x1y2z3, ghp_PAT222 and APIKEY-a1b2c3' })
    expect(line).toEqual({ type: 'log', text: 'saw [redacted], [redacted], [redacted], [redacted] and [redacted]' })
  })

  it('catches a secret copied into text earlier in the same value than the field that names it', () => {
    const message = {
      content: 'login as ann with Zq9-secret-pw',
      metadata: { data: { arguments: { user: 'ann', password: 'Zq9-secret-pw' } } },
    }
    expect(new Redactor().redact(message)).toEqual({
      content: 'login as ann with [redacted]',
      metadata: { data: { arguments: { user: 'ann', password: '[redacted]' } } },
    })
  })

  it("redacts a diff entry's values by the field its pointer names", () => {
    const diff = [
      { path: '/data/OPENAI_KEY', op: 'replace', a: '[redacted]', b: 'sk-live-zzz' },
      { path: '/data/count', op: 'replace', a: 1, b: 2 },
    ]
    expect(new Redactor().redact(diff)).toEqual([
      { path: '/data/OPENAI_KEY', op: 'replace', a: '[redacted]', b: '[redacted]' },
      { path: '/data/count', op: 'replace', a: 1, b: 2 },
    ])
  })

  it('redacts every value in a list under a secret name, and keeps booleans and protocol fields', () => {
    expect(
      new Redactor().redact({ 'Set-Cookie': ['sid=abc123; Path=/', 'x=yyyyyy'], auth_required: true, _meta: { progressToken: 'p-1' } }),
    ).toEqual({
      'Set-Cookie': ['[redacted]', '[redacted]'],
      auth_required: true,
      _meta: { progressToken: 'p-1' },
    })
  })

  it('returns a value with nothing secret as it is, without copying', () => {
    const clean = {
      type: 'frame',
      payload: {
        jsonrpc: '2.0',
        result: { tools: [{ name: 'search', inputSchema: { type: 'object', properties: { password: { type: 'string' } } } }] },
      },
    }
    expect(new Redactor().redact(clean)).toBe(clean)
  })

  it('never throws on a value nested 10,000 levels deep: the part past the limit becomes a marker', () => {
    let deep: unknown = { password: 'Deep-secret-1' }
    for (let i = 0; i < 10_000; i++) deep = { d: deep }
    const redactor = new Redactor()
    const out = redactor.redact(deep)
    expect(redactor.cutDeep).toBe(true)
    const text = JSON.stringify(out)
    expect(text).toContain(TOO_DEEP)
    expect(text).not.toContain('Deep-secret-1')
  })
})

describe('recording text (import and export)', () => {
  it('keeps the shipped demo recording byte for byte', () => {
    const demo = readFileSync(fileURLToPath(new URL('../../shared/demo/recordings/media-buying.jsonl', import.meta.url)), 'utf8')
    expect(redactRecordingText(demo)).toBe(demo)
  })

  it('redacts every line with what the header gave away, text lines too, and keeps clean lines as they were', () => {
    const header = JSON.stringify({
      format: 'parallax.recording/1',
      targets: [{ id: 't', name: 't', spec: { kind: 'mcp-stdio', command: 'x', args: ['--token', 'Tok-123456'], env: {} } }],
    })
    const clean = '{"type":"log","seq":1,"ts":1,"connectionId":"c","text":"ready"}'
    const text = [header, clean, '{"type":"log","seq":2,"ts":2,"connectionId":"c","text":"using Tok-123456"}', 'not json: Tok-123456'].join(
      '\n',
    )
    const out = redactRecordingText(text).split('\n')
    expect(out[1]).toBe(clean)
    expect(out.join('\n')).not.toContain('Tok-123456')
    expect(out[3]).toBe('not json: [redacted]')
  })
})

describe('values shaped like credentials, whatever their names', () => {
  it('knows credentials by their shape: schemes, JWTs, vendor keys, session cookies, long random tokens', () => {
    for (const value of [
      'sessionid=q8Zr2Lw0VbN4xK7mT1pY; Path=/; HttpOnly',
      'PHPSESSID=9f8e7d6c5b4a3928; path=/',
      'theme=dark; remember_me=a1b2c3d4e5f6',
      'Bearer abcDEF123456',
      'Basic dXNlcjpwYXNzd29yZA==',
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
      'ghp_1234567890abcdefghijABCDEFGHIJ123456',
      'sk-proj-OPENAI0secret0value0123',
      'sk_live_51Hxyz1234567890abcdef',
      'AKIAIOSFODNN7EXAMPLE',
      'xoxb-1234567890-abcdefghij',
      '0bS0XyVv8fFGuQm3Tk0vNfdJqaKSbfO1j4Z8xJ2b6lUC2CqW7Zk3PA==',
    ])
      expect(looksSecret(value), value).toBe(true)
  })

  it('leaves ordinary values alone: content types, dates, versions, ids, digests, URLs, paths, names, challenges', () => {
    for (const value of [
      'application/json; charset=utf-8',
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'Tue, 15 Nov 1994 08:12:31 GMT',
      '2024-05-01T12:34:56.789Z',
      '7f3c1e2a-9b8d-4c6e-a1f2-3b4c5d6e7f80',
      '463ac35c9f6413ad48485a3953bb6124',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      '01ARZ3NDEKTSV4RRFFQ69G5FAV',
      '2.4.1',
      'en-US,en;q=0.9',
      'max-age=31536000; includeSubDomains',
      'timeout=5, max=1000',
      'W/"33a64df551425fcc55e4d42a148795d9f25f89d4"',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36',
      'https://example.com/path?x=1',
      '/usr/local/lib/node_modules/SomeProject2024/build',
      'com.example.service.SomeLongClassName2',
      'HelloWorldThisIsAVeryLongCamelCaseName2',
      'Bearer realm="mcp", error="invalid_token", resource_metadata="https://x.example/.well-known/oauth-protected-resource"',
    ])
      expect(looksSecret(value), value).toBe(false)
  })

  it('redacts such values in a header map whatever the name, keeping an authorization scheme readable', () => {
    expect(
      redactMap({
        'X-Custom-Session': 'sessionid=q8Zr2Lw0VbN4xK7mT1pY; Path=/',
        'X-Upstream': 'Bearer up-Str3am-t0ken-9f8e7d',
        'X-Request-Id': '7f3c1e2a-9b8d-4c6e-a1f2-3b4c5d6e7f80',
        'Content-Type': 'application/json',
      }),
    ).toEqual({
      'X-Custom-Session': '[redacted]',
      'X-Upstream': 'Bearer [redacted]',
      'X-Request-Id': '7f3c1e2a-9b8d-4c6e-a1f2-3b4c5d6e7f80',
      'Content-Type': 'application/json',
    })
  })
})
