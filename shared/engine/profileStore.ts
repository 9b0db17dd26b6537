import { JsonListFile } from './jsonListFile'
import { ClientProfile, CommandError, parseProfile, PRESET_PROFILES } from '../contract'

/** Client profiles: the presets (read-only) and the user's own, persisted next to the targets. */
export class ProfileStore {
  private readonly user = new Map<string, ClientProfile>()
  private loaded: Promise<void> | undefined

  private readonly persisted: JsonListFile<ClientProfile>

  constructor(file?: string) {
    this.persisted = new JsonListFile(file, (entry) => {
      const profile = ClientProfile.safeParse(entry)
      return profile.success ? profile.data : undefined
    })
  }

  private load(): Promise<void> {
    this.loaded ??= this.persisted.read().then((profiles) => {
      for (const profile of profiles) this.user.set(profile.name, profile)
    })
    return this.loaded
  }

  async list(): Promise<(ClientProfile & { preset: boolean })[]> {
    await this.load()
    return [...PRESET_PROFILES.map((p) => ({ ...p, preset: true })), ...[...this.user.values()].map((p) => ({ ...p, preset: false }))]
  }

  /** A profile by name, or an inline profile object; either way validated before anything is sent. */
  async resolve(profile: string | unknown | undefined): Promise<ClientProfile | undefined> {
    if (profile === undefined) return undefined
    if (typeof profile !== 'string') return this.parse(profile)
    await this.load()
    const found = PRESET_PROFILES.find((p) => p.name === profile) ?? this.user.get(profile)
    if (!found)
      throw new CommandError(
        `no client profile named "${profile}" (there are: ${(await this.list()).map((p) => p.name).join(', ')})`,
        'not-found',
      )
    return found
  }

  async save(input: unknown): Promise<ClientProfile> {
    await this.load()
    const profile = this.parse(input)
    if (PRESET_PROFILES.some((p) => p.name === profile.name))
      throw new CommandError(`"${profile.name}" is a preset; save under another name`, 'invalid-input')
    this.user.set(profile.name, profile)
    await this.persist()
    return profile
  }

  async remove(name: string): Promise<boolean> {
    await this.load()
    const removed = this.user.delete(name)
    if (removed) await this.persist()
    return removed
  }

  private parse(input: unknown): ClientProfile {
    try {
      return parseProfile(input)
    } catch (error) {
      throw new CommandError((error as Error).message, 'invalid-input')
    }
  }

  private persist(): Promise<void> {
    return this.persisted.write([...this.user.values()])
  }
}
