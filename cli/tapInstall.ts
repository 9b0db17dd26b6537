import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { applyEdits } from 'jsonc-parser'
import { visibleText } from '../shared/contract'
import { errorMessage } from '../shared/runtime/errors'
import { CliError, errorObject, errorText, printJson } from './failure'
import { backupTexts, keepBackup, readConfigText, replaceConfigText, unwritable } from './hostConfigs/configFiles'
import { ConfigSyntaxError, configEntries, parseConfig, type ConfigEntry } from './hostConfigs/configText'
import type { HostDefinition, Place } from './hostConfigs/host'
import { HOSTS, hostNamed } from './hostConfigs/hosts'
import { argsAbsentBefore } from './hostConfigs/installHistory'
import { parallaxLauncher } from './hostConfigs/launcher'
import { lineDiff, type DiffLine } from './hostConfigs/lineDiff'
import { planUnwrap, planWrap, type EntryPlan, type Launch } from './hostConfigs/tapEdits'
import { UsageError } from './usage'
import { dataDir } from './web'

export const TAP_INSTALL_FORMAT = 'parallax.tap-install/1'

/** One entry of the file, as the --json object lists it. */
interface EntryReport {
  name: string
  /** Where the entry is, e.g. `mcpServers` or `projects["/home/me/app"].mcpServers`. */
  section: string
  status: 'wrapped' | 'unwrapped' | 'left'
  why?: string
  /** How the host starts it, before and after (null for an entry with no command). */
  before: Launch | null
  after: Launch | null
}

interface Outcome {
  host: HostDefinition
  file: string
  action: 'install' | 'uninstall'
  /** Whether --write was given, and whether the file was written (not when nothing changed). */
  write: boolean
  written: boolean
  backup?: string
  missing?: boolean
  entries: { report: EntryReport; diff: DiffLine[] }[]
}

/**
 * `parallax tap install --host NAME [--write] [--config FILE] [--server NAME …] [--json]`: makes the stdio servers
 * (and Zed's ACP agents) of a host's config start through `parallax tap`, so Parallax records them as the host
 * uses them. `parallax tap uninstall …` puts them back. A dry run by default; with --write the file is kept in
 * the data folder first, then edited in place, nothing but the tapped entries' command and args changing.
 */
export async function tapInstall(argv: string[], action: 'install' | 'uninstall'): Promise<number> {
  try {
    const outcome = await run(argv, action)
    if (argv.includes('--json')) printJson(jsonOf(outcome))
    else process.stdout.write(visibleText(textOf(outcome)))
    return 0
  } catch (error) {
    const failure = errorObject(error)
    process.stderr.write(errorText(`tap ${action}`, failure))
    if (argv.includes('--json')) printJson({ format: TAP_INSTALL_FORMAT, action, error: failure })
    return 2
  }
}

async function run(argv: string[], action: 'install' | 'uninstall'): Promise<Outcome> {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: 'string' },
      write: { type: 'boolean', default: false },
      config: { type: 'string' },
      server: { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
    },
  })
  const known = HOSTS.map((h) => h.name).join(', ')
  if (!values.host) throw new UsageError(`tap ${action} needs --host NAME: one of ${known}`)
  const host = hostNamed(values.host)
  if (!host) throw new UsageError(`unknown host "${values.host}": Parallax knows ${known}`)
  const file = values.config ? resolve(values.config) : host.userFile(place())

  let text: string
  try {
    text = await readConfigText(file)
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT'
    if (missing && !values.config) return { host, file, action, write: values.write, written: false, missing: true, entries: [] }
    throw new UsageError(missing ? `${file} does not exist` : `cannot read ${file}: ${errorMessage(error)}`)
  }
  let entries: ConfigEntry[]
  try {
    entries = configEntries(parseConfig(text), host.sections)
  } catch (error) {
    if (error instanceof ConfigSyntaxError) throw new UsageError(`${file}:${error.message}: nothing written`)
    throw error
  }
  if (values.server?.length) {
    const unknown = values.server.filter((name) => !entries.some((entry) => entry.name === name))
    if (unknown.length)
      throw new UsageError(`no entry named ${unknown.map((n) => `"${n}"`).join(', ')} in ${file} (it has ${names(entries)})`)
    entries = entries.filter((entry) => values.server!.includes(entry.name))
  }

  const plans = await planAll(text, entries, host, file, action)
  const edits = plans.flatMap(({ plan }) => (plan.change === 'none' ? [] : plan.edits))
  const outcome: Outcome = {
    host,
    file,
    action,
    write: values.write,
    written: false,
    entries: plans.map(({ entry, plan }) => ({
      report: reportOf(entry, plan),
      diff: plan.change === 'none' ? [] : lineDiff(text, applyEdits(text, plan.edits)),
    })),
  }
  if (!values.write || edits.length === 0) return outcome
  const refused = await unwritable(file)
  if (refused) throw new UsageError(`${refused}: nothing written`)
  outcome.backup = await keepBackup(dataDir(), host.name, file, text).catch((error: unknown) => {
    throw new CliError(`cannot keep a backup in ${dataDir()}: ${errorMessage(error)}: nothing written`, 'failed')
  })
  await replaceConfigText(file, text, applyEdits(text, edits)).catch((error: unknown) => {
    throw new CliError(`${errorMessage(error)} (the file as it was is kept in ${outcome.backup})`, 'failed')
  })
  outcome.written = true
  return outcome
}

