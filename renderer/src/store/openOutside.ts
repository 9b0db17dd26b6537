import { openableUrl } from '../../../shared/contract'

/**
 * Opens a URL in a new browser window without telling it where it came from (the desktop app hands it to the
 * system browser), only as the one rule allows: https, or http to this machine. Returns why not, else undefined.
 */
export function openOutside(url: string): string | undefined {
  const checked = openableUrl(url)
  if ('refused' in checked) return `not opened: ${checked.refused}`
  window.open(checked.href, '_blank', 'noopener,noreferrer')
  return undefined
}

/** Why a URL will not open (for a disabled button's title), or undefined when it will. */
export function unopenable(url: string): string | undefined {
  const checked = openableUrl(url)
  return 'refused' in checked ? `not opened: ${checked.refused}` : undefined
}
