import type { ReactNode } from 'react'

/** The head of a page that is not a target's own (Compare, Replay, Side by side): what it is for, its actions, and Close. */
export function PageHeader({ title, sub, onClose, children }: { title: string; sub: string; onClose: () => void; children?: ReactNode }) {
  return (
    <header className="page-head">
      <div>
        <div className="page-title">{title}</div>
        <div className="page-sub">{sub}</div>
      </div>
      <div className="page-actions">
        {children}
        <button className="btn" onClick={onClose}>
          Close
        </button>
      </div>
    </header>
  )
}
