/**
 * What counts as a secret, and how it is taken out of names, maps and text. Pure functions with no
 * platform APIs: the renderer uses them as well as the engine (which adds the stateful part, see
 * shared/runtime/redaction.ts).
 *
 * Names are matched by words, not substrings: a name is split at `_`, `-`, `.`, spaces and camelCase
 * boundaries (`OPENAI_KEY`, `apiKey`, `x-api-key`, `GitHubPAT`, `client_secret`, `Set-Cookie` all split
 * into words), and it is secret when one of its words is a secret word. So `author`, `keyboard`,
 * `monkey`, `patch`, `path`, `tokenizer` and `max_tokens` are not secret, while `Authorization`,
 * `proxy-authorization`, `accessToken` and `GITHUB_PAT` are. Two refinements keep useful fields readable:
 * a secret word followed by a word that describes it rather than holds it (`token_url`, `key_id`,
 * `auth_type`, `token_expires_at`) does not count, nor do a few well-known non-secret compounds
 * (`progressToken`, `page_token`, `public_key`, `primary_key`, `idempotency_key`), nor `PWD` alone (the
 * working directory).
 */

export const REDACTED = '[redacted]'

/** The words that make a name secret. Users add their own names on top (`--secret-key`, `secretKeys`). */
export const SECRET_WORDS: readonly string[] = [
  'key',
  'apikey',
  'privatekey',
  'secretkey',
  'accesskey',
  'token',
  'apitoken',
  'authtoken',
  'accesstoken',
  'refreshtoken',
  'jwt',
  'secret',
  'secrets',
  'clientsecret',
  'password',
  'passwords',
  'passwd',
  'pwd',
  'passphrase',
  'passcode',
  'pat',
  'credential',
  'credentials',
  'creds',
  'auth',
  'authorization',
  'cookie',
  'cookies',
  'sig',
]

/** Multi-word names that are secret although none of their words is (signed-URL parameters). */
const SECRET_PHRASES: readonly string[][] = [
  ['amz', 'signature'],
  ['goog', 'signature'],
]

/** Words that, right after a secret word, describe the secret instead of holding it. */
const DESCRIBING_WORDS = new Set(
  'type kind url uri endpoint endpoints path file dir name names id ids count length len limit size expiry expires expiration ttl lifetime mode scheme schemes method methods format hint location field server servers required enabled supported prefix env sock socket'.split(
    ' ',
  ),
)

/** Compounds that look secret by their last word but are not. */
const NOT_SECRET = new Set([
  'progress token',
  'page token',
  'continuation token',
  'sync token',
  'resume token',
  'resumption token',
  'cancellation token',
  'public key',
  'primary key',
  'foreign key',
  'sort key',
  'partition key',
  'hash key',
  'range key',
  'row key',
  'cache key',
  'idempotency key',
  'dedup key',
  'deduplication key',
  'object key',
  'lookup key',
  'routing key',
  'shard key',
  'group key',
  'unique key',
  'composite key',
  'translation key',
  'i18n key',
])

/** A name's words, lower-cased: `OPENAI_KEY` → openai key, `xApiKey` → x api key, `APIKey` → api key. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
}

/** Decides whether a key, header, variable, flag or parameter name holds a secret. */
export type SecretMatcher = (name: string) => boolean

const WORD_SET = new Set(SECRET_WORDS)

function containsRun(words: string[], run: string[]): boolean {
  if (run.length === 0 || run.length > words.length) return false
  outer: for (let i = 0; i + run.length <= words.length; i++) {
    for (let j = 0; j < run.length; j++) if (words[i + j] !== run[j]) continue outer
    return true
  }
  return false
}

function defaultSecret(words: string[]): boolean {
  if (words.length === 1 && words[0] === 'pwd') return false // the shell's working directory, not a password
  for (let i = 0; i < words.length; i++) {
    if (!WORD_SET.has(words[i])) continue
    if (i + 1 < words.length && DESCRIBING_WORDS.has(words[i + 1])) continue
    if (i > 0 && NOT_SECRET.has(`${words[i - 1]} ${words[i]}`)) continue
    return true
  }
  return SECRET_PHRASES.some((phrase) => containsRun(words, phrase))
}

/**
 * A matcher for the default secret words plus the user's own names. A user's name matches any name
 * holding its words in a row (`buyer_ref` matches `buyer_ref`, `buyerRef` and `X-Buyer-Ref`). Results
 * are cached: the same few keys come back on every event.
 */
