import { Fragment, type ReactNode } from 'react'
import { visibleName, visibleText } from '../../../shared/contract'

const MARK = /(⟨U\+[0-9A-F]{4,6}⟩)/

/**
 * A name an agent supplied (a tool, prompt, resource, skill, server or agent): hidden characters —
 * bidirectional overrides, zero-width characters, controls — are shown as `⟨U+XXXX⟩` and marked, so
 * one name cannot pass for another. A long name wraps inside its box where its words meet (after a
 * hyphen, an underscore, a dot, a slash or a colon), and mid-word only where one part is wider than the box.
 */
export function Name({ value, className }: { value: string; className?: string }) {
  return <Marked text={visibleName(value)} original={value} className={`name${className ? ` ${className}` : ''}`} breakable />
}

/** Longer agent-supplied text (descriptions, instructions): the same, with line breaks kept. */
export function AgentText({ value, className }: { value: string; className?: string }) {
  return <Marked text={visibleText(value)} original={value} className={className} />
}

function Marked({ text, original, className, breakable }: { text: string; original: string; className?: string; breakable?: boolean }) {
  const words = breakable ? wordBreaks : (part: string) => part
  if (text === original) return <span className={className}>{words(text)}</span>
  return (
    <span className={className} title="Contains hidden characters, shown as ⟨U+…⟩" data-hidden-chars="true">
      {text.split(MARK).map((part, i) =>
        i % 2 === 1 ? (
          <mark key={i} className="hidden-char">
            {part}
          </mark>
        ) : (
          <Fragment key={i}>{words(part)}</Fragment>
        ),
      )}
    </span>
  )
}

/**
 * A name with a line-break opportunity after each `_ . / :` (a hyphen is one already), so
 * `create_media_buy` wraps as `create_` / `media_buy`, never `create_me` / `dia_buy`.
 */
function wordBreaks(name: string): ReactNode {
  if (!/[_./:]./.test(name)) return name
  const parts = name.split(/(?<=[_./:])(?=.)/)
  return parts.map((part, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ))
}
