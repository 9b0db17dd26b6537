import { spawn } from 'node:child_process'

/** Whether this looks like a desktop, where a browser can open (a terminal over SSH usually is not). */
export function onDesktop(): boolean {
  if (process.platform === 'darwin' || process.platform === 'win32') return true
  return !!(process.env.DISPLAY || process.env.WAYLAND_DISPLAY)
}

/** Opens a URL in the system browser (xdg-open, open, start), detached; the URL is said on stderr too, in case it does not. */
export function openSystemBrowser(url: string): Promise<void> {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]]
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true })
    child.on('error', () => resolve())
    child.on('spawn', () => {
      child.unref()
      resolve()
    })
  })
}