export function secretNameMatcher(extraNames: readonly string[] = []): SecretMatcher {
  const extra = extraNames.map(nameWords).filter((words) => words.length > 0)
  const cache = new Map<string, boolean>()
  return (name: string) => {
    let secret = cache.get(name)
    if (secret === undefined) {
      const words = nameWords(name)
      secret = defaultSecret(words) || extra.some((run) => containsRun(words, run))
      if (cache.size > 10_000) cache.clear()
      cache.set(name, secret)
    }
    return secret
  }
}

/** The default matcher (no user names). */
export const isSecretName: SecretMatcher = secretNameMatcher()

/** The expressions `redactText` runs, built for a set of user names: each needs a secret word (or a user's word) in the name it matches. */
export interface TextRules {
  /** A string matching none of these words (and holding no URL) needs no other rule. */
  sniff: RegExp
  json: RegExp
  escapedJson: RegExp
  assignment: RegExp
  flag: RegExp
}

function textRules(extraNames: readonly string[]): TextRules {
  const words = new Set([...SECRET_WORDS, ...SECRET_PHRASES.map((p) => p[1]), ...extraNames.flatMap((n) => nameWords(n).slice(0, 1))])
  const alternatives = [...words].map(escapeRegExp).join('|')
  const name = `(?:[A-Za-z_][\\w.-]*?)?(?:${alternatives})[\\w.-]*`
  const quoted = `[^"\\\\\\n]{0,100}?(?:${alternatives})[^"\\\\\\n]{0,100}`
  return {
    sniff: new RegExp(`://|bearer|basic|${alternatives}`, 'i'),
    // `"name": "value"` (or a number) in JSON text, and the same escaped inside a JSON string.
    json: new RegExp(`"(${quoted})"(\\s*:\\s*)(?:"((?:[^"\\\\\\n]|\\\\.)*)"|(-?\\d[\\d.eE+-]*))`, 'gi'),
    escapedJson: new RegExp(`\\\\"(${quoted})\\\\"(\\s*:\\s*)\\\\"((?:[^"\\\\\\n]|\\\\[^"])*)\\\\"`, 'gi'),
    // `name=value`, `name: value`, `--name=value`; a value may be quoted, or an authorization scheme and its credential.
    assignment: new RegExp(
      `(?<![\\w.$-])(-{0,2}${name})([ \\t]*=[ \\t]*|:[ \\t]*)("[^"\\n]*"|'[^'\\n]*'|(?:(?:Bearer|Basic|Token|Digest)[ \\t]+)?[^\\s"'&;,<>()[\\]{}]+)`,
      'gi',
    ),
    // `--name value`, `-name value`.
    flag: new RegExp(`(?<![\\w-])(--?${name})([ \\t]+)("[^"\\n]*"|'[^'\\n]*'|(?![-[])[^\\s"']+)`, 'gi'),
  }
}

const DEFAULT_RULES = textRules([])

/** The text rules for a matcher built with these user names. */
export function secretTextRules(extraNames: readonly string[] = []): TextRules {
  return extraNames.length ? textRules(extraNames) : DEFAULT_RULES
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Called with each secret value a text rule found where it is certainly a secret (URL passwords and parameters). */
export type SecretFound = (value: string) => void

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]{1,30}:\/\/[^\s"'<>\\`]+/gi
const AUTH_SCHEME = /\b([Bb]earer|Basic)([ \t]+)([A-Za-z0-9._~+/-]+=*)/g

/** True when the word after `Bearer`/`Basic` looks like a credential rather than prose: long enough, with digits, symbols or mixed case. */
function credentialLike(value: string): boolean {
  return value.length >= 8 && (/[0-9+/=._~]/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value.slice(1))))
}

