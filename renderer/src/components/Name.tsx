import { visibleName, visibleText } from '../../../shared/contract'

const MARK = /(⟨U\+[0-9A-F]{4,6}⟩)/

/**
 * A name an agent supplied (a tool, prompt, resource, skill, server or agent): hidden characters —
 * bidirectional overrides, zero-width characters, controls — are shown as `⟨U+XXXX⟩` and marked, so
 * one name cannot pass for another. Long names wrap inside their box.
 */
export function Name({ value, className }: { value: string; className?: string }) {
  return <Marked text={visibleName(value)} original={value} className={`name${className ? ` ${className}` : ''}`} />
}

/** Longer agent-supplied text (descriptions, instructions): the same, with line breaks kept. */
export function AgentText({ value, className }: { value: string; className?: string }) {
  return <Marked text={visibleText(value)} original={value} className={className} />
}

function Marked({ text, original, className }: { text: string; original: string; className?: string }) {
  if (text === original) return <span className={className}>{text}</span>
  return (
    <span className={className} title="Contains hidden characters, shown as ⟨U+…⟩" data-hidden-chars="true">
      {text.split(MARK).map((part, i) =>
        i % 2 === 1 ? (
          <mark key={i} className="hidden-char">
            {part}
          </mark>
        ) : (
          part
        ),
      )}
    </span>
  )
}
