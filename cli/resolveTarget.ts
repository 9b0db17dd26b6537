import { readFile } from 'node:fs/promises'
import {
  A2A_BINDING_PREFERENCES,
  describeSpec,
  redactArgs,
  splitCommandLine,
  type A2aBindingPreference,
  type SavedTarget,
} from '../shared/contract'
import { parseTargetsConfig } from '../shared/engine/configFile'
import { demoTargets } from '../shared/demo/targets'
import { UsageError } from './usage'

/**
 * Turns a CLI target string (`demo:…`, `stdio:…`, `mcp:…`, a URL, or a config name) into a target;
 * `binding` (`--binding`) names the interface an A2A agent is talked to over, in place of the card's order.
 */
export async function resolveTarget(text: string, configFile?: string, binding?: string): Promise<SavedTarget> {
  const target = await targetFrom(text, configFile)
  if (binding === undefined) return target
  if (!(A2A_BINDING_PREFERENCES as readonly string[]).includes(binding))
    throw new UsageError(`--binding is one of ${A2A_BINDING_PREFERENCES.join(', ')}`)
  if (target.spec.kind !== 'a2a') throw new UsageError('--binding is for A2A agents (a2a:<url>, or one from --config)')
  if (target.origin === 'demo')
    throw new UsageError(`${target.id} is a built-in demo and chooses its own interface; demo:a2a-grpc is the same agent over gRPC`)
  return { ...target, spec: { ...target.spec, binding: binding as A2aBindingPreference } }
}

async function targetFrom(text: string, configFile?: string): Promise<SavedTarget> {
  if (text.startsWith('demo:')) {
    const demo = demoTargets().find((t) => t.id === text)
    if (!demo)
      throw new UsageError(
        `unknown demo target "${text}"; try ${demoTargets()
          .map((t) => t.id)
          .join(', ')}`,
      )
    return demo
  }
  if (text.startsWith('stdio:') || text.startsWith('acp:')) {
    const acp = text.startsWith('acp:')
    let words: string[]
    try {
      words = splitCommandLine(text.slice(acp ? 'acp:'.length : 'stdio:'.length))
    } catch (error) {
      throw new UsageError(`${text}: ${(error as Error).message}`)
    }
    if (words.length === 0)
      throw new UsageError(
        acp ? 'acp: needs a command line, e.g. acp:"npx my-agent --acp"' : 'stdio: needs a command line, e.g. stdio:"npx my-server --flag"',
      )
    const [command, ...args] = words
    if (acp) {
      const spec = { kind: 'acp' as const, command, args, env: {}, mcpServers: [] }
      return { id: 'cli', name: describeSpec({ ...spec, args: redactArgs(args) }), origin: 'user', options: {}, spec }
    }
    const spec = { kind: 'mcp-stdio' as const, command, args, env: {} }
    // Named by the whole command line, as typed (secret-looking arguments redacted): never by its first word alone.
    return { id: 'cli', name: describeSpec({ ...spec, args: redactArgs(args) }), origin: 'user', options: {}, spec }
  }
  if (text.startsWith('a2a:')) {
    const url = text.slice('a2a:'.length)
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new UsageError(`"${url}" is not an http(s) URL`)
    return { id: 'cli', name: url, origin: 'user', options: {}, spec: { kind: 'a2a', url, headers: {}, binding: 'auto' } }
  }
  const url = text.startsWith('mcp:') ? text.slice('mcp:'.length) : /^https?:\/\//.test(text) ? text : undefined
  if (url !== undefined) {
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new UsageError(`"${url}" is not an http(s) URL`)
    return { id: 'cli', name: url, origin: 'user', options: {}, spec: { kind: 'mcp-http', url, headers: {}, transport: 'auto' } }
  }
  if (!configFile)
    throw new UsageError(
      `unknown target "${text}": use demo:<name>, stdio:<command line>, mcp:<url>, a2a:<url>, acp:<command line>, or a name with --config FILE`,
    )
  let config: string
  try {
    config = await readFile(configFile, 'utf8')
  } catch (error) {
    throw new UsageError(`cannot read config ${configFile}: ${(error as Error).message}`)
  }
  const { drafts, errors } = parseTargetsConfig(config, configFile)
  const draft = drafts.find((d) => d.name === text)
  if (!draft) {
    const problem =
      errors.find((e) => e.startsWith(`mcpServers.${text}:`) || e.startsWith(`a2aAgents.${text}:`) || e.startsWith(`acpAgents.${text}:`)) ??
      errors[0]
    throw new UsageError(
      problem ?? `no server or agent named "${text}" in ${configFile} (it has: ${drafts.map((d) => d.name).join(', ') || 'none'})`,
    )
  }
  return { ...draft, id: `config:${text}`, origin: 'import', options: draft.options ?? {} } as SavedTarget
}
