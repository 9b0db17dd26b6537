import { describe, expect, it } from 'vitest'
import type { TurnParity } from '../../shared/contract'
import { parityReportHtml } from '../../shared/session/parityReport'

const HOSTILE = `<script>alert(1)</script><img src=x onerror="fetch('https://evil.example')">`

describe('the parity report', () => {
  const turns: TurnParity[] = [
    {
      index: 1,
      status: 'same',
      turn: { kind: 'call', tool: 'list_creative_formats', arguments: { channel: 'audio' } },
      a: { outcome: 'completed', state: 'completed', data: { n: 1 } },
      b: { outcome: 'completed', state: 'completed', data: { n: 1 } },
      diff: [],
      connections: {},
    },
    {
      index: 2,
      status: 'differs',
      turn: { kind: 'text', text: HOSTILE },
      a: { outcome: 'completed', state: 'completed', text: HOSTILE },
      b: { outcome: 'completed', state: 'completed', data: { report: { currency: 'USD' } } },
      diff: [{ path: `/data/${HOSTILE}`, op: 'add', b: HOSTILE }],
      errors: { b: HOSTILE },
      connections: {},
    },
  ]
  const html = parityReportHtml({
    recording: `session ${HOSTILE}`,
    sides: { a: 'demo:tools', b: `agent ${HOSTILE}` },
    turns,
    summary: { total: 2, same: 1, differs: 1, errors: 0, skipped: 0 },
  })

  it('is one self-contained page: no script, no external resource, a CSP that forbids loading anything', () => {
    expect(html).toMatch(/^<!doctype html>/)
    const tags = [...html.matchAll(/<([a-z][a-z0-9]*)\b[^>]*>/gi)]
    expect(new Set(tags.map((t) => t[1].toLowerCase()))).toEqual(
      new Set([
        'html',
        'head',
        'meta',
        'title',
        'style',
        'body',
        'h1',
        'div',
        'span',
        'details',
        'summary',
        'b',
        'table',
        'tr',
        'th',
        'td',
        'pre',
      ]),
    )
    for (const [tag] of tags) expect(tag).not.toMatch(/\s(src|href|on\w+)=/i)
    expect(html).not.toMatch(/@import|url\(/i)
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`)
  })

  it('escapes every string from an agent or a recording, and still shows it', () => {
    expect(html).not.toContain(HOSTILE)
    expect(html).toContain(
      '&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;fetch(&#39;https://evil.example&#39;)&quot;&gt;',
    )
  })

  it('has the summary, every turn with its badge, the differing one open with its diff and both outcomes', () => {
    expect(html).toContain('<span class="badge same">1 same</span>')
    expect(html).toContain('<span class="badge differs">1 differs</span>')
    expect(html).toMatch(/<details data-turn="1" data-status="same">/)
    expect(html).toMatch(/<details open data-turn="2" data-status="differs">/)
    expect(html).toContain('list_creative_formats({&quot;channel&quot;:&quot;audio&quot;})')
    expect(html).toContain('&quot;currency&quot;: &quot;USD&quot;')
  })
})

describe('the parity report of several recordings', () => {
  const turn = (index: number, status: TurnParity['status']): TurnParity => ({
    index,
    status,
    turn: { kind: 'call', tool: `tool_${index}`, arguments: {} },
    a: { outcome: 'completed', state: 'completed', data: { n: index } },
    b: { outcome: 'completed', state: 'completed', data: { n: status === 'same' ? index : -index } },
    diff: status === 'differs' ? [{ path: '/data/n', op: 'replace', a: index, b: -index }] : [],
    connections: {},
  })
  const html = parityReportHtml({
    recordings: [
      {
        recording: 'library/a.jsonl',
        sides: { a: 'demo:tools', b: 'demo:a2a' },
        turns: [turn(1, 'same'), turn(2, 'differs')],
        summary: { total: 2, same: 1, differs: 1, errors: 0, skipped: 0 },
      },
      {
        recording: `library/${HOSTILE}.jsonl`,
        sides: { a: 'demo:tools', b: 'demo:a2a' },
        turns: [turn(1, 'same')],
        summary: { total: 1, same: 1, differs: 0, errors: 0, skipped: 0 },
      },
    ],
    summary: { total: 3, same: 2, differs: 1, errors: 0, skipped: 0 },
  })

  it('is one page: the total, a line per recording, then a section per recording with its own summary and turns', () => {
    expect(html).toContain('<h1>Parity of 2 recording(s)</h1>')
    const [total] = html.match(/<div class="summary">.*?<\/div>/)!
    expect(total).toContain('<span class="badge same">2 same</span>')
    expect(total).toContain('<span class="badge differs">1 differs</span>')
    const sections = [...html.matchAll(/<section data-recording="([^"]*)">([\s\S]*?)<\/section>/g)]
    expect(sections.map((s) => s[1])).toEqual(['library/a.jsonl', `library/${escaped(HOSTILE)}.jsonl`])
    expect(sections[0][2].match(/<details[^>]*data-turn/g)).toHaveLength(2)
    expect(sections[0][2]).toMatch(/<details open data-turn="2" data-status="differs">/)
    expect(sections[1][2]).toContain('<span class="badge same">1 same</span>')
  })

  it('stays self-contained, every recording name escaped', () => {
    expect(html).not.toContain(HOSTILE)
    const tags = [...html.matchAll(/<([a-z][a-z0-9]*)\b[^>]*>/gi)].map(([tag]) => tag.replace(/"[^"]*"/g, '""'))
    for (const tag of tags) expect(tag).not.toMatch(/^<script|\s(src|href|on\w+)=/i)
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`)
  })
})

function escaped(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}
