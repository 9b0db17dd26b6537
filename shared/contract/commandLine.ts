/**
 * Splits a command line the way a POSIX shell would for plain words: whitespace separates, single
 * quotes are literal, double quotes allow \" and \\, a backslash escapes the next character.
 * No expansion of any kind happens: Parallax never runs a command through a shell.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = []
  let word = ''
  let inWord = false
  let quote: "'" | '"' | undefined
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]
    if (quote === "'") {
      if (ch === "'") quote = undefined
      else word += ch
    } else if (quote === '"') {
      if (ch === '"') quote = undefined
      else if (ch === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) word += line[++i]
      else word += ch
    } else if (ch === "'" || ch === '"') {
      quote = ch
      inWord = true
    } else if (ch === '\\' && i + 1 < line.length) {
      word += line[++i]
      inWord = true
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word)
      word = ''
      inWord = false
    } else {
      word += ch
      inWord = true
    }
  }
  if (quote) throw new Error(`unterminated ${quote === '"' ? 'double' : 'single'} quote in command line`)
  if (inWord) words.push(word)
  return words
}
