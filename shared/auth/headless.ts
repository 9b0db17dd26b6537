const MAX_HOPS = 10

/**
 * Follows an authorization URL as a browser would, for servers that approve without a person: each hop
 * through `fetch` (which says it as a step), until the redirect reaches `redirectUri` (the loopback
 * listener, which checks the state). A page instead of a redirect means a person is needed.
 */
export async function followAuthorization(authorizationUrl: string, redirectUri: string, fetch: typeof globalThis.fetch): Promise<void> {
  let url = authorizationUrl
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const response = await fetch(url, { redirect: 'manual' })
    await response.body?.cancel().catch(() => {})
    if (url.startsWith(`${redirectUri}?`) || url === redirectUri) return
    const location = response.headers.get('location')
    if (response.status < 300 || response.status >= 400 || !location)
      throw new Error(
        `the authorization server answered ${url.split('?')[0]} with HTTP ${response.status}${location ? '' : ' and no redirect'}: it wants a person (a login or consent page), so headless sign-in cannot go on; sign in with a browser`,
      )
    url = new URL(location, url).href
  }
  throw new Error(`more than ${MAX_HOPS} redirects without reaching ${redirectUri}`)
}
