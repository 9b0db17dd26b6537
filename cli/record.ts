import { visibleText } from '../shared/contract'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { cliHost, connectOrExplain, wholeNumber } from './connect'
import { parseTurn } from './converse'
import { resolveTarget } from './resolveTarget'
import { UsageError } from './usage'

/** `parallax record <target> --turn T … --out FILE`: a conversation, recorded as JSON Lines. */
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
    },
  })
  if (positionals.length !== 1) throw new UsageError('record takes exactly one target')
  if (!values.out) throw new UsageError('give the file to write with --out FILE')
  if (values.turn.length === 0) throw new UsageError('give at least one --turn')
  const target = await resolveTarget(positionals[0], values.config)
  const protocol = target.spec.kind === 'a2a' ? 'a2a' : 'mcp'
  const turns = values.turn.map((t) => parseTurn(t, protocol))
  const host = cliHost({
    yes: values.yes,
    configFile: values.config,
    secretKeys: values['secret-key'],
    defaults: { requestTimeoutMs: wholeNumber(values.timeout, '--timeout', 100), reconnectAttempts: 0, keepaliveIntervalMs: 3_600_000 },
  })
  let failed = 0
  try {
    const connectionId = await connectOrExplain(host, target)
    const out = resolve(values.out)
    await host.invoke('recordings.start', { connectionId, file: out })
    for (const [i, turn] of turns.entries()) {
      try {
        const result = await host.invoke('conversation.send', { connectionId, turn, stream: values.stream })
        process.stderr.write(`turn ${i + 1}: ${result.state}\n`)
      } catch (error) {
        failed++
        process.stderr.write(`turn ${i + 1}: error: ${visibleText((error as Error).message)}\n`)
      }
    }
    const { lines } = await host.invoke('recordings.stop', { connectionId })
    process.stderr.write(`recorded ${turns.length} turn(s), ${lines} line(s), to ${out}\n`)
  } finally {
    await host.close()
  }
  return failed ? 1 : 0
}
