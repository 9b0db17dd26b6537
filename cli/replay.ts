import { readFile, writeFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { visibleText, type TurnParity } from '../shared/contract'
import { parseRecording } from '../shared/session/recording'
import { Redactor } from '../shared/session/redaction'
import { turnsFromEvents } from '../shared/session/turns'
import { cliHost, targetRef, wholeNumber } from './connect'
import { printJson } from './failure'
import { resolveTarget } from './resolveTarget'
import { UsageError } from './usage'

export const REPLAY_FORMAT = 'parallax.replay/1'

/** `parallax replay FILE --target A [--target B]`: turn-by-turn parity, for CI. */
export async function replay(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      target: { type: 'string', multiple: true, default: [] },
      ignore: { type: 'string', multiple: true, default: [] },
      json: { type: 'boolean', default: false },
      junit: { type: 'string' },
      config: { type: 'string' },
      yes: { type: 'boolean', short: 'y', default: false },
      timeout: { type: 'string', default: '30000' },
    },
  })
  if (positionals.length !== 1)
    throw new UsageError('replay takes one recording file, e.g. parallax replay session.jsonl --target demo:tools')
  if (values.target.length < 1 || values.target.length > 2)
    throw new UsageError('give one --target (compare with the recording) or two (compare A with B)')
  for (const pointer of values.ignore)
    if (!pointer.startsWith('/'))
      throw new UsageError(`--ignore takes JSON Pointers such as /data/media_buy/media_buy_id, got "${pointer}"`)
  const file = positionals[0]
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`)
  }
  const loaded = parseRecording(text)
  for (const problem of loaded.problems) process.stderr.write(`${file}:${problem.line}: ${problem.message}\n`)
  const turns = turnsFromEvents(loaded.events, loaded.header?.mapping)
  if (turns.length === 0) throw new UsageError(`${file} holds no turns to replay`)
  const targets = await Promise.all(values.target.map((t) => resolveTarget(t, values.config)))

  const host = cliHost({
    yes: values.yes,
    configFile: values.config,
    defaults: { requestTimeoutMs: wholeNumber(values.timeout, '--timeout', 100), reconnectAttempts: 0, keepaliveIntervalMs: 3_600_000 },
  })
  try {
    // The engine reads the recording as it was given (its problems were reported above) and opens its own connections.
    // A target that cannot connect fails the command with its cause whole (the engine's CommandError carries it).
    const { replayId } = await host.invoke('replay.start', {
      recording: { label: file, text },
      targets: targets.map(targetRef),
      ignore: values.ignore,
    })
    const step = () => host.invoke('replay.step', { replayId })
    const results: TurnParity[] = []
    for (let parity = await step(); parity; parity = await step()) {
      results.push(parity)
      if (!values.json)
        process.stderr.write(
          visibleText(
            `turn ${parity.index}: ${parity.status}${parity.reason ? ` (${parity.reason})` : ''}${parity.errors ? ` ${Object.values(parity.errors).join('; ')}` : ''}\n`,
          ),
        )
    }
    const summary = {
      total: results.length,
      same: results.filter((r) => r.status === 'same').length,
      differs: results.filter((r) => r.status === 'differs').length,
      errors: results.filter((r) => r.status === 'error').length,
    }
    const labels = targets.length === 2 ? values.target : ['recording', values.target[0]]
    const report = {
      format: REPLAY_FORMAT,
      recording: file,
      targets: values.target,
      problems: loaded.problems,
      // What the targets answered goes to files and CI logs: secrets are taken out, as in recordings.
      turns: new Redactor().redact(
        results.map(({ index, status, diff, a, b, errors, reason, turn }) => ({
          index,
          status,
          turn,
          diff,
          a,
          b,
          ...(errors && { errors }),
          ...(reason && { reason }),
        })),
      ),
      summary,
    }
    if (values.junit) await writeFile(values.junit, junit(report.turns, labels, file))
    if (values.json) printJson(report)
    else process.stdout.write(visibleText(formatReplay(report.turns, labels, summary)))
    return summary.differs || summary.errors ? 1 : 0
  } finally {
    await host.close()
  }
}

type Row = Pick<TurnParity, 'index' | 'status' | 'diff' | 'errors' | 'reason' | 'turn'>

function describeTurn(turn: TurnParity['turn']): string {
  return turn.kind === 'call'
    ? `${turn.tool} ${JSON.stringify(turn.arguments)}`
    : turn.kind === 'data'
      ? JSON.stringify(turn.data)
      : turn.text
}

function formatReplay(rows: Row[], [a, b]: string[], summary: { total: number; same: number; differs: number; errors: number }): string {
  const lines = [`${a} vs ${b}`]
  for (const row of rows) {
    lines.push(`  ${String(row.index).padStart(3)} ${row.status.padEnd(7)} ${describeTurn(row.turn).slice(0, 90)}`)
    for (const d of row.diff) lines.push(`        ${d.op} ${d.path}: ${JSON.stringify(d.a)} → ${JSON.stringify(d.b)}`)
    if (row.errors) for (const [side, message] of Object.entries(row.errors)) lines.push(`        ${side === 'a' ? a : b}: ${message}`)
  }
  lines.push(`${summary.total} turn(s): ${summary.same} same, ${summary.differs} differ, ${summary.errors} error(s)`)
  return `${lines.join('\n')}\n`
}

function junit(rows: Row[], [a, b]: string[], file: string): string {
  const esc = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)
  const failures = rows.filter((r) => r.status === 'differs').length
  const errors = rows.filter((r) => r.status === 'error').length
  const skipped = rows.filter((r) => r.status === 'skipped').length
  const cases = rows.map((r) => {
    const name = esc(`turn ${r.index}: ${describeTurn(r.turn).slice(0, 120)}`)
    const body =
      r.status === 'differs'
        ? `<failure message="${esc(`${a} and ${b} differ at ${r.diff.map((d) => d.path).join(', ')}`)}">${esc(JSON.stringify(r.diff, null, 2))}</failure>`
        : r.status === 'error'
          ? `<error message="${esc(Object.values(r.errors ?? {}).join('; '))}"/>`
          : r.status === 'skipped'
            ? `<skipped message="${esc(r.reason ?? '')}"/>`
            : ''
    return `    <testcase classname="parallax.replay" name="${name}">${body}</testcase>`
  })
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n  <testsuite name="${esc(`replay ${file}: ${a} vs ${b}`)}" tests="${rows.length}" failures="${failures}" errors="${errors}" skipped="${skipped}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`
}
