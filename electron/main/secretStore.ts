import { app, safeStorage } from 'electron'
import { join } from 'node:path'
import { FileSecretStore, type SecretStore } from '../../shared/auth/secretStore'

/**
 * The desktop app's secret store: tokens and client secrets encrypted with the OS keychain (Keychain,
 * DPAPI, libsecret or KWallet, through Electron's safeStorage); where none is available, the 0600 file
 * every other host uses. safeStorage answers only once the app is ready, so the choice is made at first use.
 */
export class KeychainSecretStore implements SecretStore {
  private chosen: FileSecretStore | undefined

  constructor(private readonly dataDir: string) {}

  private store(): FileSecretStore {
    if (this.chosen) return this.chosen
    const keychain = app.isReady() && safeStorage.isEncryptionAvailable()
    const store = keychain
      ? new FileSecretStore(join(this.dataDir, 'secrets.keychain'), {
          encrypt: (text) => safeStorage.encryptString(text),
          decrypt: (data) => safeStorage.decryptString(data),
        })
      : new FileSecretStore(join(this.dataDir, 'secrets.json'))
    if (app.isReady()) this.chosen = store
    return store
  }

  get kind(): SecretStore['kind'] {
    return this.store().kind
  }

  get(key: string): Promise<string | undefined> {
    return this.store().get(key)
  }

  set(key: string, value: string | undefined): Promise<void> {
    return this.store().set(key, value)
  }
}
