/** A line of a diff: removed, added, or kept between changes; its number in the file before ('-', ' ') or after ('+'). */
export interface DiffLine {
  sign: '-' | '+' | ' '
  line: number
  text: string
}

/**
 * The lines that differ between two versions of a text, with the unchanged lines between changes: the common
 * start and end are cut, the rest (an entry's few lines) matched by longest common subsequence.
 */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n').map((line) => line.replace(/\r$/, ''))
  const b = after.split('\n').map((line) => line.replace(/\r$/, ''))
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--
    endB--
  }
  const x = a.slice(start, endA)
  const y = b.slice(start, endB)
  // common[i][j]: the longest common subsequence of x[i..] and y[j..].
  const common = Array.from({ length: x.length + 1 }, () => new Array<number>(y.length + 1).fill(0))
  for (let i = x.length - 1; i >= 0; i--)
    for (let j = y.length - 1; j >= 0; j--)
      common[i][j] = x[i] === y[j] ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1])
  const lines: DiffLine[] = []
  let i = 0
  let j = 0
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      lines.push({ sign: ' ', line: start + ++i, text: x[i - 1] })
      j++
    } else if (i < x.length && (j === y.length || common[i + 1][j] >= common[i][j + 1]))
      lines.push({ sign: '-', line: start + ++i, text: x[i - 1] })
    else lines.push({ sign: '+', line: start + ++j, text: y[j - 1] })
  }
  return lines
}