async function planAll(text: string, entries: ConfigEntry[], host: HostDefinition, file: string, action: 'install' | 'uninstall') {
  if (action === 'install') {
    const launcher = parallaxLauncher()
    return entries.map((entry) => ({ entry, plan: planWrap(text, entry, launcher) }))
  }
  const argsWereAbsent = argsAbsentBefore(await backupTexts(dataDir(), host.name, file), host.sections)
  return entries.map((entry) => ({ entry, plan: planUnwrap(text, entry, argsWereAbsent) }))
}

function place(): Place {
  return { platform: process.platform, env: process.env, home: homedir(), cwd: process.cwd() }
}

function reportOf(entry: ConfigEntry, plan: EntryPlan): EntryReport {
  const where = { name: entry.name, section: sectionOf(entry) }
  if (plan.change === 'none') return { ...where, status: 'left', why: plan.why, before: plan.launch, after: plan.launch }
  return { ...where, status: plan.change === 'wrap' ? 'wrapped' : 'unwrapped', before: plan.before, after: plan.after }
}

/** The entry's section as a path people read: `mcpServers`, `projects["/home/me/app"].mcpServers`. */
function sectionOf(entry: ConfigEntry): string {
  return entry.path
    .slice(0, -1)
    .map((part, i) => (/^[A-Za-z_$][\w$]*$/.test(part) ? `${i ? '.' : ''}${part}` : `[${JSON.stringify(part)}]`))
    .join('')
}

function names(entries: ConfigEntry[]): string {
  return entries.length ? [...new Set(entries.map((e) => e.name))].join(', ') : 'no entries'
}

function jsonOf(outcome: Outcome) {
  return {
    format: TAP_INSTALL_FORMAT,
    host: outcome.host.name,
    file: outcome.file,
    action: outcome.action,
    written: outcome.written,
    ...(outcome.backup && { backup: outcome.backup }),
    ...(outcome.missing && { missing: true }),
    entries: outcome.entries.map((e) => e.report),
  }
}

function textOf(outcome: Outcome): string {
  const { host, file, action, write } = outcome
  const project = host.projectFile?.(place())
  const also =
    project && project !== file && existsSync(project)
      ? [`this project has its own: parallax tap ${action} --host ${host.name} --config ${project}`]
      : []
  if (outcome.missing) return [`${host.label} has no config at ${file}: nothing to do`, ...also, ''].join('\n')
  const lines = [`${host.label}: ${file}`]
  if (outcome.entries.length === 0) lines.push(`  no servers in it (${host.sections.map((s) => s.path.join('.')).join(', ')})`)
  for (const { report, diff } of outcome.entries) {
    lines.push(`  ${report.name} (${report.section}): ${report.status}${report.why ? `: ${report.why}` : ''}`)
    const width = String(Math.max(0, ...diff.map((d) => d.line))).length
    for (const d of diff) lines.push(`    ${d.sign} ${String(d.line).padStart(width)} | ${d.text}`)
  }
  const changes = outcome.entries.filter((e) => e.report.status !== 'left').length
  const how = action === 'install' ? 'through Parallax' : 'directly again'
  if (changes === 0) lines.push(`nothing to change`)
  else if (!write) lines.push(`nothing written: add --write (the file is kept in Parallax's data folder first)`)
  else lines.push(`written; the file as it was is kept in ${outcome.backup}`, `restart ${host.label} so it starts them ${how}`)
  return `${[...lines, ...also].join('\n')}\n`
}
