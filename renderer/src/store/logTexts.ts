import { askInParts } from '../../../shared/contract'
import type { LogList } from './rowLists'
import { useStore } from './store'

// A backlog's log lines come without their text (shared/contract/backlog.ts): the Log view fetches the
// texts of the lines it shows, and those of every line held before it filters or copies them.

/** Texts asked for and not answered yet, per list and line: a line is asked for once at a time. */
const asked = new WeakMap<LogList, Map<number, Promise<void>>>()

/**
 * Fetches the texts of the lines held at `positions` of `logs` that have none yet, and keeps them there;
 * resolves once every one is there (or asked for in vain), true when this call asked for any (a line asked
 * for already is waited for, not asked again).
 */
export async function loadLogTexts(logs: LogList, positions: Iterable<number>): Promise<boolean> {
  let pending = asked.get(logs)
  if (!pending) asked.set(logs, (pending = new Map()))
  const wanted: { position: number; seq: number }[] = []
  const waits = new Set<Promise<void>>()
  for (const position of positions) {
    const line = logs.at(position)
    if (!line || logs.textAt(position) !== undefined) continue
    const asking = pending.get(line.seq)
    if (asking) waits.add(asking)
    else wanted.push({ position, seq: line.seq })
  }
  if (wanted.length) {
    const fetching = fetchTexts(logs, wanted).finally(() => wanted.forEach(({ seq }) => pending.delete(seq)))
    for (const { seq } of wanted) pending.set(seq, fetching)
    waits.add(fetching)
  }
  await Promise.all(waits)
  return wanted.length > 0
}

async function fetchTexts(logs: LogList, lines: { position: number; seq: number }[]): Promise<void> {
  const api = useStore.getState().api
  if (!api) throw new Error('not connected to the engine')
  const connectionId = logs.connectionId
  const texts = await askInParts(
    lines.map((l) => l.seq),
    async (part) => (await api.invoke('logs.texts', { connectionId, seqs: part })).texts,
  )
  lines.forEach(({ position, seq }, k) => logs.keepText(position, seq, texts[k]))
  logs.textsCame()
}

/** Every position of `logs` held now. */
export function everyHeldLine(logs: LogList): number[] {
  return [...logs.heldPositions()]
}

/** The texts of `lines` (read at `positions` of `logs`, held or not): those held with their text as they are, the rest fetched. */
export async function textsOf(logs: LogList, positions: number[], lines: { seq: number; text: string }[]): Promise<string[]> {
  const texts = positions.map((position) => logs.textAt(position))
  const missing = lines.map((line, k) => (texts[k] === undefined ? line.seq : -1)).filter((seq) => seq !== -1)
  if (missing.length === 0) return texts as string[]
  const api = useStore.getState().api
  if (!api) throw new Error('not connected to the engine')
  const fetched = await askInParts(
    missing,
    async (part) => (await api.invoke('logs.texts', { connectionId: logs.connectionId, seqs: part })).texts,
  )
  let k = 0
  return texts.map((text) => text ?? fetched[k++])
}
