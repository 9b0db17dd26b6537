import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { APP_ROOT } from '../shared/bundles.mjs'
import { COMPARE_FORMAT } from '../shared/compare/compare'
import { call, CALL_FORMAT } from './call'
import { compare } from './compare'
import { converse, CONVERSATION_FORMAT } from './converse'
import { errorObject, errorText, jsonPrinted, printJson } from './failure'
import { guarded } from './faults'
import { inspect } from './inspect'
import { INSPECT_FORMAT } from './inspectReport'
import { record, RECORD_FORMAT } from './record'
import { replay, REPLAY_FORMAT } from './replay'
import { request, REQUEST_FORMAT } from './request'
import { sessions, SESSIONS_FORMAT } from './sessions'
import { USAGE } from './usage'
import { web } from './web'

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  inspect,
  converse,
  call,
  request,
  compare,
  record,
  replay,
  sessions,
  // Loaded when asked for: the tap's relays and readers are no part of any other command's start.
  tap: async (argv) => (await import('./tap')).tap(argv),
  web,
}
/** The `format` of each command's --json object: on every exit path, failures included, stdout holds one. */
const FORMATS: Record<string, string> = {
  inspect: INSPECT_FORMAT,
  call: CALL_FORMAT,
  request: REQUEST_FORMAT,
  converse: CONVERSATION_FORMAT,
  record: RECORD_FORMAT,
  replay: REPLAY_FORMAT,
  compare: COMPARE_FORMAT,
  sessions: SESSIONS_FORMAT,
}

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
    // The web host and the tap guard their own processes (they outlive any fault); a one-shot command fails on one outside its connections.
    return await (command === 'web' || command === 'tap' ? run(rest) : guarded(() => run(rest)))
  } catch (error) {
    // Usage mistakes, connections that could not be made, refusals and faults alike: said on stderr (the
    // cause whole), and with --json as the one object on stdout, its `error` {kind, message, cause}; exit 2.
    const failure = errorObject(error)
    process.stderr.write(errorText(command, failure))
    const format = FORMATS[command]
    if (format && wantsJson(rest) && !jsonPrinted()) printJson({ format, error: failure })
    return 2
  }
}

/** Whether the command was asked for JSON, read from argv as given (the flags may be what failed to parse). */
function wantsJson(argv: string[]): boolean {
  const end = argv.indexOf('--')
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json')
}
