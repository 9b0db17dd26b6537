import {
  escapeRegExp,
  looksSecret,
  REDACTED,
  redactText,
  secretNameMatcher,
  secretTextRules,
  type SecretMatcher,
  type TextRules,
} from '../contract'

/** Deeper than this, a value is replaced by a marker instead of walked (and it could not be serialised safely anyway). */
export const REDACTION_MAX_DEPTH = 512
export const TOO_DEEP = `[nested deeper than ${REDACTION_MAX_DEPTH} levels: not kept]`

/** Values too common to be told apart from ordinary text: never searched for on their own. */
const NOT_MEMORABLE = new Set([
  'string',
  'number',
  'boolean',
  'integer',
  'object',
  'undefined',
  'bearer',
  'basic',
  'secret',
  'password',
  'token',
  'required',
  'optional',
  'default',
  'example',
])

/** In a diff entry (`{path, a, b}`, a hook's `{path, from, to}`) the field's name is the pointer's last segment. */
const DIFF_VALUE_KEYS = new Set(['a', 'b', 'from', 'to', 'value', 'oldValue'])

/** Maps of names to values whose names say nothing of what they hold (a target's headers, a server's environment): each value is judged by its shape too. */
const SHAPED_MAPS = new Set(['headers', 'trailers', 'env'])

const SECRET_FLAG = /^--?([A-Za-z][\w.-]*)$/
const ASSIGNED = /^(-{0,2}[A-Za-z_][\w.-]*)=([\s\S]+)$/

/**
 * Takes secrets out of everything written to disk or exported (recordings, their imports and exports,
 * reports). One redactor serves one file, because it learns as it goes: every value it redacts from a
 * secret-named field, a header or variable shaped like a credential whatever its name, a secret flag, a
 * URL's password or a secret URL parameter is remembered, and from
 * then on found and replaced in every string, so a secret copied into derived text (a conversation
 * message, a log line, a server's stderr, an error message) is caught even without a name beside it.
 *
 * A value with nothing to redact costs one walk and is returned as it is (no copy).
 */
export class Redactor {
  readonly isSecret: SecretMatcher
  private readonly rules: TextRules
  private readonly known = new Set<string>()
  private knownPattern: RegExp | undefined
  private learned = false
  /** Set when the last `redact` replaced a part nested deeper than `REDACTION_MAX_DEPTH` with a marker. */
  cutDeep = false

  constructor(extraNames: readonly string[] = []) {
    this.isSecret = secretNameMatcher(extraNames)
    this.rules = secretTextRules(extraNames)
  }

  /** A copy of `value` with its secrets replaced (the value itself when there are none). */
  redact<T>(value: T): T {
    this.learned = false
    this.cutDeep = false
    let out = this.walk(value, false, 0)
    // A secret learned late in the walk may sit in a string walked before it: walk the result again.
    if (this.learned) out = this.walk(out, false, 0)
    this.learned = false
    return out as T
  }

  /** A string with its secrets replaced: the text rules, then every secret learned so far. */
  text(text: string): string {
    let out = redactText(text, this.isSecret, this.remember, this.rules)
    if (this.knownPattern && out.length >= 6) out = out.replace(this.knownPattern, REDACTED)
    return out
  }

  /** Adds a secret to look for in all later text (values shorter than 6 characters or too common are not). */
  readonly remember = (value: string): void => {
    const trimmed = value.trim()
    const credential = /^(?:Bearer|Basic|Token|Digest)\s+(\S+)$/i.exec(trimmed)?.[1]
    for (const candidate of credential ? [trimmed, credential] : [trimmed]) {
      if (
        candidate.length < 6 ||
        this.known.has(candidate) ||
        candidate.includes(REDACTED) ||
        NOT_MEMORABLE.has(candidate.toLowerCase()) ||
        /^(.)\1*$/.test(candidate)
      )
        continue
      this.known.add(candidate)
      this.learned = true
      this.knownPattern = new RegExp(
        [...this.known]
          .sort((x, y) => y.length - x.length)
          .map(escapeRegExp)
          .join('|'),
        'g',
      )
    }
  }

  private secretValue(value: string): string {
    if (value === '' || value === REDACTED) return value
    this.remember(value)
    return REDACTED
  }

  private walk(value: unknown, secret: boolean, depth: number, shaped = false): unknown {
    if (typeof value === 'string') return secret ? this.secretValue(value) : this.text(value)
    if (typeof value === 'number' || typeof value === 'bigint') return secret ? this.secretValue(String(value)) : value
    if (value === null || typeof value !== 'object') return value
    if (depth >= REDACTION_MAX_DEPTH) {
      this.cutDeep = true
      return TOO_DEEP
    }
    if (Array.isArray(value)) return this.walkArray(value, secret, depth)
    const object = value as Record<string, unknown>
    const path = object.path
    const pointerSecret = typeof path === 'string' && path.startsWith('/') && this.isSecret(path.slice(path.lastIndexOf('/') + 1))
    let copy: Record<string, unknown> | undefined
    for (const key of Object.keys(object)) {
      const child = object[key]
      const secretChild =
        this.isSecret(key) || (pointerSecret && DIFF_VALUE_KEYS.has(key)) || (shaped && typeof child === 'string' && looksSecret(child))
      const redacted = this.walk(child, secretChild, depth + 1, SHAPED_MAPS.has(key))
      if (redacted !== child) (copy ??= { ...object })[key] = redacted
    }
    return copy ?? object
  }

  /** Arrays: scalars under a secret name are secret; command-line shaped strings (`--token X`, `--api-key=X`, `NAME=X`) are read as such. */
  private walkArray(array: unknown[], secret: boolean, depth: number): unknown[] {
    let copy: unknown[] | undefined
    for (let i = 0; i < array.length; i++) {
      const item = array[i]
      let redacted: unknown
      if (typeof item === 'string' && !secret) {
        const previous = array[i - 1]
        const flag = typeof previous === 'string' ? SECRET_FLAG.exec(previous) : null
        const assigned = ASSIGNED.exec(item)
        if (flag && !item.startsWith('-') && this.isSecret(flag[1])) redacted = this.secretValue(item)
        else if (assigned && this.isSecret(assigned[1].replace(/^-+/, ''))) redacted = `${assigned[1]}=${this.secretValue(assigned[2])}`
        else redacted = this.text(item)
      } else {
        redacted = this.walk(item, secret && (item === null || typeof item !== 'object'), depth + 1)
      }
      if (redacted !== item) (copy ??= [...array])[i] = redacted
    }
    return copy ?? array
  }
}

/** A copy of a value with its secrets replaced, by a redactor of its own (nothing learned is kept). */
export function redactDeep<T>(value: T, extraNames: readonly string[] = []): T {
  return new Redactor(extraNames).redact(value)
}
