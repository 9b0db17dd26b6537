import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { describeSpec, visibleName, type SavedTarget } from '../../../shared/contract'
import {
  closeFramesDrawer,
  closePalette,
  connect,
  disconnect,
  openCompare,
  openReplay,
  openShortcuts,
  openSideBySide,
  openTab,
  openTarget,
  probe,
  reconnect,
  refresh,
  startEditing,
  startRecording,
  stopRecording,
  toggleTheme,
} from '../store/actions'
import type { ConnectionView } from '../store/connectionView'
import { TABS, useStore, type Store } from '../store/store'
import { targetTabs } from '../store/targetTabs'
import { fuzzyMatch } from './fuzzyMatch'
import { chooseConfigFile } from './ImportDialog'
import { openHistorySettings } from '../store/historyActions'
import '../components/modal.css'
import './commandPalette.css'

const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)
/** How the palette is opened, as this platform writes it. */
export const PALETTE_KEYS = MAC ? '⌘K' : 'Ctrl K'

/** One thing the palette can do: where it belongs, what it says, its own shortcut, and what it runs. */
export interface PaletteEntry {
  id: string
  group: string
  label: string
  /** Words it is also found by. */
  keywords?: string
  keys?: string
  run: () => void
}

/**
 * Every view and action of the app, for the palette: the targets, the selected target's tabs and
 * actions (connect, disconnect, reconnect, probe, refresh, record, edit), the other pages, and the app's
 * own (theme, add, import, shortcuts). What does not apply now (probing a closed connection) is left out.
 */
export function paletteEntries(s: Store): PaletteEntry[] {
  const entries: PaletteEntry[] = []
  const target = s.targets.find((t) => t.id === s.selectedTargetId)
  const view = target && s.connections[s.latestByTarget[target.id]]
  if (target) entries.push(...targetActions(target, view))
  if (target && view) {
    for (const tab of targetTabs(target))
      entries.push({
        id: `tab:${tab.id}`,
        group: 'Tab',
        label: view.protocol === 'a2a' ? (tab.a2aLabel ?? tab.label) : tab.label,
        keywords: `tab ${tab.label}`,
        keys: String(TABS.indexOf(tab) + 1),
        run: () => {
          openTarget(target.id)
          openTab(tab.id)
        },
      })
  }
  entries.push(
    {
      id: 'view:side-by-side',
      group: 'View',
      label: 'Side by side',
      keywords: 'conversations turns align',
      keys: 's',
      run: () => openSideBySide(),
    },
    { id: 'view:replay', group: 'View', label: 'Replay a recording', keywords: 'parity', keys: 'y', run: openReplay },
    { id: 'view:compare', group: 'View', label: 'Compare profiles or targets', keywords: 'diff hint', keys: 'd', run: openCompare },
  )
  for (const t of s.targets)
    entries.push({
      id: `target:${t.id}`,
      group: 'Go to',
      label: visibleName(t.name),
      keywords: `go to ${t.origin === 'demo' ? 'demo ' : ''}${describeSpec(t.spec)}`,
      run: () => openTarget(t.id),
    })
  entries.push(
    { id: 'app:add', group: 'App', label: 'Add a server or agent…', keywords: 'new target', keys: 'n', run: () => startEditing('new') },
    { id: 'app:import', group: 'App', label: 'Import a config file…', keywords: 'mcpServers json', run: chooseConfigFile },
    {
      id: 'app:theme',
      group: 'App',
      label: s.theme === 'dark' ? 'Light theme' : 'Dark theme',
      keywords: 'toggle theme appearance',
      keys: 't',
      run: toggleTheme,
    },
    { id: 'app:shortcuts', group: 'App', label: 'Keyboard shortcuts', keywords: 'keys help', keys: '?', run: openShortcuts },
    {
      id: 'app:history-settings',
      group: 'App',
      label: 'Session history settings…',
      keywords: 'retention disk size limit sessions kept',
      run: openHistorySettings,
    },
  )
  return entries
}

function targetActions(target: SavedTarget, view: ConnectionView | undefined): PaletteEntry[] {
  const name = visibleName(target.name)
  const live = view && (view.state === 'connected' || view.state === 'degraded')
  const busy = view && (view.state === 'connecting' || view.state === 'reconnecting')
  const out: PaletteEntry[] = []
  const action = (id: string, label: string, run: () => void, keys?: string, keywords?: string) =>
    out.push({ id: `action:${id}`, group: 'Connection', label, run, keys, keywords })
  if (view && (live || busy)) {
    action('disconnect', `Disconnect ${name}`, () => disconnect(view.id), 'c', 'close stop')
    action('reconnect', `Reconnect ${name}`, () => void reconnect(view.id), undefined, 'restart again')
  } else action('connect', `${view ? 'Reconnect' : 'Connect'} ${name}`, () => void connect(target), 'c', 'open start')
  if (view && live) {
    action('probe', 'Probe now', () => probe(view.id), 'p', 'keepalive ping')
    if (view.protocol === 'mcp') action('refresh', 'Refresh: run discovery again', () => refresh(view.id), 'r', 'rediscover list')
    const recording = view.recording && !view.recording.error
    action('record', recording ? 'Stop recording' : 'Record this connection', () => toggleRecording(view), 'Shift R', 'recording')
  }
  if (target.origin !== 'demo') action('edit', `Edit ${name}…`, () => startEditing(target), 'e', 'change settings command url')
  return out
}

