import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useRef } from 'react'
import type { ConnectionView } from '../../../store/connectionView'
import { CopyButton } from '../../../components/CopyButton'
import { clock } from '../../../components/format'

const ROW = 22

/** The server's stderr and the engine's own notes about this connection, newest at the bottom. */
export function LogPanel({ view }: { view: ConnectionView }) {
  const scroller = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({
    count: view.logs.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW,
    overscan: 8,
  })
  useEffect(() => {
    if (view.logs.length) virtualizer.scrollToIndex(view.logs.length - 1, { align: 'end' })
  }, [view.logs.length, virtualizer])
  return (
    <div className="panel fill" style={{ flexDirection: 'column' }}>
      <div className="toolbar">
        <span className="muted">server stderr and engine messages</span>
        <span className="spacer" />
        <CopyButton label="Copy all" value={() => view.logs.map((l) => `${clock(l.ts)} [${l.source}] ${l.text}`).join('\n')} />
      </div>
      <div ref={scroller} className="rows" data-testid="log">
        {view.logs.length === 0 ? (
          <div className="empty">Nothing logged yet. A stdio server's stderr appears here line by line.</div>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const line = view.logs[item.index]
              return (
                <div
                  key={line.seq}
                  className={`log-row ${line.level}`}
                  style={{ transform: `translateY(${item.start}px)` }}
                  title={line.text}
                >
                  <span className="muted">{clock(line.ts)}</span>
                  <span className="src">{line.source}</span>
                  <span>{line.text}</span>
                </div>
              )
            })}
          </div>
        )}
      </div>
    </div>
  )
}
