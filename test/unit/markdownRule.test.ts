import { describe, expect, it } from 'vitest'
import { isMarkdown } from '../../renderer/src/components/markdownRule'

describe('when an agent’s text renders as markdown', () => {
  it('a MIME type decides: text/markdown is, text/plain and JSON are not', () => {
    expect(isMarkdown('plain words', 'text/markdown')).toBe(true)
    expect(isMarkdown('# looks like a heading', 'text/plain')).toBe(false)
    expect(isMarkdown('- a\n- b', 'text/x-markdown; charset=utf-8')).toBe(true)
  })

  it('without one, markdown’s structure: a heading or a fence, or two signs of it', () => {
    expect(isMarkdown('# Report\nall good')).toBe(true)
    expect(isMarkdown('```\ncode\n```')).toBe(true)
    expect(isMarkdown('- one\n- two\n\nsee [docs](https://example.com)')).toBe(true)
    expect(isMarkdown('**Note** use `npm test`')).toBe(true)
  })

  it('plain prose, a single sign, JSON and very long text stay text', () => {
    expect(isMarkdown('Totals: 3 - 1 = 2 *approximately*')).toBe(false)
    expect(isMarkdown('- one\n- two')).toBe(false)
    expect(isMarkdown('{"title": "# not a heading"}')).toBe(false)
    expect(isMarkdown(`# Long\n${'x'.repeat(30_000)}`)).toBe(false)
  })
})
