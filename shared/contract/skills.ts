// Skills over MCP (SEP-2640, a draft extension: `io.modelcontextprotocol/skills`). A server that offers the
// extension lists skills with `skills/list`: each a `skill://…/SKILL.md` URI, the frontmatter it claims
// (name, description: what makes a host activate it) and its files with a digest and a size. A host reads
// a skill's files (resources/read) only when it loads the skill, and uses them only once each matches its
// entry. The draft may move: the method name, the entry's fields and the digest format follow the
// conformance suite 0.2.0-alpha.12.

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills'

/** One file of a skill as its entry lists it. */
export interface SkillFile {
  uri: string
  /** `sha256:<hex>` of the file's UTF-8 text. */
  digest?: string
  size?: number
}

/** One skill as `skills/list` gives it. */
export interface SkillEntry {
  uri: string
  frontmatter?: Record<string, unknown>
  resources?: SkillFile[]
}

/** A skill loaded (`skills.load`): each file read, checked against its entry; nothing past a file that fails. */
export interface SkillLoad {
  uri: string
  /** True when every file was read and matched its entry. */
  verified: boolean
  /** Why the skill was not loaded: the first file that did not match its entry, and how. */
  problem?: string
  files: { uri: string; verified: boolean; problem?: string; text?: string }[]
}

/** Whether the server offers skills (its capabilities' `extensions`). */
export function offersSkills(serverCapabilities: Record<string, unknown> | undefined): boolean {
  const extensions = serverCapabilities?.extensions
  return !!extensions && typeof extensions === 'object' && SKILLS_EXTENSION in extensions
}

/** A SKILL.md's YAML frontmatter as flat `key: value` pairs (what an entry's frontmatter is compared with). */
export function skillFrontmatter(text: string): Record<string, string> | undefined {
  const match = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text)
  if (!match) return undefined
  const fields: Record<string, string> = {}
  for (const line of match[1].split(/\r?\n/)) {
    const pair = /^([A-Za-z0-9_-]+):\s*(.*)$/.exec(line)
    if (pair) fields[pair[1]] = pair[2].replace(/^(["'])(.*)\1$/, '$2')
  }
  return fields
}

/** How a SKILL.md's frontmatter differs from its entry's, field by field (none: undefined). */
export function frontmatterMismatch(claimed: Record<string, unknown> | undefined, text: string): string | undefined {
  const actual = skillFrontmatter(text)
  if (!actual) return 'the file has no frontmatter'
  for (const [key, value] of Object.entries(claimed ?? {}))
    if (typeof value !== 'object' && String(value) !== actual[key])
      return `frontmatter "${key}" is ${JSON.stringify(actual[key] ?? null)} in the file, ${JSON.stringify(value)} in the entry`
  return undefined
}
