import { createHash } from 'node:crypto'
import { CommandError, redactArgs, redactMap, type ApprovalRecord, type ApprovalRequest, type TargetSpec } from '../contract'
import { JsonListFile } from './jsonListFile'

/** A command Parallax runs: an MCP stdio server, or an ACP agent with the workspace folder its files and terminals are confined to. */
type StdioSpec = Extract<TargetSpec, { kind: 'mcp-stdio' }> & { workspace?: string }

/** A host's answer on its user's behalf: approve for good, for this run only, or not. */
export type Approver = (request: ApprovalRequest) => Promise<'always' | 'once' | 'no'>

/** What is kept of an approval: never a secret, only enough to say later what changed. */
interface StoredApproval extends ApprovalRecord {
  /** For commands: the command line and, per environment variable, a hash of its value. */
  command?: { command: string; args: string[]; env: Record<string, string>; cwd?: string; workspace?: string }
  hooks?: { path: string; sha256: string }
}

/**
 * The approvals the user has granted, persisted (0600) in the data folder so a command approved once
 * is not asked about again — until anything about it changes. The engine asks before it spawns a
 * command, loads a hooks module or sends anything to an origin the user did not configure; a refusal
 * carries an ApprovalRequest that every host turns into a confirmation, and `grant` approves exactly
 * what was refused.
 */
export class ApprovalStore {
  private readonly granted = new Map<string, StoredApproval>()
  /** Requests refused and not yet granted, by fingerprint: only these can be granted. */
  private readonly pending = new Map<string, { request: ApprovalRequest; stored: StoredApproval }>()
  private loaded: Promise<void> | undefined

  private readonly persisted: JsonListFile<StoredApproval>

  constructor(
    file?: string,
    /** A host that can ask its user on the spot (a terminal) answers here; UI hosts get the refusal instead. */
    private readonly approver?: Approver,
  ) {
    this.persisted = new JsonListFile(file, (entry) =>
      typeof (entry as StoredApproval | null)?.fingerprint === 'string' ? (entry as StoredApproval) : undefined,
    )
  }

  /** An unreadable file approves nothing: everything is asked again, which is safe. */
  private load(): Promise<void> {
    this.loaded ??= this.persisted.read().then((records) => {
      for (const record of records) this.granted.set(record.fingerprint, record)
    })
    return this.loaded
  }

  async list(): Promise<ApprovalRecord[]> {
    await this.load()
    return [...this.granted.values()].map(({ kind, fingerprint, subject, title, approvedAt }) => ({
      kind,
      fingerprint,
      subject,
      title,
      approvedAt,
    }))
  }

  /** Throws `approval-required` unless this exact command was approved. */
  async requireCommand(spec: StdioSpec, target: { id: string; name: string }): Promise<void> {
    const stored: StoredApproval = {
      kind: 'command',
      // An ACP agent's workspace is part of what is approved (it is what the agent may touch); without one, fingerprints are as ever.
      fingerprint: digest([
        'command',
        spec.command,
        spec.args,
        sortedEntries(spec.env),
        spec.cwd ?? null,
        ...(spec.workspace ? [spec.workspace] : []),
      ]),
      subject: `command:${target.id}`,
      title: spec.workspace ? `Run the agent of "${target.name}" with files in ${spec.workspace}?` : `Run the command of "${target.name}"?`,
      approvedAt: 0,
      // Kept to say later what changed, so secrets are not: flag values redacted, environment values hashed.
      command: {
        command: spec.command,
        args: redactArgs(spec.args),
        env: Object.fromEntries(sortedEntries(spec.env).map(([k, v]) => [k, digest(v).slice(0, 16)])),
        cwd: spec.cwd,
        ...(spec.workspace && { workspace: spec.workspace }),
      },
    }
    await this.require(stored, {
      targetId: target.id,
      targetName: target.name,
      command: {
        command: spec.command,
        args: spec.args,
        env: redactMap(spec.env),
        ...(spec.cwd && { cwd: spec.cwd }),
        ...(spec.workspace && { workspace: spec.workspace }),
      },
    })
  }

  /** Throws `approval-required` unless a hooks module (or a responder module: code run the same way) with exactly this content was approved. */
  async requireHooks(path: string, content: string, title = 'Run this hooks module inside Parallax?'): Promise<void> {
    const sha256 = createHash('sha256').update(content).digest('hex')
    const stored: StoredApproval = {
      kind: 'hooks',
      fingerprint: digest(['hooks', path, sha256]),
      subject: `hooks:${path}`,
      title,
      approvedAt: 0,
      hooks: { path, sha256 },
    }
    await this.require(stored, { hooks: { path, sha256 } })
  }

  /** Throws `approval-required` unless the user allowed this target to talk to `requested` (an origin other than the one configured). */
  async requireOrigin(target: { id: string; name: string }, configured: string, requested: string, via: string): Promise<void> {
    const stored: StoredApproval = {
      kind: 'origin',
      fingerprint: digest(['origin', target.id, configured, requested]),
      subject: `origin:${target.id}:${requested}`,
      title: `Let "${target.name}" send your requests to ${requested}?`,
      approvedAt: 0,
    }
    await this.require(stored, { targetId: target.id, targetName: target.name, origin: { configured, requested, via } })
  }

