import { askInParts } from '../../../shared/contract'
import type { LogList } from './rowLists'
import { useStore } from './store'

// A backlog's log lines come without their text (shared/contract/backlog.ts): the Log view fetches the
// texts of the lines it shows, and every text before it searches or copies them.

/** Texts asked for and not answered yet, per list and line: a line is asked for once at a time. */
const asked = new WeakMap<LogList, Map<number, Promise<void>>>()

/**
 * Fetches the texts of the lines at `positions` of `logs` (connection `connectionId`'s) that have none yet,
 * and keeps them there; resolves once every one is there (or asked for in vain), true when this call
 * asked for any (a line asked for already is waited for, not asked again).
 */
export async function loadLogTexts(connectionId: string, logs: LogList, positions: Iterable<number>): Promise<boolean> {
  let pending = asked.get(logs)
  if (!pending) asked.set(logs, (pending = new Map()))
  const seqs: number[] = []
  const waits = new Set<Promise<void>>()
  for (const i of positions) {
    if (logs.textAt(i) !== undefined) continue
    const seq = logs.seqAt(i)
    const asking = pending.get(seq)
    if (asking) waits.add(asking)
    else seqs.push(seq)
  }
  if (seqs.length) {
    const fetching = fetchTexts(connectionId, logs, seqs).finally(() => seqs.forEach((seq) => pending.delete(seq)))
    for (const seq of seqs) pending.set(seq, fetching)
    waits.add(fetching)
  }
  await Promise.all(waits)
  return seqs.length > 0
}

async function fetchTexts(connectionId: string, logs: LogList, seqs: number[]): Promise<void> {
  const api = useStore.getState().api
  if (!api) throw new Error('not connected to the engine')
  const texts = await askInParts(seqs, async (part) => (await api.invoke('logs.texts', { connectionId, seqs: part })).texts)
  seqs.forEach((seq, k) => logs.keepText(seq, texts[k]))
}

/** Every position of `logs`. */
export function everyLine(logs: LogList): Iterable<number> {
  return {
    *[Symbol.iterator]() {
      for (let i = 0; i < logs.length; i++) yield i
    },
  }
}
