import { causeLines, CommandError, visibleText, type FailureCause } from '../shared/contract'
import { errorMessage } from '../shared/runtime/errors'

/**
 * What a failed command is, for scripts: a usage mistake (bad flags, an unknown target, a file that
 * cannot be read), a connection that could not be made, a command that needs the user's approval, a
 * command the engine refused or could not carry out, or a fault of Parallax's own. Every kind exits 2.
 */
export type FailureKind = 'usage' | 'connection' | 'approval' | 'failed' | 'internal'

/** The `error` of a failed command's one JSON object: `cause` is the reason whole (shared/contract/failure.ts), or null. */
export interface ErrorObject {
  kind: FailureKind
  message: string
  cause: FailureCause | null
}

/** A command that cannot go on: the CLI prints it (one object with --json; the message and its cause on stderr) and exits 2. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly kind: FailureKind,
    readonly failure?: FailureCause,
  ) {
    super(message)
    this.name = 'CliError'
  }
}

/** Any error a command threw, as its JSON `error`. */
export function errorObject(error: unknown): ErrorObject {
  const message = errorMessage(error)
  if (error instanceof CliError) return { kind: error.kind, message, cause: error.failure ?? null }
  if (error instanceof CommandError) {
    const cause = (error.details as { cause?: FailureCause } | undefined)?.cause
    const kind: FailureKind =
      error.code === 'approval-required'
        ? 'approval'
        : cause
          ? 'connection'
          : error.code === 'invalid-input' || error.code === 'not-found'
            ? 'usage'
            : 'failed'
    return { kind, message, cause: cause ?? null }
  }
  // node:util parseArgs: an unknown or malformed flag.
  if (String((error as { code?: unknown } | undefined)?.code ?? '').startsWith('ERR_PARSE_ARGS'))
    return { kind: 'usage', message, cause: null }
  return { kind: 'internal', message, cause: null }
}

/** The error as a person reads it: one line, then the cause whole, indented. */
export function errorText(command: string, error: ErrorObject): string {
  const prefix = error.kind === 'internal' ? 'unexpected error: ' : ''
  const lines = [`parallax ${command}: ${prefix}${error.message}`, ...(error.cause ? causeLines(error.cause) : [])]
  return visibleText(`${lines.join('\n')}\n`)
}

let printedJson = false

/** Writes a command's one JSON object on stdout; once per run, so a failure after it cannot add a second. */
export function printJson(object: unknown): void {
  if (printedJson) return
  printedJson = true
  process.stdout.write(`${JSON.stringify(object)}\n`)
}

/** Whether the run's JSON object is already on stdout. */
export function jsonPrinted(): boolean {
  return printedJson
}