/** Starts recording the connection into the library, or stops the recording in progress. */
export function toggleRecording(view: ConnectionView): void {
  if (view.recording && !view.recording.error) stopRecording(view.id)
  else startRecording(view.id)
}

/** The entries that take the user somewhere (rather than act where they are). */
const NAVIGATES = new Set(['Go to', 'Tab', 'View'])

/** The command palette (Ctrl/Cmd+K): type to filter every view and action, ↑↓ to choose, Enter to run, Escape to leave. */
export function CommandPalette() {
  const open = useStore((s) => s.paletteOpen)
  if (!open) return null
  return <Palette />
}

function Palette() {
  const [query, setQuery] = useState('')
  const [active, setActive] = useState(0)
  const list = useRef<HTMLUListElement>(null)
  // What the palette offers is read once, when it opens: the app as it is now.
  const entries = useMemo(() => paletteEntries(useStore.getState()), [])
  const shown = useMemo(() => {
    const q = query.trim()
    if (!q) return entries.map((entry) => ({ entry, at: [] as number[] }))
    return entries
      .map((entry, order) => {
        const onLabel = fuzzyMatch(q, entry.label)
        const onAll = onLabel ?? (entry.keywords ? fuzzyMatch(q, `${entry.label} ${entry.keywords}`) : undefined)
        return onAll && { entry, order, at: onLabel?.at ?? [], score: onAll.score + (onLabel ? 5 : 0) }
      })
      .filter((m) => m !== undefined)
      .sort((a, b) => b.score - a.score || a.order - b.order)
  }, [entries, query])
  const current = Math.min(active, Math.max(0, shown.length - 1))

  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' })
  }, [current, shown])

  const run = (entry: PaletteEntry | undefined) => {
    if (!entry) return
    closePalette()
    if (NAVIGATES.has(entry.group)) closeFramesDrawer() // going somewhere: the drawer would hide it
    entry.run()
  }
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown' || (e.ctrlKey && e.key === 'n')) setActive((current + 1) % Math.max(1, shown.length))
    else if (e.key === 'ArrowUp' || (e.ctrlKey && e.key === 'p')) setActive((current - 1 + shown.length) % Math.max(1, shown.length))
    else if (e.key === 'PageDown') setActive(Math.min(shown.length - 1, current + 8))
    else if (e.key === 'PageUp') setActive(Math.max(0, current - 8))
    else if (e.key === 'Enter') run(shown[current]?.entry)
    else if (e.key === 'Escape') closePalette()
    else return
    e.preventDefault()
    e.stopPropagation()
  }

  return (
    <div className="backdrop palette-backdrop" onMouseDown={(e) => e.target === e.currentTarget && closePalette()}>
      <div className="palette" role="dialog" aria-label="Command palette" onKeyDown={onKey}>
        <input
          className="palette-input"
          autoFocus
          value={query}
          onChange={(e) => {
            setQuery(e.target.value)
            setActive(0)
          }}
          placeholder="Go to a target, a tab, a view, or run an action…"
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-activedescendant={shown[current] ? `palette-${shown[current].entry.id}` : undefined}
          aria-label="Command"
        />
        <ul className="palette-list" id="palette-list" role="listbox" ref={list}>
          {shown.length === 0 && <li className="palette-empty">Nothing matches “{query}”.</li>}
          {shown.map(({ entry, at }, i) => (
            <li
              key={entry.id}
              id={`palette-${entry.id}`}
              role="option"
              aria-selected={i === current}
              className={`palette-item${i === current ? ' active' : ''}`}
              onMouseMove={() => i !== current && setActive(i)}
              onClick={() => run(entry)}
              data-entry={entry.id}
            >
              <span className="palette-group">{entry.group}</span>
              <span className="palette-label">{highlight(entry.label, at)}</span>
              {entry.keys && <kbd>{entry.keys}</kbd>}
            </li>
          ))}
        </ul>
        <div className="palette-foot muted">
          <span>
            <kbd>↑</kbd> <kbd>↓</kbd> choose
          </span>
          <span>
            <kbd>Enter</kbd> run
          </span>
          <span>
            <kbd>Esc</kbd> close
          </span>
        </div>
      </div>
    </div>
  )
}

/** The label with the characters the query matched in bold. */
function highlight(label: string, at: number[]): ReactNode {
  if (at.length === 0) return label
  const marks = new Set(at)
  const parts: ReactNode[] = []
  let run = ''
  let bold = false
  const flush = (key: number) => {
    if (run) parts.push(bold ? <b key={key}>{run}</b> : run)
    run = ''
  }
  for (let i = 0; i < label.length; i++) {
    if (marks.has(i) !== bold) {
      flush(i)
      bold = marks.has(i)
    }
    run += label[i]
  }
  flush(label.length)
  return parts
}
