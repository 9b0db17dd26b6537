import './diffList.css'

/** One change between two JSON values, at a JSON Pointer: what was there (`from`) and what is there now (`to`). */
export interface DiffEntry {
  path: string
  op: 'add' | 'remove' | 'replace'
  from?: unknown
  to?: unknown
}

/** A JSON diff, one line a change: +, − or ~, the path, the old value struck through, the new one. */
export function DiffList({ diff, testId }: { diff: DiffEntry[]; testId?: string }) {
  return (
    <ul className="diff" data-testid={testId}>
      {diff.map((d) => (
        <li key={d.path} className={`diff-${d.op}`}>
          <span className="diff-op">{d.op === 'add' ? '+' : d.op === 'remove' ? '−' : '~'}</span>
          <span className="mono">{d.path}</span>
          {d.op !== 'add' && <span className="mono diff-from">{JSON.stringify(d.from)}</span>}
          {d.op !== 'remove' && <span className="mono diff-to">{JSON.stringify(d.to)}</span>}
        </li>
      ))}
    </ul>
  )
}
