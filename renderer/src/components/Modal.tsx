import type { ReactNode } from 'react'
import { visibleText } from '../../../shared/contract'
import { AgentText } from './Name'
import './modal.css'

/**
 * The shell of every dialog: a backdrop that closes on click, Escape to close, a title, a body and a footer.
 * A title often names a target or a file: its hidden characters are shown, as in every agent-supplied name.
 */
export function Modal({
  title,
  onClose,
  footer,
  children,
  role = 'dialog',
  width,
}: {
  title: string
  onClose: () => void
  footer: ReactNode
  children: ReactNode
  role?: 'dialog' | 'alertdialog'
  width?: number | string
}) {
  return (
    <div className="backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className="dialog"
        role={role}
        aria-label={visibleText(title)}
        style={width ? { width } : undefined}
        onKeyDown={(e) => e.key === 'Escape' && onClose()}
      >
        <div className="dialog-head">
          <AgentText value={title} />
        </div>
        <div className="dialog-body">{children}</div>
        <div className="dialog-foot">{footer}</div>
      </div>
    </div>
  )
}
