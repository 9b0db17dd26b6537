/**
 * What a UI fetches when it shows it (frames' payloads, log lines' texts: see backlog.ts) comes in
 * answers of bounded size: `frames.payloads` and `logs.texts` take up to SEQS_PER_REQUEST numbers and
 * answer, in the order asked, as many as fit in ANSWER_BYTES (at least one, whatever its size); the
 * asker asks again for the rest (`askInParts`).
 */
export const SEQS_PER_REQUEST = 100_000
export const ANSWER_BYTES = 4_000_000

/** What `ask` answers for every one of `seqs`, asking as many times as the answers' size takes. */
export async function askInParts<T>(seqs: readonly number[], ask: (seqs: number[]) => Promise<T[]>): Promise<T[]> {
  const answers: T[] = []
  while (answers.length < seqs.length) {
    const part = await ask(seqs.slice(answers.length, answers.length + SEQS_PER_REQUEST))
    if (part.length === 0) throw new Error('the engine answered nothing') // never: each answer holds at least one
    for (const answer of part) answers.push(answer)
  }
  return answers
}

/** How many rows (frames or log lines, by position) a UI may ask for at once. */
export const ROWS_PER_REQUEST = 5000
