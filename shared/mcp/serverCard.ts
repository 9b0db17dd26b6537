// MCP server cards (SEP-2127, a draft: https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2127) and
// the MCP registry's server.json, which the draft makes a superset of the card: fetched from a URL and checked
// against the draft's shape as it stands. The draft may still move: its well-known path, its required fields
// ($schema, name, version, capabilities) and whether the card also lists tools, prompts and resources.

import type { ServerCardRead, ServerCardRemote } from '../contract'

/** Where the draft puts a server's card, relative to its origin. */
export const SERVER_CARD_PATH = '/.well-known/mcp/server-card'
const MAX_CARD_BYTES = 1_000_000

/** Where a pasted URL's card is: the URL itself when it names a document, else its origin's well-known path. */
export function cardLocation(pasted: string): string {
  if (!URL.canParse(pasted)) throw new Error(`not a URL: ${JSON.stringify(pasted)}`)
  const url = new URL(pasted)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`a card is fetched over HTTP(S), not ${url.protocol}`)
  const named = url.pathname.includes('/.well-known/') || url.pathname.endsWith('.json')
  return named ? url.href : new URL(SERVER_CARD_PATH, url).href
}

/** Fetches the card a URL names (or its origin's well-known card) and checks it; refuses with why when there is none. */
export async function readServerCard(pasted: string, fetchImpl: typeof fetch = fetch): Promise<ServerCardRead> {
  const url = cardLocation(pasted)
  let response: Response
  try {
    response = await fetchImpl(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(10_000), redirect: 'follow' })
  } catch (error) {
    throw new Error(`cannot fetch ${url}: ${(error as Error).message}`, { cause: error })
  }
  if (!response.ok) throw new Error(`no server card at ${url}: HTTP ${response.status}`)
  const text = await response.text()
  if (text.length > MAX_CARD_BYTES) throw new Error(`the document at ${url} is over ${MAX_CARD_BYTES} bytes: not a server card`)
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch (error) {
    throw new Error(`the document at ${url} is not JSON: ${text.slice(0, 80)}`, { cause: error })
  }
  const read = checkServerCard(document, url)
  const type = response.headers.get('content-type') ?? ''
  if (!/^application\/json\b/i.test(type)) read.problems.push(`served as ${type || 'no Content-Type'}: the draft says application/json`)
  if (url.includes('/.well-known/') && response.headers.get('access-control-allow-origin') === null)
    read.problems.push('no Access-Control-Allow-Origin header: the draft asks for CORS so browser clients can read it')
  return read
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Checks a parsed document against the draft's card shape (or server.json's); never throws on what the document holds. */
export function checkServerCard(document: unknown, url: string): ServerCardRead {
  if (!isObject(document)) throw new Error(`the document at ${url} is not a JSON object: not a server card`)
  const problems: string[] = []
  const schema = typeof document.$schema === 'string' ? document.$schema : undefined
  const kind = schema?.includes('server.schema') || Array.isArray(document.packages) ? 'server.json' : 'server-card'
  if (!schema) problems.push('no $schema: the draft requires the schema URI')
  const text = (field: string, required: boolean) => {
    const value = document[field]
    if (value === undefined) {
      if (required) problems.push(`no ${field}: the draft requires it`)
      return undefined
    }
    if (typeof value !== 'string') return void problems.push(`${field} is not a string`)
    return value
  }
  const name = text('name', true)
  if (name !== undefined && (name.split('/').length !== 2 || !name.split('/').every(Boolean)))
    problems.push(`name ${JSON.stringify(name)} is not reverse-DNS with exactly one slash (namespace/server)`)
  const version = text('version', true)
  if (version !== undefined && /^[\^~<>=]|\.x\b|\*|\s-\s/.test(version))
    problems.push(`version ${JSON.stringify(version)} is a range: the draft wants one version`)
  const capabilities = document.capabilities
  if (kind === 'server-card' && capabilities === undefined) problems.push('no capabilities: the draft requires the server capabilities')
  if (capabilities !== undefined && !isObject(capabilities)) problems.push('capabilities is not an object')
  const list = (field: string, key: string) => {
    const value = document[field]
    if (value === undefined) return undefined
    if (!Array.isArray(value) || !value.every(isObject)) return void problems.push(`${field} is not a list of objects`)
    value.forEach((item, i) => {
      if (typeof item[key] !== 'string') problems.push(`${field}[${i}] has no ${key}`)
    })
    return value.filter((item) => typeof item[key] === 'string')
  }
  const remotes = (list('remotes', 'url') ?? []) as unknown as ServerCardRemote[]
  remotes.forEach((remote, i) => {
    if (remote.type !== 'streamable-http' && remote.type !== 'sse')
      problems.push(`remotes[${i}].type ${JSON.stringify(remote.type)} is neither streamable-http nor sse`)
    if (!URL.canParse(remote.url)) problems.push(`remotes[${i}].url is not a URL`)
  })
  const packages = (Array.isArray(document.packages) ? document.packages : [])
    .filter(isObject)
    .map((p) => String(p.identifier ?? p.registryType ?? '?'))
  return {
    url,
    kind,
    name,
    title: text('title', false),
    version,
    description: text('description', false),
    remotes,
    ...(isObject(capabilities) && { capabilities }),
    tools: list('tools', 'name'),
    prompts: list('prompts', 'name'),
    resources: list('resources', 'uri'),
    packages,
    problems,
  }
}

/** The MCP target a card points at: its first streamable HTTP remote (else SSE); undefined when it has none. */
export function cardEndpoint(card: ServerCardRead): string | undefined {
  return (card.remotes.find((r) => r.type === 'streamable-http') ?? card.remotes.find((r) => r.type === 'sse'))?.url
}
