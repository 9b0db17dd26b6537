import { CommandError, isCommandName, parseCommandInput, type CommandName } from '../../shared/contract'

/**
 * The main process's check on every IPC call, kept free of Electron so it is unit-tested everywhere:
 * the sender must be the app's own top-level page, the command must exist, and its input must match
 * the contract's schema.
 */
export function guardInvoke(
  sender: { url: string; isMainFrame: boolean },
  appUrl: string,
  command: unknown,
  input: unknown,
): { command: CommandName; input: unknown } {
  if (!sender.isMainFrame) throw new CommandError('IPC refused: sender is not the main frame', 'invalid-input')
  if (!isAppUrl(sender.url, appUrl)) throw new CommandError(`IPC refused: sender ${sender.url} is not the Parallax UI`, 'invalid-input')
  if (!isCommandName(command)) throw new CommandError(`unknown command ${JSON.stringify(command)}`, 'unknown-command')
  return { command, input: parseCommandInput(command, input) }
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
