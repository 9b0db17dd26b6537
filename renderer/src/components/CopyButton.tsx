import { useState } from 'react'

/** Copies a value as pretty JSON (or a string as is) and says so for a moment. */
export function CopyButton({
  value,
  label = 'Copy JSON',
  className = 'btn small',
}: {
  /** What to copy: a value, or one still to be fetched (a frame's payload kept in the engine). */
  value: () => unknown
  label?: string
  className?: string
}) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    let v: unknown
    try {
      v = await value()
    } catch (error) {
      v = `(could not be fetched: ${(error as Error).message})`
    }
    let text: string
    try {
      text = typeof v === 'string' ? v : JSON.stringify(v, null, 2)
    } catch (error) {
      text = `(cannot be copied as JSON: ${(error as Error).message})` // cyclic, or nested too deeply
    }
    try {
      await navigator.clipboard.writeText(text)
    } catch {
      // Clipboard API refused (e.g. insecure context): fall back to a hidden textarea.
      const area = document.createElement('textarea')
      area.value = text
      document.body.append(area)
      area.select()
      document.execCommand('copy')
      area.remove()
    }
    setCopied(true)
    setTimeout(() => setCopied(false), 1200)
  }
  return (
    <button className={className} onClick={copy} title="Copy to the clipboard">
      {copied ? 'Copied' : label}
    </button>
  )
}
