import { safeStorage } from 'electron'
import { join } from 'node:path'
import { FileSecretStore } from '../../shared/auth/secretStore'

/**
 * The desktop app's secret store: tokens and client secrets encrypted with the OS keychain (Keychain,
 * DPAPI, libsecret or KWallet, through Electron's safeStorage); where none is available, the 0600 file
 * every other host uses. Hand it to the engine as `secrets`.
 */
export function keychainSecretStore(dataDir: string): FileSecretStore {
  if (!safeStorage.isEncryptionAvailable()) return new FileSecretStore(join(dataDir, 'secrets.json'))
  return new FileSecretStore(join(dataDir, 'secrets.keychain'), {
    encrypt: (text) => safeStorage.encryptString(text),
    decrypt: (data) => safeStorage.decryptString(data),
  })
}