function redactUrl(url: string, isSecret: SecretMatcher, found: SecretFound | undefined, rules: TextRules): string {
  const schemeEnd = url.indexOf('://') + 3
  if (url.indexOf('@', schemeEnd) < 0 && !rules.sniff.test(url.slice(schemeEnd))) return url
  let authorityEnd = url.slice(schemeEnd).search(/[/?#]/)
  authorityEnd = authorityEnd < 0 ? url.length : schemeEnd + authorityEnd
  let out = url
  const at = url.lastIndexOf('@', authorityEnd - 1)
  if (at >= schemeEnd) {
    const userInfo = url.slice(schemeEnd, at)
    const colon = userInfo.indexOf(':')
    if (colon >= 0 && userInfo.slice(colon + 1) !== REDACTED && colon + 1 < userInfo.length) {
      found?.(userInfo.slice(colon + 1))
      out = `${url.slice(0, schemeEnd)}${userInfo.slice(0, colon)}:${REDACTED}${url.slice(at)}`
    }
  }
  if (!/[?#;]/.test(out)) return out
  return out.replace(/([?&#;])([^=&#;?]+)=([^&#;]*)/g, (whole, sep: string, name: string, value: string) => {
    if (!value || value === REDACTED || !isSecret(safeDecode(name))) return whole
    found?.(safeDecode(value))
    if (safeDecode(value) !== value) found?.(value)
    return `${sep}${name}=${REDACTED}`
  })
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

const stripDashes = (flag: string) => flag.replace(/^-+/, '')

/**
 * A string with the secrets that show in its text taken out: URL passwords and secret query
 * parameters, `Bearer …`/`Basic …` credentials, `"secret": "…"` JSON pairs, `secret=…` and
 * `secret: …` assignments, and `--secret …`/`--secret=…` flags. Everything else is left as it was.
 */
export function redactText(
  text: string,
  isSecret: SecretMatcher = isSecretName,
  found?: SecretFound,
  rules: TextRules = DEFAULT_RULES,
): string {
  if (text.length < 4 || !rules.sniff.test(text)) return text
  let out = text
  if (out.includes('://')) out = out.replace(URL_IN_TEXT, (url) => redactUrl(url, isSecret, found, rules))
  out = out.replace(AUTH_SCHEME, (whole, scheme: string, space: string, credential: string) =>
    credentialLike(credential) ? `${scheme}${space}${REDACTED}` : whole,
  )
  if (out.includes('"')) {
    const pair = (whole: string, name: string, colon: string, value: string, quote: string) =>
      value && value !== REDACTED && isSecret(name) ? `${quote}${name}${quote}${colon}${quote}${REDACTED}${quote}` : whole
    out = out.replace(rules.json, (whole, name: string, colon: string, text: string | undefined) =>
      text === undefined ? (isSecret(name) ? `"${name}"${colon}"${REDACTED}"` : whole) : pair(whole, name, colon, text, '"'),
    )
    if (out.includes('\\"'))
      out = out.replace(rules.escapedJson, (whole, name: string, colon: string, value: string) => pair(whole, name, colon, value, '\\"'))
  }
  if (out.includes('=') || out.includes(':')) {
    out = out.replace(rules.assignment, (whole, name: string, sep: string, value: string, offset: number, all: string) => {
      if (value === REDACTED || value === `"${REDACTED}"` || !isSecret(stripDashes(name))) return whole
      // `Authorization: Bearer [redacted]`: the scheme stays readable once its credential is gone.
      if (/^(?:Bearer|Basic|Token|Digest)$/i.test(value) && all.startsWith(` ${REDACTED}`, offset + whole.length)) return whole
      return `${name}${sep}${REDACTED}`
    })
  }
  if (out.includes('-')) {
    out = out.replace(rules.flag, (whole, flag: string, space: string, value: string) =>
      value === REDACTED || !isSecret(stripDashes(flag)) ? whole : `${flag}${space}${REDACTED}`,
    )
  }
  return out
}

/**
 * Whether a value has the shape of a credential, whatever it is named — what a header or a variable
 * carries under a name that says nothing (`X-Custom-Session`): an authorization scheme and its credential,
 * a JWT, a key with a vendor's known prefix, cookie-like `name=value; …` pairs holding a session (by the
 * pair's name, or a token-like value), or a long high-entropy token. Content types, dates, versions, URLs,
 * paths and ids (UUIDs, hex digests and trace ids, numbers, ULIDs) are not.
 */
export function looksSecret(value: string): boolean {
  const v = value.trim()
  if (v.length < 8 || v.length > 16_384) return false
  const scheme = AUTH_VALUE.exec(v)
  if (scheme) return credentialLike(scheme[1])
  if (JWT.test(v) || KEY_PREFIX.test(v)) return true
  const session =
    COOKIE_LIKE.test(v) &&
    v.split(';').some((pair) => {
      const [name, ...rest] = pair.split('=')
      const held = rest.join('=').trim()
      return held.length >= 6 && (SESSION_NAME.test(name.trim()) || tokenLike(held, 16))
    })
  return session || tokenLike(v, 32)
}

/** An authorization header's value: a scheme and its credential (`Bearer …`, `Basic …`; a challenge's `realm="…"` is none). */
const AUTH_VALUE = /^(?:Bearer|Basic|Token|Negotiate|NTLM|Bot|ApiKey)\s+([A-Za-z0-9._~+/-]+=*)$/i
/** A JSON Web Token (JWS: three parts; JWE: five), each part base64url, the header a JSON object. */
const JWT = /^eyJ[\w-]{4,}(?:\.[\w-]*){2,4}$/
/** Keys and tokens with a vendor's known prefix (OpenAI, Anthropic, Stripe, GitHub, GitLab, Slack, npm, Hugging Face, AWS, Google, SendGrid, Shopify, …). */
const KEY_PREFIX =
  /^(?:sk-(?:ant-|proj-|or-)?|(?:sk|rk|pk)_(?:live|test)_|gh[pousr]_|github_pat_|glpat-|xox[abposr]-|npm_|hf_|AKIA|ASIA|AIza|ya29\.|SG\.|shp(?:at|ss|ca|pa)_|sq0(?:atp|csp)-|whsec_|dop_v1_|pypi-|lin_api_)[\w.=-]{16,}$/
/** `name=value` pairs separated by `;` (a cookie, or a `Set-Cookie`'s attributes after it), the first a pair. */
const COOKIE_LIKE = /^[\w.!#$%&'*+^`|~-]+=[^;,\s]*(?:;\s*[\w.!#$%&'*+^`|~-]+(?:=[^;]*)?)*;?$/
/** A cookie's name that says it holds a session or a credential. */
const SESSION_NAME = /sess|sid|token|auth|jwt|login|remember|csrf|xsrf|secret|key|pass|identity|credential/i

/**
 * A long random token: only token characters, upper and lower case and digits mixed, varied enough to be
 * random (Shannon entropy), and not mostly words (a class name, a path). Hex and single-case values
 * are left alone: they are ids, digests and trace ids far more often than secrets.
 */
function tokenLike(value: string, minLength: number): boolean {
  if (value.length < minLength || !/^[A-Za-z0-9+/_.~-]+={0,2}$/.test(value)) return false
  if (!/[a-z]/.test(value) || !/[A-Z]/.test(value) || !/[0-9]/.test(value)) return false
  const words = (value.match(/[A-Z]?[a-z]{3,}/g) ?? []).join('').length
  if (words >= 0.7 * value.replace(/[^A-Za-z]/g, '').length) return false
  return entropy(value) >= 3.5
}

/** Bits per character of a string's own distribution of characters. */
function entropy(text: string): number {
  const counts = new Map<string, number>()
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1)
  let bits = 0
  for (const n of counts.values()) bits -= (n / text.length) * Math.log2(n / text.length)
  return bits
}

/**
 * A copy of a string map (headers, environment) with secrets replaced: a value under a secret name, and a
 * value shaped like a credential whatever its name (`looksSecret`: an authorization scheme keeps its word);
 * secrets in the other values are taken out as in any text.
 */
export function redactMap(map: Record<string, string> | undefined, isSecret: SecretMatcher = isSecretName): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(map ?? {})) out[key] = isSecret(key) ? REDACTED : redactShaped(value, isSecret)
  return out
}

/** A map's value whose name says nothing: redacted whole when it is shaped like a credential (a scheme keeps its word), else as text. */
export function redactShaped(value: string, isSecret: SecretMatcher = isSecretName): string {
  if (!looksSecret(value)) return redactText(value, isSecret)
  const scheme = /^\s*([A-Za-z][\w-]*)\s+\S/.exec(value)
  return scheme && AUTH_VALUE.test(value.trim()) ? `${scheme[1]} ${REDACTED}` : REDACTED
}

/** Command-line arguments with secrets taken out: `--token X` (across two arguments), `--api-key=X`, `NAME=X`, and secrets in text. */
export function redactArgs(args: readonly string[], isSecret: SecretMatcher = isSecretName, found?: SecretFound): string[] {
  const out: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    const flag = /^--?([A-Za-z][\w.-]*)$/.exec(args[i - 1] ?? '')
    if (flag && isSecret(flag[1]) && !arg.startsWith('-')) {
      if (arg !== REDACTED) found?.(arg)
      out.push(REDACTED)
      continue
    }
    const assignment = /^(-{0,2}[A-Za-z_][\w.-]*)=([\s\S]+)$/.exec(arg)
    if (assignment && isSecret(stripDashes(assignment[1]))) {
      if (assignment[2] !== REDACTED) found?.(assignment[2])
      out.push(`${assignment[1]}=${REDACTED}`)
      continue
    }
    out.push(redactText(arg, isSecret, found))
  }
  return out
}
