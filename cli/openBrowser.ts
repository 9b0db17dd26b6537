import { spawn } from 'node:child_process'
import { openableUrl } from '../shared/contract'

/** Whether this looks like a desktop, where a browser can open (a terminal over SSH usually is not). */
export function onDesktop(): boolean {
  if (process.platform === 'darwin' || process.platform === 'win32') return true
  return !!(process.env.DISPLAY || process.env.WAYLAND_DISPLAY)
}

/**
 * Opens a URL in the system browser (open, xdg-open, or Windows' URL handler), detached: only an https URL
 * (or http to this machine), handed over as one argument with no shell in between. Rejects one it refuses.
 */
export function openSystemBrowser(url: string): Promise<void> {
  const checked = openableUrl(url)
  if ('refused' in checked) return Promise.reject(new Error(`not opened: ${checked.refused}`))
  const { href } = checked
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [href]]
      : process.platform === 'win32'
        ? // `cmd /c start` would read & | ^ in the URL as commands (CVE-2025-6514); the URL handler reads none.
          ['rundll32.exe', ['url.dll,FileProtocolHandler', href]]
        : ['xdg-open', [href]]
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true, shell: false, windowsHide: true })
    child.on('error', () => resolve())
    child.on('spawn', () => {
      child.unref()
      resolve()
    })
  })
}
