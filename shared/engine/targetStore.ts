import { randomUUID } from 'node:crypto'
import { JsonListFile } from './jsonListFile'
import { CommandError, SavedTarget, TargetDraft, type ImportEntry, type ImportResult } from '../contract'
import { parseTargetsConfig } from './configFile'

/**
 * Saved targets: the built-in demos (read-only) plus the user's own, persisted as JSON in the data
 * folder. Without a data folder (the CLI, tests) the user's targets live in memory only.
 */
export class TargetStore {
  private readonly user = new Map<string, SavedTarget>()
  private loaded: Promise<void> | undefined

  private readonly persisted: JsonListFile<SavedTarget>

  constructor(
    private readonly demos: SavedTarget[],
    file?: string,
    /** Where a target's OAuth client secret goes instead of the targets file (the secret store). */
    private readonly keepSecret?: (target: SavedTarget, secret: string) => Promise<void>,
  ) {
    this.persisted = new JsonListFile(file, (entry) => {
      const target = SavedTarget.safeParse(entry)
      return target.success && target.data.origin !== 'demo' ? target.data : undefined
    })
  }

  private load(): Promise<void> {
    this.loaded ??= this.persisted.read().then((targets) => {
      for (const target of targets) this.user.set(target.id, target)
    })
    return this.loaded
  }

  async list(): Promise<SavedTarget[]> {
    await this.load()
    return [...this.demos, ...this.user.values()]
  }

  async get(id: string): Promise<SavedTarget | undefined> {
    await this.load()
    return this.demos.find((t) => t.id === id) ?? this.user.get(id)
  }

  async save(draft: TargetDraft, origin: SavedTarget['origin'] = 'user'): Promise<SavedTarget> {
    await this.load()
    const parsed = TargetDraft.parse(draft)
    if (parsed.id && this.demos.some((t) => t.id === parsed.id)) throw new CommandError('demo targets cannot be changed', 'invalid-input')
    const existing = parsed.id ? this.user.get(parsed.id) : undefined
    let target: SavedTarget = { ...parsed, id: parsed.id ?? `t_${randomUUID().slice(0, 8)}`, origin: existing?.origin ?? origin }
    const { spec } = target
    const secret = spec.kind === 'mcp-stdio' || spec.kind === 'acp' ? undefined : spec.oauth?.clientSecret
    if (secret && spec.kind !== 'mcp-stdio' && spec.kind !== 'acp' && this.keepSecret) {
      // The secret goes to the secret store first, so the targets file never holds it.
      await this.keepSecret(target, secret)
      target = { ...target, spec: { ...spec, oauth: { ...spec.oauth, clientSecret: undefined } } }
    }
    this.user.set(target.id, target)
    await this.persist()
    return target
  }

  async remove(id: string): Promise<boolean> {
    await this.load()
    const removed = this.user.delete(id)
    if (removed) await this.persist()
    return removed
  }

  /**
   * Adds the valid entries of an `mcpServers` config (those in `only`, when given, by id); entries that
   * are not valid are reported, not lost silently.
   */
  async import(text: string, fileName?: string, only?: string[]): Promise<ImportResult> {
    const { drafts, errors } = parseTargetsConfig(text, fileName)
    const wanted = only && new Set(only)
    const imported: SavedTarget[] = []
    for (const draft of drafts) if (!wanted || wanted.has(draft.id!)) imported.push(await this.save(draft, 'import'))
    return { imported, errors }
  }

  /** What `import` would add, entry by entry, and which saved target each would replace; nothing is saved. */
  async previewImport(text: string, fileName?: string): Promise<{ entries: ImportEntry[]; errors: string[] }> {
    await this.load()
    const { drafts, errors } = parseTargetsConfig(text, fileName)
    const entries = drafts.map((draft): ImportEntry => {
      const spec = TargetDraft.parse(draft).spec
      const existing = this.user.get(draft.id!)
      return {
        id: draft.id!,
        name: draft.name,
        section: spec.kind === 'a2a' ? 'a2aAgents' : spec.kind === 'acp' ? 'acpAgents' : 'mcpServers',
        spec,
        ...(existing && { replaces: existing.name }),
      }
    })
    return { entries, errors }
  }

  private persist(): Promise<void> {
    return this.persisted.write([...this.user.values()])
  }
}