  async isOriginAllowed(targetId: string, configured: string, requested: string): Promise<boolean> {
    await this.load()
    return this.granted.has(digest(['origin', targetId, configured, requested]))
  }

  /** Approves what a refusal asked about; only a pending request can be granted. */
  async grant(fingerprint: string, options: { persist?: boolean } = {}): Promise<ApprovalRecord> {
    await this.load()
    const pending = this.pending.get(fingerprint)
    if (!pending) {
      const already = this.granted.get(fingerprint)
      if (already) return already
      throw new CommandError('nothing is waiting for this approval (it may have changed since it was asked: try again)', 'not-found')
    }
    this.pending.delete(fingerprint)
    // One approval per subject: the latest version is what the user agreed to.
    for (const [key, record] of this.granted) if (record.subject === pending.stored.subject) this.granted.delete(key)
    const record = { ...pending.stored, approvedAt: Date.now(), ...(options.persist === false && { transient: true }) }
    this.granted.set(fingerprint, record)
    await this.persist()
    const { kind, subject, title, approvedAt } = record
    return { kind, fingerprint, subject, title, approvedAt }
  }

  async revoke(fingerprint: string): Promise<boolean> {
    await this.load()
    const removed = this.granted.delete(fingerprint)
    if (removed) await this.persist()
    return removed
  }

  private async require(stored: StoredApproval, shown: Partial<ApprovalRequest>): Promise<void> {
    await this.load()
    if (this.granted.has(stored.fingerprint)) return
    const previous = [...this.granted.values()].find((r) => r.subject === stored.subject)
    const request: ApprovalRequest = {
      kind: stored.kind,
      fingerprint: stored.fingerprint,
      subject: stored.subject,
      title: stored.title,
      ...shown,
      ...(previous && { changes: changesSince(previous, stored), previouslyApprovedAt: previous.approvedAt }),
    }
    this.pending.set(stored.fingerprint, { request, stored })
    const answer = (await this.approver?.(request)) ?? 'no'
    if (answer !== 'no') {
      await this.grant(stored.fingerprint, { persist: answer === 'always' })
      return
    }
    throw new CommandError(`${stored.title.replace(/\?$/, '')}: needs your approval first`, 'approval-required', { approval: request })
  }

  private persist(): Promise<void> {
    return this.persisted.write([...this.granted.values()].filter((r) => !(r as { transient?: boolean }).transient))
  }
}

/** What differs between an earlier approval of a subject and what is asked now, in words. */
function changesSince(before: StoredApproval, now: StoredApproval): string[] {
  const changes: string[] = []
  if (before.command && now.command) {
    const [a, b] = [before.command, now.command]
    if (a.command !== b.command) changes.push(`command: ${a.command} → ${b.command}`)
    if (JSON.stringify(a.args) !== JSON.stringify(b.args)) changes.push(...argumentChanges(a.args, b.args))
    for (const name of new Set([...Object.keys(a.env), ...Object.keys(b.env)])) {
      if (!(name in a.env)) changes.push(`environment: ${name} added`)
      else if (!(name in b.env)) changes.push(`environment: ${name} removed`)
      else if (a.env[name] !== b.env[name]) changes.push(`environment: ${name} changed`)
    }
    if ((a.cwd ?? '') !== (b.cwd ?? '')) changes.push(`working directory: ${a.cwd ?? '(default)'} → ${b.cwd ?? '(default)'}`)
    if ((a.workspace ?? '') !== (b.workspace ?? ''))
      changes.push(`workspace: ${a.workspace ?? '(none: no files)'} → ${b.workspace ?? '(none: no files)'}`)
  }
  if (before.hooks && now.hooks && before.hooks.sha256 !== now.hooks.sha256) {
    changes.push(`content changed: sha256 ${before.hooks.sha256.slice(0, 12)}… → ${now.hooks.sha256.slice(0, 12)}…`)
  }
  return changes
}

/** Arguments added and removed (as a multiset), or the order if only that changed. */
function argumentChanges(before: string[], after: string[]): string[] {
  const left = [...before]
  const added: string[] = []
  for (const arg of after) {
    const i = left.indexOf(arg)
    if (i === -1) added.push(arg)
    else left.splice(i, 1)
  }
  const quoted = (args: string[]) => args.map((arg) => JSON.stringify(arg)).join(' ')
  const changes = [
    ...(added.length ? [`arguments added: ${quoted(added)}`] : []),
    ...(left.length ? [`arguments removed: ${quoted(left)}`] : []),
  ]
  return changes.length ? changes : [`arguments reordered: ${quoted(after)}`]
}

function sortedEntries(map: Record<string, string>): [string, string][] {
  return Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
}

function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex')
}
