import { readFile } from 'node:fs/promises'
import { writePrivateFile } from '../runtime/privateFiles'

/**
 * Where authorization secrets live (tokens, client secrets, registrations), one value per key (a target).
 * Never in targets, recordings, exports or events: only here.
 */
export interface SecretStore {
  /** `keychain` when an OS keychain encrypts it, `file` for a 0600 file, `memory` when nothing persists. */
  readonly kind: 'keychain' | 'file' | 'memory'
  get(key: string): Promise<string | undefined>
  /** `undefined` removes the key. */
  set(key: string, value: string | undefined): Promise<void>
}

/**
 * Encrypts the store's file with the OS keychain (the desktop app hands Electron's safeStorage in):
 * the file is then unreadable without the user's login.
 */
export interface SecretCipher {
  encrypt(text: string): Buffer | Promise<Buffer>
  decrypt(data: Buffer): string | Promise<string>
}

export class MemorySecretStore implements SecretStore {
  readonly kind = 'memory'
  private readonly values = new Map<string, string>()

  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.values.get(key))
  }

  set(key: string, value: string | undefined): Promise<void> {
    if (value === undefined) this.values.delete(key)
    else this.values.set(key, value)
    return Promise.resolve()
  }
}

/** All secrets in one private file (0600, in the 0700 data folder), encrypted when a cipher is given; writes go one at a time. */
export class FileSecretStore implements SecretStore {
  readonly kind: 'keychain' | 'file'
  private queue: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly path: string,
    private readonly cipher?: SecretCipher,
  ) {
    this.kind = cipher ? 'keychain' : 'file'
  }

  async get(key: string): Promise<string | undefined> {
    await this.queue.catch(() => {})
    return (await this.readAll())[key]
  }

  set(key: string, value: string | undefined): Promise<void> {
    const write = this.queue.then(async () => {
      const all = await this.readAll()
      if (value === undefined) delete all[key]
      else all[key] = value
      const text = JSON.stringify(all)
      await writePrivateFile(this.path, this.cipher ? (await this.cipher.encrypt(text)).toString('base64') : text)
    })
    this.queue = write.catch(() => {})
    return write
  }

  private async readAll(): Promise<Record<string, string>> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
      throw error
    }
    if (this.cipher) text = await this.cipher.decrypt(Buffer.from(text, 'base64'))
    const all = JSON.parse(text) as unknown
    return all && typeof all === 'object' && !Array.isArray(all) ? (all as Record<string, string>) : {}
  }
}
