// `npm run lint`'s size check: no code file in shared/, renderer/, cli/, web/ or electron/ over 700 lines, no
// style sheet over 800. A file that grows past its limit holds more than one job: split it by job, not by length.
// Prints every file over its limit with its line count, and exits non-zero if there is one.
import { readdirSync, readFileSync } from 'node:fs'
import { extname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const FOLDERS = ['shared', 'renderer', 'cli', 'web', 'electron']
/** The most lines a file may have, by extension; files of other kinds (data, images, pages) are not counted. */
const LIMITS = {
  '.ts': 700,
  '.tsx': 700,
  '.mts': 700,
  '.cts': 700,
  '.js': 700,
  '.mjs': 700,
  '.cjs': 700,
  '.css': 800,
}

const over = []
for (const folder of FOLDERS) {
  for (const entry of readdirSync(join(root, folder), { recursive: true, withFileTypes: true })) {
    const limit = LIMITS[extname(entry.name)]
    if (!entry.isFile() || limit === undefined || entry.parentPath.split(/[\\/]/).includes('node_modules')) continue
    const path = join(entry.parentPath, entry.name)
    const text = readFileSync(path, 'utf8')
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
    if (lines > limit) over.push({ file: relative(root, path), lines, limit })
  }
}

if (over.length === 0) {
  console.log('file sizes: every code file within 700 lines, every style sheet within 800')
} else {
  over.sort((a, b) => b.lines - a.lines)
  for (const { file, lines, limit } of over) console.error(`${file}: ${lines} lines (at most ${limit})`)
  console.error(`\n${over.length} file(s) over their size limit: split each by job.`)
  process.exit(1)
}
