import { useState } from 'react'
import { describeSpec, type ImportEntry } from '../../../shared/contract'
import { Modal } from '../components/Modal'
import { Name } from '../components/Name'
import { reloadTargets, selectTarget } from '../store/actions'
import { command, showToast } from '../store/store'
import './importDialog.css'

/** A config file read, before anything is added: its entries (and what could not be used). */
export interface ImportPreview {
  fileName: string
  text: string
  entries: ImportEntry[]
  errors: string[]
}

/** The sidebar's file input for config files: the command palette's "Import config…" opens it too. */
export const configFileInput: { current: HTMLInputElement | null } = { current: null }

export function chooseConfigFile(): void {
  configFileInput.current?.click()
}

/** Reads a config file's entries without adding any (the engine parses it, as it will on import). */
export async function previewConfigFile(file: File): Promise<ImportPreview | undefined> {
  const text = await file.text()
  const preview = await command((api) => api.invoke('targets.previewImport', { text, fileName: file.name }))
  if (!preview) return undefined
  if (preview.entries.length === 0) {
    showToast(`Nothing to import from ${file.name}${preview.errors.length ? `: ${preview.errors.join('; ')}` : ''}`, 'error')
    return undefined
  }
  return { fileName: file.name, text, ...preview }
}

/**
 * Which of a config file's entries to add: each with a checkbox and, in full, the command it would run
 * or the URL it would reach. Nothing runs on import; each command asks for approval when it first connects.
 */
export function ImportDialog({ preview, onClose }: { preview: ImportPreview; onClose: () => void }) {
  const [picked, setPicked] = useState(() => new Set(preview.entries.map((e) => e.id)))
  const [busy, setBusy] = useState(false)
  const all = picked.size === preview.entries.length
  const toggle = (id: string) =>
    setPicked((current) => {
      const next = new Set(current)
      if (!next.delete(id)) next.add(id)
      return next
    })

  const add = async () => {
    setBusy(true)
    const only = preview.entries.filter((e) => picked.has(e.id)).map((e) => e.id)
    const result = await command((api) => api.invoke('targets.import', { text: preview.text, fileName: preview.fileName, only }))
    setBusy(false)
    if (!result) return
    await reloadTargets()
    const names = result.imported.map((t) => t.name).join(', ')
    const skipped = preview.entries.length - result.imported.length
    showToast(
      `Added ${names}${skipped ? ` · left out ${skipped} of ${preview.entries.length}` : ''}. Each command asks for your approval when it first connects.`,
    )
    if (result.imported[0]) selectTarget(result.imported[0].id)
    onClose()
  }

  return (
    <Modal
      title={`Import from ${preview.fileName}`}
      width={680}
      onClose={onClose}
      footer={
        <>
          <span className="muted" style={{ marginRight: 'auto' }}>
            Nothing runs now: each command asks for your approval when it first connects.
          </span>
          <button className="btn" onClick={onClose}>
            Cancel
          </button>
          <button className="btn primary" onClick={() => void add()} disabled={picked.size === 0 || busy}>
            {picked.size === 1 ? 'Add 1 entry' : `Add ${picked.size} entries`}
          </button>
        </>
      }
    >
      <div className="import-head">
        <label className="import-all">
          <input
            type="checkbox"
            checked={all}
            ref={(el) => {
              if (el) el.indeterminate = !all && picked.size > 0
            }}
            onChange={() => setPicked(all ? new Set() : new Set(preview.entries.map((e) => e.id)))}
          />
          {preview.entries.length === 1 ? '1 entry' : `${preview.entries.length} entries`}
        </label>
      </div>
      <ul className="import-list" data-testid="import-entries">
        {preview.entries.map((entry) => (
          <li key={entry.id} className={picked.has(entry.id) ? 'picked' : ''}>
            <label>
              <input type="checkbox" checked={picked.has(entry.id)} onChange={() => toggle(entry.id)} aria-label={`Add ${entry.name}`} />
              <span className="import-entry">
                <span className="import-name">
                  <Name value={entry.name} />
                  <span className="cap">{kindOf(entry)}</span>
                  {entry.replaces !== undefined && (
                    <span className="muted" title="A saved target of the same id (imported before)">
                      replaces the saved “{entry.replaces}”
                    </span>
                  )}
                </span>
                <code className="import-spec">{describeSpec(entry.spec)}</code>
                {(entry.spec.kind === 'mcp-stdio' || entry.spec.kind === 'acp') &&
                  (Object.keys(entry.spec.env).length > 0 || entry.spec.cwd) && (
                    <span className="muted import-extra">
                      {Object.keys(entry.spec.env).length > 0 && `environment: ${Object.keys(entry.spec.env).join(', ')}`}
                      {Object.keys(entry.spec.env).length > 0 && entry.spec.cwd && ' · '}
                      {entry.spec.cwd && `in ${entry.spec.cwd}`}
                    </span>
                  )}
              </span>
            </label>
          </li>
        ))}
      </ul>
      {preview.errors.length > 0 && (
        <div className="import-errors">
          <div className="section-title">Cannot be imported</div>
          <ul>
            {preview.errors.map((error) => (
              <li key={error} className="error-text">
                {error}
              </li>
            ))}
          </ul>
        </div>
      )}
    </Modal>
  )
}

function kindOf(entry: ImportEntry): string {
  const kinds = { 'mcp-stdio': 'MCP · stdio', 'mcp-http': 'MCP · HTTP', a2a: 'A2A', acp: 'ACP · stdio' } as const
  return kinds[entry.spec.kind]
}
