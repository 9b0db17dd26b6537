import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

let collect: (() => void) | undefined

/**
 * A full garbage collection, now. Used only after a message of many megabytes was assembled: the pieces
 * it came in are garbage, and without this they would still be in memory while the message is parsed
 * (three copies of it at once instead of two). V8 offers `gc` only behind a flag, set here once.
 */
export function letGoOfGarbage(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc')
    collect = runInNewContext('gc') as () => void
  }
  collect()
}
