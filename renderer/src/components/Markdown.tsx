import { lazy, Suspense, useState, type ReactNode } from 'react'
import { AgentText } from './Name'
import './markdown.css'

/* Markdown an agent sent, rendered (./MarkdownView.tsx says how, safely) or raw, as the user switches. */

/** The renderer and its parser load with the first markdown shown, not with the app. */
const MarkdownView = lazy(() => import('./MarkdownView'))

/** Markdown shown rendered (by default) or raw, as `raw` shows it, with a switch between the two. */
export function MarkdownOrRaw({ text, raw }: { text: string; raw: ReactNode }) {
  const [showRaw, setShowRaw] = useState(false)
  return (
    <div className="markdown-or-raw">
      <MarkdownSwitch raw={showRaw} onChange={setShowRaw} />
      {showRaw ? raw : <Markdown text={text} />}
    </div>
  )
}

/** The "Rendered / Raw" switch of a markdown text. */
export function MarkdownSwitch({ raw, onChange }: { raw: boolean; onChange: (raw: boolean) => void }) {
  return (
    <div className="segmented markdown-switch" role="group" aria-label="Show markdown">
      <button className={raw ? '' : 'on'} aria-pressed={!raw} onClick={() => onChange(false)}>
        Rendered
      </button>
      <button className={raw ? 'on' : ''} aria-pressed={raw} onClick={() => onChange(true)}>
        Raw
      </button>
    </div>
  )
}

/** Markdown rendered safely; its text as it is while the renderer loads. */
export function Markdown({ text }: { text: string }) {
  return (
    <Suspense fallback={<AgentText value={text} className="content-text" />}>
      <MarkdownView text={text} />
    </Suspense>
  )
}
