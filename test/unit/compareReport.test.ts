import { describe, expect, it } from 'vitest'
import { catalogCounts, catalogRows, type CompareResult } from '../../shared/contract'
import { compareReportHtml } from '../../shared/session/compareReport'

const HOSTILE = `<script>alert(1)</script><img src=x onerror="fetch('https://evil.example')">`

describe('the compare report', () => {
  const result: CompareResult = {
    a: { targetId: 'demo:tools', targetName: 'Demo media-sales agent', connectionId: 'c1' },
    b: { targetId: 'x', targetName: `agent ${HOSTILE}`, profile: 'hinted', connectionId: 'c2' },
    handshake: [{ origin: 'agent', field: 'serverInfo.name', a: 'demo', b: HOSTILE, frames: { a: 1, b: 2 } }],
    catalog: {
      same: [{ kind: 'operation', name: 'get_products', frames: { a: 3, b: 4 } }],
      removed: [{ kind: 'operation', name: 'cancel_order', frames: { a: 3 } }],
      added: [{ kind: 'operation', name: HOSTILE, frames: { b: 4 } }],
      changed: [
        {
          kind: 'tool',
          name: 'create_media_buy',
          breaking: true,
          frames: { a: 3, b: 4 },
          changes: [{ path: '/inputSchema/currency', kind: 'required-added', breaking: true, detail: `new required field ${HOSTILE}` }],
        },
      ],
    },
  }
  const html = compareReportHtml(result, new Date('2026-01-02T03:04:05Z'))

  it('is one self-contained page: no script, no external resource, a CSP that forbids loading anything', () => {
    expect(html).toMatch(/^<!doctype html>/)
    const tags = [...html.matchAll(/<([a-z][a-z0-9]*)\b[^>]*>/gi)]
    expect(new Set(tags.map((t) => t[1].toLowerCase()))).toEqual(
      new Set(['html', 'head', 'meta', 'title', 'style', 'body', 'h1', 'h2', 'div', 'span', 'b', 'table', 'tr', 'th', 'td']),
    )
    // Attribute names, their (escaped, quoted) values set aside: an agent's string there is text, never an attribute.
    for (const [tag] of tags) expect(tag.replace(/"[^"]*"/g, '""')).not.toMatch(/\s(src|href|on\w+)=/i)
    expect(html).not.toMatch(/@import|url\(/i)
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`)
  })

  it('escapes every string from an agent, and still shows it', () => {
    expect(html).not.toContain(HOSTILE)
    expect(
      html.match(
        /&lt;script&gt;alert\(1\)&lt;\/script&gt;&lt;img src=x onerror=&quot;fetch\(&#39;https:\/\/evil\.example&#39;\)&quot;&gt;/g,
      ),
    ).toHaveLength(
      // the B side's name (title, heading, line), the entry only in B (its data-name and its cell), the change
      6,
    )
    expect(html).toContain('<td>&quot;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=\\&quot;fetch(') // the handshake value, as JSON
  })

  it('has the counts, the handshake and every catalog entry with its status, a changed one with each change', () => {
    expect(html).toContain('<span class="badge same">1 same</span>')
    expect(html).toContain('<span class="badge removed">1 only in A</span>')
    expect(html).toContain('<span class="badge added">1 only in B</span>')
    expect(html).toContain('<span class="badge changed">1 changed</span>')
    expect(html).toContain('<th>kind</th><th>name</th><th>A</th><th>B</th><th>status</th>')
    expect(html).toContain('<td class="path">serverInfo.name</td><td>answered by the agent</td><td>&quot;demo&quot;</td>')
    expect(html).toMatch(/<tr data-name="get_products" data-status="same">.*<td>✓<\/td><td>✓<\/td>/)
    expect(html).toMatch(/<tr data-name="cancel_order" data-status="only in A">.*<td>✓<\/td><td>—<\/td>/)
    expect(html).toMatch(/data-status="only in B">.*<td>—<\/td><td>✓<\/td>/)
    expect(html).toMatch(/<tr data-name="create_media_buy" data-status="changed">.*changed · breaking.*\/inputSchema\/currency/)
    expect(html).toContain('2026-01-02T03:04:05.000Z')
  })

  it('lists the catalog as the Compare view does: every entry once, by kind then name, and counts it in one line', () => {
    expect(catalogRows(result.catalog).map((r) => `${r.kind} ${r.name} ${r.status}`)).toEqual([
      `operation ${HOSTILE} only in B`,
      'operation cancel_order only in A',
      'operation get_products same',
      'tool create_media_buy changed',
    ])
    expect(catalogCounts(result.catalog)).toBe('1 same, 1 only in A, 1 only in B, 1 changed')
  })
})
