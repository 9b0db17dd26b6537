import { createInterface } from 'node:readline/promises'
import { describeSpec, redactArgs, type ApprovalRequest } from '../shared/contract'
import type { Approver } from '../shared/engine/approvals'
import { CliError } from './failure'

/**
 * The CLI's side of consent. What its user typed on the command line runs, for this run only (an inline
 * `stdio:` command, a `--hooks` file). A command that came from a config file is asked about on the
 * terminal, or needs `--yes`, unless it was approved before (in the app or an earlier run) exactly as
 * it is now; that approval is remembered.
 */
export function cliApprover(options: { yes: boolean; configFile?: string }): Approver {
  return async (request) => {
    if (request.kind === 'hooks' || (request.kind === 'command' && !request.targetId?.startsWith('config:'))) return 'once'
    if (options.yes) return 'always'
    const what = describe(request)
    const changed = request.changes?.length ? `It changed since you approved it: ${request.changes.join('; ')}.` : ''
    if (await askOnTerminal(`${what}\n${changed ? `${changed}\n` : ''}Run it? [y/N] `)) return 'always'
    throw new CliError(
      `${what.replace(/:\n {2}/, ' ')}, which you have not approved. ${changed}${changed ? ' ' : ''}Check it, then run again with --yes (or from a terminal, which asks).`,
      'approval',
      request.command && { command: describeSpec({ kind: 'mcp-stdio', ...request.command, args: redactArgs(request.command.args) }) },
    )
  }

  function describe(request: ApprovalRequest): string {
    const source = options.configFile ?? 'the config file'
    if (request.command) {
      const line = [request.command.command, ...request.command.args].join(' ')
      return `"${request.targetName}" from ${source} would run:\n  ${line}`
    }
    return `${request.title} (${request.origin?.requested ?? ''})`
  }
}

/** Asks a yes/no question when a person is at the terminal; false when nobody can answer. */
export async function askOnTerminal(question: string): Promise<boolean> {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return false
  const rl = createInterface({ input: process.stdin, output: process.stderr })
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim())
  } finally {
    rl.close()
  }
}
