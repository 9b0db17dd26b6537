import { visibleText } from '../shared/contract'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { APP_ROOT } from '../shared/bundles.mjs'
import { call } from './call'
import { compare } from './compare'
import { converse } from './converse'
import { inspect } from './inspect'
import { record } from './record'
import { replay } from './replay'
import { USAGE, UsageError } from './usage'
import { web } from './web'

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = { inspect, converse, call, compare, record, replay, web }

/** Runs one CLI command and returns its exit code (0 ok, 1 finding, 2 usage or connection error). */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined) {
    // No command: open the app, exactly as `npm start` does.
    await import(pathToFileURL(join(APP_ROOT, 'electron', 'launch.mjs')).href)
    return 0
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  const run = COMMANDS[command]
  if (!run) {
    process.stderr.write(`parallax: unknown command "${command}"\n\n${USAGE}\n`)
    return 2
  }
  try {
    return await run(rest)
  } catch (error) {
    // Usage mistakes (UsageError, bad flags) and unexpected failures alike: one line, exit 2.
    const prefix = error instanceof UsageError ? '' : 'unexpected error: '
    process.stderr.write(`parallax ${command}: ${prefix}${visibleText((error as Error).message)}\n`)
    return 2
  }
}
