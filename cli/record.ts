import { isFailedTurn, protocolOf, visibleText } from '../shared/contract'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { cliHost, connectOrExplain, wholeNumber } from './connect'
import { clientFlags, withClientFlags } from './clientFlags'
import { parseTurn } from './converse'
import { printJson } from './failure'
import { resolveTarget } from './resolveTarget'
import { UsageError } from './usage'

export const RECORD_FORMAT = 'parallax.record/1'

/**
 * `parallax record <target> --turn T … --out FILE [--json]`: a conversation, recorded as JSON Lines.
 * Exit 1 when a turn failed (the contract's one definition: an error, an `isError` result, a failed or rejected task).
 */
export async function record(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      turn: { type: 'string', multiple: true, default: [] },
      out: { type: 'string' },
      stream: { type: 'boolean', default: false },
      config: { type: 'string' },
      yes: { type: 'boolean', short: 'y', default: false },
      'secret-key': { type: 'string', multiple: true, default: [] },
      timeout: { type: 'string', default: '30000' },
      json: { type: 'boolean', default: false },
      permission: { type: 'string' },
      workspace: { type: 'string' },
    },
  })
  if (positionals.length !== 1) throw new UsageError('record takes exactly one target')
  if (!values.out) throw new UsageError('give the file to write with --out FILE')
  if (values.turn.length === 0) throw new UsageError('give at least one --turn')
  const target = withClientFlags(
    await resolveTarget(positionals[0], values.config),
    await clientFlags({ permission: values.permission, workspace: values.workspace }),
  )
  const protocol = protocolOf(target.spec)
  const turns = values.turn.map((t) => parseTurn(t, protocol))
  const host = cliHost({
    yes: values.yes,
    configFile: values.config,
    secretKeys: values['secret-key'],
    defaults: { requestTimeoutMs: wholeNumber(values.timeout, '--timeout', 100), reconnectAttempts: 0, keepaliveIntervalMs: 3_600_000 },
  })
  const progress = (line: string) => {
    if (!values.json) process.stderr.write(`${visibleText(line)}\n`)
  }
  const out = resolve(values.out)
  const results: { turn: number; state: string; error?: string }[] = []
  let lines: number
  try {
    const connectionId = await connectOrExplain(host, target, 'recording')
    await host.invoke('recordings.start', { connectionId, file: out })
    for (const [i, turn] of turns.entries()) {
      try {
        const result = await host.invoke('conversation.send', { connectionId, turn, stream: values.stream })
        results.push({ turn: i + 1, state: result.state })
        progress(`turn ${i + 1}: ${result.state}`)
      } catch (error) {
        results.push({ turn: i + 1, state: 'error', error: (error as Error).message })
        progress(`turn ${i + 1}: error: ${(error as Error).message}`)
      }
    }
    ;({ lines } = await host.invoke('recordings.stop', { connectionId }))
    progress(`recorded ${turns.length} turn(s), ${lines} line(s), to ${out}`)
  } finally {
    await host.close()
  }
  const failed = results.filter((r) => isFailedTurn(r.state)).length
  if (values.json)
    printJson({
      format: RECORD_FORMAT,
      target: target.origin === 'demo' ? target.id : target.name,
      file: out,
      lines,
      turns: results,
      failed,
    })
  return failed ? 1 : 0
}
