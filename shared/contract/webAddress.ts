// Where Parallax may send a person or a secret: https anywhere, plain http only to this machine. One rule
// for every URL handed to a browser (a sign-in page, a link an agent offers) and for every authorization
// server endpoint that is sent codes or tokens, so that no opener and no sign-in judges a URL on its own.

/** Characters a URL never holds unencoded (RFC 3986): blanks, controls, and what a shell or an opener reads. */
const NEVER_RAW = /[\s"<>`{}|\\^\u0000-\u001f\u007f]/

/** A host name that can only be this machine: localhost, 127.0.0.0/8, [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1')
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host)
}

/**
 * Why `url` must not be opened in a browser or sent a secret, or undefined when it may: only `https:`, or
 * `http:` to this machine (nothing then crosses a network in clear), with no user name before the host
 * (which hides where it goes) and nothing a real URL would have encoded.
 */
export function unsafeWebUrl(url: string): string | undefined {
  const raw = NEVER_RAW.exec(url)
  if (raw) return `it holds ${describeChar(raw[0])}, which a URL never carries unencoded (a shell or an opener would act on it)`
  if (!URL.canParse(url)) return 'it is not a URL'
  const parsed = new URL(url)
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return `its scheme is ${parsed.protocol} (only https:, or http: to this machine)`
  if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname))
    return `it is plain http: to ${parsed.host}, which is not this machine, so what goes there would cross the network in clear (only https:, or http: to localhost, 127.0.0.1 or [::1])`
  if (parsed.username || parsed.password) return 'it names a user before its host, which hides where it really goes'
  return undefined
}

/** The URL as a browser may be handed it (parsed and written out again: one argument, nothing for a shell), or why not. */
export function openableUrl(url: string): { href: string } | { refused: string } {
  const why = unsafeWebUrl(url)
  return why ? { refused: why } : { href: new URL(url).href }
}

function describeChar(char: string): string {
  if (char === ' ') return 'a space'
  if (/\s|[\u0000-\u001f\u007f]/.test(char))
    return `a control character (U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')})`
  return `"${char}"`
}
