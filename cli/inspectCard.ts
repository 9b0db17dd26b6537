import type { CardDrift, ServerCardRead } from '../shared/contract'
import { visibleText } from '../shared/contract'
import { cardEndpoint } from '../shared/mcp/serverCard'
import { cliHost, connectOrExplain } from './connect'
import { CliError, printJson } from './failure'
import { withAuthFlags, type AuthFlagValues } from './authFlags'
import { resolveTarget } from './resolveTarget'
import { UsageError } from './usage'

export const CARD_FORMAT = 'parallax.card-drift/1'
const DRAFT = 'SEP-2127 is a draft: its path and fields may still move'

export interface CardFlags extends AuthFlagValues {
  card: string
  json: boolean
  yes: boolean
  config?: string
  timeout: number
}

/**
 * `parallax inspect --card URL [target]`: reads the card (or server.json, or a base URL's well-known card), connects
 * to the target (else the card's own endpoint) and diffs what the card claims against what the server answers.
 * Exit 1 when they differ or the card departs from the draft.
 */
export async function inspectCard(flags: CardFlags, targetText: string | undefined): Promise<number> {
  const progress = (line: string) => {
    if (!flags.json) process.stderr.write(`${visibleText(line)}\n`)
  }
  const host = cliHost({
    progress,
    yes: flags.yes,
    configFile: flags.config,
    defaults: { requestTimeoutMs: flags.timeout, reconnectAttempts: 0 },
  })
  try {
    progress(`reading the server card at ${flags.card} …`)
    const card = await host.invoke('cards.read', { url: flags.card }).catch((error: Error) => {
      throw new CliError(error.message, 'connection')
    })
    const endpoint = targetText ?? (cardEndpoint(card) && `mcp:${cardEndpoint(card)}`)
    if (!endpoint)
      throw new UsageError(`the card at ${card.url} names no streamable-http or sse remote: give the target to check it against`)
    const target = withAuthFlags(await resolveTarget(endpoint, flags.config), flags)
    progress(`connecting to ${target.name} …`)
    const connectionId = await connectOrExplain(host, target)
    const drift = await host.invoke('cards.drift', { connectionId, url: card.url })
    if (flags.json) printJson({ format: CARD_FORMAT, target: target.name, ...drift })
    else process.stdout.write(visibleText(formatDrift(drift, target.name)))
    return drift.drift ? 1 : 0
  } finally {
    await host.close()
  }
}

function describeCard(card: ServerCardRead): string[] {
  const lines = [
    `${card.kind === 'server.json' ? 'server.json' : 'server card'} ${card.url} (${DRAFT})`,
    `  ${card.name ?? '(no name)'} ${card.version ?? '(no version)'}${card.title ? ` — ${card.title}` : ''}`,
  ]
  for (const remote of card.remotes) lines.push(`  remote ${remote.type} ${remote.url}`)
  for (const pkg of card.packages) lines.push(`  package ${pkg} (run locally: not checked)`)
  for (const problem of card.problems) lines.push(`  ! ${problem}`)
  return lines
}

const show = (value: unknown) => (value === undefined ? '—' : JSON.stringify(value))

export function formatDrift(drift: CardDrift, targetName: string): string {
  const lines = [...describeCard(drift.card), `against ${targetName}:`]
  for (const claim of drift.claims)
    lines.push(`  ${claim.field.padEnd(28)} ${claim.state.padEnd(15)} card ${show(claim.card)}  server ${show(claim.server)}`)
  for (const row of drift.primitives) {
    const changes = row.changes?.map((c) => `${c.path}: ${c.detail}`).join('; ')
    lines.push(
      `  ${`${row.kind} ${row.name}`.padEnd(28)} ${row.state.padEnd(15)}${row.dynamic && row.state !== 'same' ? ' (a dynamic list: listChanged)' : ''}${changes ? ` ${changes}` : ''}`,
    )
  }
  if (drift.claims.length + drift.primitives.length === 0) lines.push('  the card claims nothing to check')
  const differences = drift.claims.filter((c) => c.state !== 'same').length + drift.primitives.filter((p) => p.state !== 'same').length
  lines.push(
    drift.drift
      ? `drift: the server differs from its card (${differences} difference(s)${drift.card.problems.length ? `, ${drift.card.problems.length} problem(s) in the card` : ''})`
      : 'no drift: the server answers as its card claims',
  )
  return `${lines.join('\n')}\n`
}
