import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { visibleText, type TurnParity } from '../shared/contract'
import { parityReportHtml } from '../shared/session/parityReport'
import { openRecording } from '../shared/session/recording'
import { Redactor } from '../shared/runtime/redaction'
import { cliHost, targetRef, wholeNumber, type CliHost } from './connect'
import { printJson } from './failure'
import { resolveTarget } from './resolveTarget'
import { UsageError } from './usage'

export const REPLAY_FORMAT = 'parallax.replay/1'

type Row = Pick<TurnParity, 'index' | 'status' | 'diff' | 'errors' | 'reason' | 'turn' | 'a' | 'b'>
interface Summary {
  total: number
  same: number
  differs: number
  errors: number
}
/** One recording as read, before anything connects. */
interface Loaded {
  file: string
  text: string
  problems: { line: number; message: string }[]
}
/** One recording replayed: its report in the JSON object. */
interface Replayed {
  recording: string
  problems: { line: number; message: string }[]
  turns: Row[]
  summary: Summary
}

/**
 * `parallax replay FILE|FOLDER … --target A [--target B] [--shard i/n]`: turn-by-turn parity, for CI.
 * One recording file keeps the single-recording report; several (or a folder of `*.jsonl`, or a shard)
 * report each recording and the total.
 */
export async function replay(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      target: { type: 'string', multiple: true, default: [] },
      ignore: { type: 'string', multiple: true, default: [] },
      json: { type: 'boolean', default: false },
      junit: { type: 'string' },
      report: { type: 'string' },
      shard: { type: 'string' },
      config: { type: 'string' },
      yes: { type: 'boolean', short: 'y', default: false },
      timeout: { type: 'string', default: '30000' },
    },
  })
  if (positionals.length < 1)
    throw new UsageError('replay takes recordings (files, or folders of *.jsonl), e.g. parallax replay session.jsonl --target demo:tools')
  if (values.target.length < 1 || values.target.length > 2)
    throw new UsageError('give one --target (compare with the recording) or two (compare A with B)')
  for (const pointer of values.ignore)
    if (!pointer.startsWith('/'))
      throw new UsageError(`--ignore takes JSON Pointers such as /data/media_buy/media_buy_id, got "${pointer}"`)
  const shard = values.shard === undefined ? undefined : shardFlag(values.shard)
  const { files, folder } = await recordingFiles(positionals)
  // One file as asked keeps its report as it always was; a library (several, a folder, a shard) reports each and the total.
  const several = files.length > 1 || folder || shard !== undefined
  const mine = shard ? shardOf(files, shard) : files
  if (shard && mine.length === 0)
    process.stderr.write(`shard ${shard.index}/${shard.count} holds none of the ${files.length} recording(s)\n`)

  // Every recording of this run is read and checked before anything connects.
  const loaded: Loaded[] = []
  for (const file of mine) {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${(error as Error).message}`)
    }
    const opened = openRecording(text)
    for (const problem of opened.problems) process.stderr.write(`${file}:${problem.line}: ${problem.message}\n`)
    if (opened.turns.length === 0) throw new UsageError(`${file} holds no turns to replay`)
    loaded.push({ file, text, problems: opened.problems })
  }
  const targets = await Promise.all(values.target.map((t) => resolveTarget(t, values.config)))
  const labels = targets.length === 2 ? values.target : ['recording', values.target[0]]

  const host = cliHost({
    yes: values.yes,
    configFile: values.config,
    defaults: { requestTimeoutMs: wholeNumber(values.timeout, '--timeout', 100), reconnectAttempts: 0, keepaliveIntervalMs: 3_600_000 },
  })
  const replayed: Replayed[] = []
  try {
    for (const recording of loaded) {
      const progress = (line: string) => {
        if (!values.json) process.stderr.write(visibleText(`${several ? `${recording.file}: ` : ''}${line}\n`))
      }
      const results = await replayOne(host, recording, targets.map(targetRef), values.ignore, progress)
      replayed.push({
        recording: recording.file,
        problems: recording.problems,
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
        summary: summarize(results),
      })
    }
  } finally {
    await host.close()
  }

  const total = summarize(replayed.flatMap((r) => r.turns))
  if (values.junit) await writeOutput(values.junit, junit(replayed, labels), '--junit')
  if (values.report) {
    // A target given as a URL may carry a password or a token: the page says it redacted.
    const sides = new Redactor().redact({ a: labels[0], b: labels[1] })
    const withSkipped = (r: Replayed) => ({ recording: r.recording, sides, turns: r.turns, summary: reportSummary(r.turns) })
    const html = several
      ? parityReportHtml({ recordings: replayed.map(withSkipped), summary: reportSummary(replayed.flatMap((r) => r.turns)) })
      : parityReportHtml(withSkipped(replayed[0]))
    await writeOutput(values.report, html, '--report')
  }
  if (several) {
    if (values.json)
      printJson({ format: REPLAY_FORMAT, targets: values.target, ...(shard && { shard }), recordings: replayed, summary: total })
    else process.stdout.write(visibleText(replayed.map((r) => formatReplay(r, labels, true)).join('\n') + totalLine(replayed, total)))
  } else {
    const [only] = replayed
    if (values.json)
      printJson({
        format: REPLAY_FORMAT,
        recording: only.recording,
        targets: values.target,
        problems: only.problems,
        turns: only.turns,
        summary: only.summary,
      })
    else process.stdout.write(visibleText(formatReplay(only, labels, false)))
  }
  return total.differs || total.errors ? 1 : 0
}

/** Replays one recording on the host's engine, turn by turn; each turn's status is said as it comes. */
async function replayOne(
  host: CliHost,
  recording: Loaded,
  targets: ReturnType<typeof targetRef>[],
  ignore: string[],
  progress: (line: string) => void,
): Promise<TurnParity[]> {
  // The engine reads the recording as it was given (its problems were reported above) and opens its own connections.
  // A target that cannot connect fails the command with its cause whole (the engine's CommandError carries it).
  const { replayId } = await host.invoke('replay.start', { recording: { label: recording.file, text: recording.text }, targets, ignore })
  const step = () => host.invoke('replay.step', { replayId })
  const results: TurnParity[] = []
  for (let parity = await step(); parity; parity = await step()) {
    results.push(parity)
    progress(
      `turn ${parity.index}: ${parity.status}${parity.reason ? ` (${parity.reason})` : ''}${parity.errors ? ` ${Object.values(parity.errors).join('; ')}` : ''}`,
    )
  }
  return results
}

/**
 * The recording files named: files as given, and each folder's `*.jsonl` (not its subfolders). Sorted by
 * path (code units, the same order on every machine) without duplicates, so a shard is the same everywhere.
 */
async function recordingFiles(paths: string[]): Promise<{ files: string[]; folder: boolean }> {
  const files = new Map<string, string>()
  let folder = false
  for (const path of paths) {
    let isFolder: boolean
    try {
      isFolder = (await stat(path)).isDirectory()
    } catch (error) {
      throw new UsageError(`cannot read ${path}: ${(error as Error).message}`)
    }
    if (!isFolder) {
      files.set(resolve(path), path)
      continue
    }
    folder = true
    const entries = (await readdir(path, { withFileTypes: true })).filter((e) => e.isFile() && e.name.endsWith('.jsonl'))
    if (entries.length === 0) throw new UsageError(`${path} holds no recordings (*.jsonl)`)
    for (const entry of entries) files.set(resolve(path, entry.name), join(path, entry.name))
  }
  return { files: [...files.values()].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)), folder }
}

/** `--shard i/n`: the i-th of n parts (1-based), as test runners split their files. */
function shardFlag(text: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(text)
  const [index, count] = match ? [Number(match[1]), Number(match[2])] : [0, 0]
  if (!match || count < 1 || count > 10_000 || index < 1 || index > count)
    throw new UsageError(`--shard is i/n with i from 1 to n (1-based), e.g. --shard 2/4, got "${text}"`)
  return { index, count }
}

/** The files of shard i of n: contiguous parts of the sorted list, their sizes differing by one at most; together, every file once. */
export function shardOf<T>(files: T[], { index, count }: { index: number; count: number }): T[] {
  return files.slice(Math.floor(((index - 1) * files.length) / count), Math.floor((index * files.length) / count))
}

function summarize(rows: Row[]): Summary {
  return {
    total: rows.length,
    same: rows.filter((r) => r.status === 'same').length,
    differs: rows.filter((r) => r.status === 'differs').length,
    errors: rows.filter((r) => r.status === 'error').length,
  }
}

/** The report's summary: the JSON one, and the turns skipped (a text turn an MCP target cannot take). */
function reportSummary(rows: Row[]) {
  return { ...summarize(rows), skipped: rows.filter((r) => r.status === 'skipped').length }
}

async function writeOutput(file: string, text: string, flag: string): Promise<void> {
  try {
    await writeFile(file, text)
  } catch (error) {
    throw new UsageError(`${flag}: cannot write ${file}: ${(error as Error).message}`)
  }
}

function describeTurn(turn: TurnParity['turn']): string {
  return turn.kind === 'call'
    ? `${turn.tool} ${JSON.stringify(turn.arguments)}`
    : turn.kind === 'data'
      ? JSON.stringify(turn.data)
      : turn.text
}

function formatReplay({ recording, turns, summary }: Replayed, [a, b]: string[], named: boolean): string {
  const lines = [named ? `${recording}: ${a} vs ${b}` : `${a} vs ${b}`]
  for (const row of turns) {
    lines.push(`  ${String(row.index).padStart(3)} ${row.status.padEnd(7)} ${describeTurn(row.turn).slice(0, 90)}`)
    for (const d of row.diff) lines.push(`        ${d.op} ${d.path}: ${JSON.stringify(d.a)} → ${JSON.stringify(d.b)}`)
    if (row.errors) for (const [side, message] of Object.entries(row.errors)) lines.push(`        ${side === 'a' ? a : b}: ${message}`)
  }
  lines.push(`${summary.total} turn(s): ${summary.same} same, ${summary.differs} differ, ${summary.errors} error(s)`)
  return `${lines.join('\n')}\n`
}

function totalLine(replayed: Replayed[], total: Summary): string {
  const failing = replayed.filter((r) => r.summary.differs || r.summary.errors).length
  return `${replayed.length ? '\n' : ''}${replayed.length} recording(s), ${failing} with a difference or error; ${total.total} turn(s): ${total.same} same, ${total.differs} differ, ${total.errors} error(s)\n`
}

/** JUnit for CI: one file, a `<testsuite>` per recording, a `<testcase>` per turn. */
function junit(replayed: Replayed[], [a, b]: string[]): string {
  const esc = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)
  const suite = ({ recording, turns: rows }: Replayed) => {
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
    return `  <testsuite name="${esc(`replay ${recording}: ${a} vs ${b}`)}" tests="${rows.length}" failures="${failures}" errors="${errors}" skipped="${skipped}">\n${cases.join('\n')}\n  </testsuite>\n`
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n${replayed.map(suite).join('')}</testsuites>\n`
}
