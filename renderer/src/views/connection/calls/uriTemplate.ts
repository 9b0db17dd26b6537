/**
 * URI templates (RFC 6570) as MCP resource templates use them: the variables a template names, and the
 * URI it makes from their values. Levels 1 to 3: `{var}`, `{+var}`, `{#var}`, `{.var}`, `{/var}`, `{;var}`,
 * `{?a,b}`, `{&a}`, lists of variables in one expression; value modifiers (`:3`, `*`) are read and ignored.
 */

const EXPRESSION = /\{([+#./;?&]?)([^}]*)\}/g

/** The variables a template names, in order, each once. */
export function templateVariables(template: string): string[] {
  const names: string[] = []
  for (const [, , list] of template.matchAll(EXPRESSION))
    for (const raw of list.split(',')) {
      const name = raw.trim().replace(/(:\d+|\*)$/, '')
      if (name && !names.includes(name)) names.push(name)
    }
  return names
}

/** The URI a template makes from values (a variable without a value is left out, as the RFC says). */
export function expandTemplate(template: string, values: Record<string, unknown>): string {
  return template.replace(EXPRESSION, (_, operator: string, list: string) => {
    const names = list
      .split(',')
      .map((n) => n.trim().replace(/(:\d+|\*)$/, ''))
      .filter(Boolean)
    const defined = names.filter((n) => values[n] !== undefined && values[n] !== '')
    if (defined.length === 0) return ''
    const reserved = operator === '+' || operator === '#'
    const encode = (v: unknown) => (reserved ? encodeURI(String(v)) : encodeURIComponent(String(v)))
    const named = operator === ';' || operator === '?' || operator === '&'
    const parts = defined.map((n) => (named ? `${n}=${encode(values[n])}` : encode(values[n])))
    const [first, separator] = OPERATORS[operator] ?? ['', ',']
    return first + parts.join(separator)
  })
}

/** Each operator's prefix and the separator between its values. */
const OPERATORS: Record<string, [string, string]> = {
  '': ['', ','],
  '+': ['', ','],
  '#': ['#', ','],
  '.': ['.', '.'],
  '/': ['/', '/'],
  ';': [';', ';'],
  '?': ['?', '&'],
  '&': ['&', '&'],
}
