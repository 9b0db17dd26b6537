import { createHash } from 'node:crypto'
import { frontmatterMismatch, type RequestAnswer, type SkillEntry, type SkillLoad } from '../contract'

/** What loading a skill needs of its connection: the listed skills, and `resources/read`. */
export interface SkillSource {
  catalogEntries(method: 'skills/list'): unknown[] | undefined
  request(method: string, params: Record<string, unknown>, options: { conversation: boolean }): Promise<RequestAnswer>
}

/**
 * Loads a listed skill (SEP-2640): reads its SKILL.md, then each other file its entry lists, each checked
 * against its entry — its size in bytes, its sha256 digest, and for SKILL.md the frontmatter field by
 * field. A file that does not match is not used, and nothing after it is read.
 */
export async function loadSkill(source: SkillSource, uri: string): Promise<SkillLoad> {
  const entry = (source.catalogEntries('skills/list') ?? []).find((s) => (s as SkillEntry | null)?.uri === uri) as SkillEntry | undefined
  if (!entry) throw new Error(`no listed skill has the URI ${JSON.stringify(uri)} (list the server's skills first)`)
  const listed = entry.resources ?? []
  const order = [listed.find((f) => f.uri === uri) ?? { uri }, ...listed.filter((f) => f.uri !== uri)]
  const files: SkillLoad['files'] = []
  for (const file of order) {
    const answer = await source.request('resources/read', { uri: file.uri }, { conversation: false })
    const text = answer.outcome === 'result' ? textOf(answer.result) : undefined
    const problem =
      text === undefined
        ? `reading it failed: ${answer.outcome === 'error' ? answer.error.message : answer.outcome === 'result' ? 'no text content' : answer.reason}`
        : mismatch(file, text, file.uri === uri ? entry.frontmatter : undefined)
    if (problem) {
      files.push({ uri: file.uri, verified: false, problem })
      return { uri, verified: false, problem: `${file.uri}: ${problem}; the skill was not loaded`, files }
    }
    files.push({ uri: file.uri, verified: true, text })
  }
  return { uri, verified: true, files }
}

function textOf(result: Record<string, unknown>): string | undefined {
  const contents = result.contents
  const first = Array.isArray(contents) ? (contents[0] as { text?: unknown } | undefined) : undefined
  return typeof first?.text === 'string' ? first.text : undefined
}

/** How a file differs from its entry: size, then digest, then (SKILL.md) frontmatter. */
function mismatch(
  file: { digest?: string; size?: number },
  text: string,
  frontmatter: Record<string, unknown> | undefined,
): string | undefined {
  const size = Buffer.byteLength(text)
  if (file.size !== undefined && size !== file.size) return `${size} bytes where the entry says ${file.size}`
  if (file.digest !== undefined) {
    const digest = `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`
    if (digest !== file.digest) return `its digest is ${digest} where the entry says ${file.digest}`
  }
  return frontmatter ? frontmatterMismatch(frontmatter, text) : undefined
}
