/** When Parallax renders an agent's text as markdown (./Markdown.tsx). */

/** Text longer than this is not looked at for markdown (it shows as text, folded). */
const MARKDOWN_UP_TO = 20_000

const MARKDOWN_TYPES = /^text\/(x-)?markdown$/i

/** Whether text reads as markdown: its MIME type says so, or it has markdown's structure (see `hasMarkdownStructure`). */
export function isMarkdown(text: string, mimeType?: string): boolean {
  if (text.length > MARKDOWN_UP_TO) return false
  if (mimeType) return MARKDOWN_TYPES.test(mimeType.split(';')[0].trim())
  return hasMarkdownStructure(text)
}

/**
 * Text with no MIME type is markdown when it has a heading or a fenced code block, or two of: a list (two
 * items or more), a link, bold text, a block quote, inline code. JSON never is. Prose with one dash list or
 * one pair of asterisks stays text.
 */
export function hasMarkdownStructure(text: string): boolean {
  if (/^\s*[[{]/.test(text)) return false
  if (/^#{1,6} \S/m.test(text) || /^(```|~~~)/m.test(text)) return true
  const signs = [
    (text.match(/^ {0,3}([-*+]|\d{1,3}[.)]) \S/gm)?.length ?? 0) >= 2,
    /\[[^\]\n]+\]\([^)\s]+\)/.test(text),
    /\*\*[^*\n]+\*\*|__[^_\n]+__/.test(text),
    /^ {0,3}> \S/m.test(text),
    /`[^`\n]+`/.test(text),
  ]
  return signs.filter(Boolean).length >= 2
}
