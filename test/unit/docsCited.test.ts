import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const DOC = 'docs/architecture.md'
/** Where code comments cite the doc. */
const FOLDERS = ['shared', 'cli', 'web', 'electron', 'renderer']
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/

/** Every source file under a folder, without what is installed or built. */
function sources(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .filter((path) => !/(^|\/)(node_modules|dist)\//.test(path))
}

/** The doc's section headings, of every level, outside code blocks. */
function headings(markdown: string): Set<string> {
  const found = new Set<string>()
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced
    const heading = !fenced && /^#{1,6}\s+(.+?)\s*$/.exec(line)
    if (heading) found.add(heading[1])
  }
  return found
}

/**
 * Each section a comment cites as `docs/architecture.md, "Section"`, where it is cited. A name may run on
 * to the comment's next line: the line break and the comment's `*` or `//` there read as one space.
 */
function citations(): { section: string; at: string }[] {
  const cited: { section: string; at: string }[] = []
  for (const file of FOLDERS.flatMap(sources)) {
    const text = readFileSync(join(ROOT, file), 'utf8')
    for (const match of text.matchAll(/docs\/architecture\.md,\s*"([^"]+)"/g)) {
      const line = text.slice(0, match.index).split('\n').length
      cited.push({ section: match[1].replace(/\s*\n\s*(\*|\/\/)?\s*/g, ' ').trim(), at: `${file}:${line}` })
    }
  }
  return cited
}

describe(`the sections code comments cite in ${DOC}`, () => {
  const sections = headings(readFileSync(join(ROOT, DOC), 'utf8'))
  const cited = citations()

  it('are found (the comments still cite them as this test reads them)', () => {
    expect(cited.length).toBeGreaterThan(10)
  })

  it('each exist as a heading of the doc', () => {
    const missing = cited.filter(({ section }) => !sections.has(section)).map(({ section, at }) => `${at}: "${section}"`)
    expect(missing, `cited, but no heading of ${DOC} is named so`).toEqual([])
  })
})
