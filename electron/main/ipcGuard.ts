import { CommandError } from '../../shared/contract'

/**
 * The main process's check on every IPC call, kept free of Electron so it is unit-tested everywhere:
 * the sender must be the app's own top-level page. Which command it asks for, and its input, the engine
 * checks (Engine.execute), as it does for every host.
 */
export function guardSender(sender: { url: string; isMainFrame: boolean }, appUrl: string): void {
  if (!sender.isMainFrame) throw new CommandError('IPC refused: sender is not the main frame', 'invalid-input')
  if (!isAppUrl(sender.url, appUrl)) throw new CommandError(`IPC refused: sender ${sender.url} is not the Parallax UI`, 'invalid-input')
}

/** The app's page is `appUrl` itself (file:// index.html, or the dev server's origin). */
export function isAppUrl(url: string, appUrl: string): boolean {
  try {
    const a = new URL(url)
    const b = new URL(appUrl)
    return a.protocol === 'file:' ? a.protocol === b.protocol && a.pathname === b.pathname : a.origin === b.origin
  } catch {
    return false
  }
}
