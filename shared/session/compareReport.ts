import { catalogCounts, catalogRows, type CompareResult } from '../contract'
import { escape, json, reportPage } from './parityReport'

/**
 * A compare as one self-contained HTML file, by the parity report's rules (no script, no external
 * resource, a CSP that forbids loading anything, every string escaped): both sides, the handshake
 * differences and every catalog entry — same, only in A, only in B or changed, with each change.
 */
export function compareReportHtml(result: CompareResult, generatedAt: Date = new Date()): string {
  const name = (s: CompareResult['a']) => escape(`${s.targetName}${s.profile ? ` (${s.profile})` : ''}`)
  const { handshake, catalog } = result
  const handshakeHtml = handshake.length
    ? `<table data-section="handshake"><tr><th>field</th><th>by</th><th>A</th><th>B</th></tr>${handshake
        .map(
          (h) =>
            `<tr><td class="path">${escape(h.field)}</td><td>${h.origin === 'client' ? 'offered by the client' : 'answered by the agent'}</td>` +
            `<td>${escape(json(h.a))}</td><td>${escape(json(h.b))}</td></tr>`,
        )
        .join('')}</table>`
    : '<div class="muted">The same.</div>'
  // Gone from B is red; new in B, or changed, amber (red when the change breaks a client).
  const statusClass = { same: 'same', 'only in A': 'removed', 'only in B': 'added', changed: 'changed' } as const
  const rows = catalogRows(catalog)
    .map((row) => {
      const present = (side: 'A' | 'B') => (row.status === `only in ${side === 'A' ? 'B' : 'A'}` ? '—' : '✓')
      const changes = (row.changes ?? [])
        .map(
          (c) =>
            `<div><b>${c.breaking ? 'breaking' : 'compatible'}</b> <span class="path">${escape(c.path)}</span> ${escape(c.detail)}</div>`,
        )
        .join('')
      return (
        `<tr data-name="${escape(row.name)}" data-status="${row.status}"><td>${escape(row.kind)}</td><td class="path">${escape(row.name)}</td>` +
        `<td>${present('A')}</td><td>${present('B')}</td>` +
        `<td><span class="badge ${row.breaking ? 'breaking' : statusClass[row.status]}">${row.status}${row.breaking ? ' · breaking' : ''}</span>${changes}</td></tr>`
      )
    })
    .join('')
  const counts = [
    `<span class="badge same">${catalog.same.length} same</span>`,
    `<span class="badge removed">${catalog.removed.length} only in A</span>`,
    `<span class="badge added">${catalog.added.length} only in B</span>`,
    `<span class="badge changed">${catalog.changed.length} changed</span>`,
    `<span class="badge">${handshake.length} handshake difference(s)</span>`,
  ].join(' ')
  const catalogHtml = rows
    ? `<table data-section="catalog"><tr><th>kind</th><th>name</th><th>A</th><th>B</th><th>status</th></tr>${rows}</table>`
    : '<div class="muted">Neither side listed anything.</div>'
  return reportPage(
    `Compare: ${name(result.a)} vs ${name(result.b)}`,
    `<h1>Compare ${name(result.a)} vs ${name(result.b)}</h1>
<div class="muted">A: ${name(result.a)} · B: ${name(result.b)} · ${escape(generatedAt.toISOString())} · Parallax</div>
<div class="summary" title="${escape(catalogCounts(catalog))}">${counts}</div>
<h2>Handshake</h2>
${handshakeHtml}
<h2>Catalog</h2>
${catalogHtml}`,
  )
}
