/**
 * How well `query` matches `text`, fuzzily: every character of the query in order, better when they
 * run together and start words; undefined when it does not match. `at` holds the matched positions.
 */
export function fuzzyMatch(query: string, text: string): { score: number; at: number[] } | undefined {
  const q = query.toLowerCase().replace(/\s+/g, '')
  if (!q) return { score: 0, at: [] }
  const t = text.toLowerCase()
  const at: number[] = []
  let score = 0
  let from = 0
  for (let k = 0; k < q.length; k++) {
    const ch = q[k]
    let i = t.indexOf(ch, from)
    if (i === -1) return undefined
    const last = at.at(-1)
    if (last === undefined || i !== last + 1) {
      // Prefer a later occurrence that starts a word, as long as the rest of the query still fits after it.
      for (let j = i; j !== -1; j = t.indexOf(ch, j + 1)) {
        if ((j === 0 || /[\s\-_/:.]/.test(t[j - 1])) && fits(q, k + 1, t, j + 1)) {
          i = j
          break
        }
      }
    }
    const wordStart = i === 0 || /[\s\-_/:.]/.test(t[i - 1])
    score += (last !== undefined && i === last + 1 ? 6 : 0) + (wordStart ? 8 : 0) + (i === 0 ? 4 : 0) - Math.min(i - from, 10) * 0.5
    at.push(i)
    from = i + 1
  }
  return { score: score - text.length * 0.05, at }
}

/** Whether q[k…] is a subsequence of t[from…]. */
function fits(q: string, k: number, t: string, from: number): boolean {
  for (; k < q.length; k++) {
    from = t.indexOf(q[k], from) + 1
    if (from === 0) return false
  }
  return true
}
