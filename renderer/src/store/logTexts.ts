import type { LogList } from './rowLists'
import { useStore } from './store'

// A backlog's log lines come without their text (shared/contract/backlog.ts): the Log view fetches the
// texts of the lines it shows, and every text before it searches or copies them.

/** The most seqs one `logs.texts` takes. */
const BATCH = 100_000
/** Texts asked for and not answered yet, per list: a line is asked for once at a time. */
const asked = new WeakMap<LogList, Set<number>>()

/** Fetches the texts of the lines at `positions` of `logs` (connection `connectionId`'s) that have none yet, and keeps them there. */
export async function loadLogTexts(connectionId: string, logs: LogList, positions: Iterable<number>): Promise<void> {
  let pending = asked.get(logs)
  if (!pending) asked.set(logs, (pending = new Set()))
  const seqs: number[] = []
  for (const i of positions) {
    if (logs.textAt(i) !== undefined) continue
    const seq = logs.seqAt(i)
    if (!pending.has(seq)) seqs.push(seq)
  }
  if (!seqs.length) return
  const api = useStore.getState().api
  if (!api) throw new Error('not connected to the engine')
  for (const seq of seqs) pending.add(seq)
  try {
    for (let from = 0; from < seqs.length; from += BATCH) {
      const part = seqs.slice(from, from + BATCH)
      const { texts } = await api.invoke('logs.texts', { connectionId, seqs: part })
      part.forEach((seq, k) => logs.keepText(seq, texts[k]))
    }
  } finally {
    for (const seq of seqs) pending.delete(seq)
  }
}

/** Every position of `logs`. */
export function everyLine(logs: LogList): Iterable<number> {
  return {
    *[Symbol.iterator]() {
      for (let i = 0; i < logs.length; i++) yield i
    },
  }
}
