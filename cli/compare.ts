import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import {
  catalogCounts,
  catalogRows,
  visibleText,
  PRESET_PROFILES,
  parseProfile,
  type ClientProfile,
  type CompareResult,
} from '../shared/contract'
import { COMPARE_FORMAT, hasDifference } from '../shared/compare/compare'
import { resolveTarget } from './resolveTarget'
import { cliHost, targetRef } from './connect'
import { printJson } from './failure'
import { UsageError } from './usage'

/**
 * `parallax compare <targetA> [<targetB>] [--profile-a P] [--profile-b P] [--pair tool=skill …]`: did the
 * agent honour the hint? Across protocols, MCP tools and A2A skills pair by name, or as `--pair` renames them.
 */
export async function compare(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'profile-a': { type: 'string' },
      'profile-b': { type: 'string' },
      'fail-on': { type: 'string', default: 'any' },
      pair: { type: 'string', multiple: true, default: [] },
      config: { type: 'string' },
      yes: { type: 'boolean', short: 'y', default: false },
      json: { type: 'boolean', default: false },
      prompt: { type: 'string' },
    },
  })
  if (positionals.length < 1 || positionals.length > 2) throw new UsageError('compare takes one target (under two profiles) or two targets')
  const failOn = values['fail-on']
  if (failOn !== 'any' && failOn !== 'breaking') throw new UsageError('--fail-on is "any" or "breaking"')
  const operations = pairFlags(values.pair)
  // Profiles are checked before anything connects: an invalid one is refused, never sent.
  const profileA = await loadProfile(values['profile-a'])
  const profileB = await loadProfile(values['profile-b'])
  const [targetA, targetB] = await Promise.all([
    resolveTarget(positionals[0], values.config),
    resolveTarget(positionals[1] ?? positionals[0], values.config),
  ])
  const host = cliHost({ yes: values.yes, configFile: values.config, defaults: { reconnectAttempts: 0, keepaliveIntervalMs: 3_600_000 } })
  let result: CompareResult
  try {
    // A side that cannot connect fails the command with its cause whole (the engine's CommandError carries it).
    result = await host.invoke('compare.run', {
      a: { ...targetRef(targetA), profile: profileA },
      b: { ...targetRef(targetB), profile: profileB },
      ...(operations && { operations }),
      ...(values.prompt && { prompt: values.prompt }),
    })
  } finally {
    await host.close()
  }
  const { a, b, handshake, catalog } = result
  const side = (s: typeof a) => ({ target: s.targetName, ...(s.profile && { profile: s.profile }) })
  if (values.json) printJson({ format: COMPARE_FORMAT, a: side(a), b: side(b), handshake, catalog })
  else process.stdout.write(visibleText(formatCompare(result)))
  return hasDifference(result, failOn) ? 1 : 0
}

/** `--pair tool=skill` (repeatable): an MCP tool and the A2A skill it pairs with when their names differ. */
function pairFlags(pairs: string[]): Record<string, string> | undefined {
  if (pairs.length === 0) return undefined
  const operations = new Map<string, string>()
  for (const pair of pairs) {
    const match = /^([^=]+)=([^=]+)$/.exec(pair)
    if (!match) throw new UsageError(`--pair takes tool=skill, e.g. --pair create_buy=create_media_buy, got "${pair}"`)
    const [, tool, skill] = match
    if (operations.has(tool)) throw new UsageError(`--pair: ${tool} is paired twice`)
    operations.set(tool, skill)
  }
  return Object.fromEntries(operations)
}

async function loadProfile(text: string | undefined): Promise<ClientProfile | undefined> {
  if (!text) return undefined
  const preset = PRESET_PROFILES.find((p) => p.name === text)
  if (preset) return preset
  let raw: string
  try {
    raw = await readFile(text, 'utf8')
  } catch {
    throw new UsageError(`"${text}" is neither a preset (${PRESET_PROFILES.map((p) => p.name).join(', ')}) nor a readable profile file`)
  }
  try {
    return parseProfile(JSON.parse(raw), text)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

function formatCompare({ a, b, handshake, catalog }: CompareResult): string {
  const name = (s: typeof a) => `${s.targetName}${s.profile ? ` (${s.profile})` : ''}`
  const lines = [`A: ${name(a)}`, `B: ${name(b)}`, `handshake: ${handshake.length ? '' : 'the same'}`]
  for (const h of handshake)
    lines.push(`  ${h.origin === 'client' ? 'offered ' : ''}${h.field}: ${JSON.stringify(h.a)} → ${JSON.stringify(h.b)}`)
  lines.push(`catalog: ${catalogCounts(catalog)}`)
  // What differs, entry by entry (the same ones are counted, not listed).
  for (const row of catalogRows(catalog)) {
    if (row.status === 'same') continue
    const mark = row.status === 'only in A' ? '-' : row.status === 'only in B' ? '+' : '~'
    lines.push(`  ${mark} ${row.kind} ${row.name}  ${row.status}${row.breaking ? ', BREAKING' : ''}`)
    for (const c of row.changes ?? []) lines.push(`      ${c.breaking ? '!' : ' '} ${c.path} ${c.detail}`)
  }
  return `${lines.join('\n')}\n`
}
