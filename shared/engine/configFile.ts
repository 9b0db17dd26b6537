import { RootInput, TargetDraft } from '../contract'

/**
 * Reads the config format MCP clients already use (`{"mcpServers": {name: {command,args,env} | {url,headers}}}`),
 * extended with `{"a2aAgents": {name: {url, headers}}}` and `{"acpAgents": {name: {command, args, env, cwd,
 * workspace, mcpServers}}}` (ACP agents run as stdio MCP servers are), into target drafts. Each entry that
 * cannot be used becomes one readable error; the rest still import.
 */
export function parseTargetsConfig(text: string, fileName = 'config'): { drafts: TargetDraft[]; errors: string[] } {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return { drafts: [], errors: [`${fileName} is not valid JSON: ${(error as Error).message}`] }
  }
  const {
    mcpServers: servers,
    a2aAgents: agents,
    acpAgents,
  } = (json ?? {}) as { mcpServers?: unknown; a2aAgents?: unknown; acpAgents?: unknown }
  const isMap = (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v)
  if (!isMap(servers) && !isMap(agents) && !isMap(acpAgents)) {
    return { drafts: [], errors: [`${fileName} has no "mcpServers" (or "a2aAgents", or "acpAgents") object`] }
  }
  const drafts: TargetDraft[] = []
  const errors: string[] = []
  for (const [name, raw] of Object.entries(isMap(acpAgents) ? (acpAgents as Record<string, unknown>) : {})) {
    const entry = (raw ?? {}) as Record<string, unknown>
    if (typeof entry.command !== 'string') {
      errors.push(`acpAgents.${name}: needs "command" (an ACP agent runs over stdio)`)
      continue
    }
    // `mcpServers` names other entries of this file (their import ids), or saved targets by id.
    const mcp = Array.isArray(entry.mcpServers)
      ? entry.mcpServers.map((s) => (typeof s === 'string' && isMap(servers) && Object.hasOwn(servers as object, s) ? `import:${s}` : s))
      : []
    const draft = TargetDraft.safeParse({
      id: `import:${name}`,
      name,
      spec: {
        kind: 'acp',
        command: entry.command,
        args: entry.args ?? [],
        env: entry.env ?? {},
        cwd: entry.cwd,
        workspace: entry.workspace,
        mcpServers: mcp,
      },
      ...(typeof entry.profile === 'string' && { profile: entry.profile }),
    })
    if (draft.success) drafts.push(draft.data)
    else errors.push(`acpAgents.${name}: ${draft.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
  }
  for (const [name, raw] of Object.entries(isMap(agents) ? (agents as Record<string, unknown>) : {})) {
    const entry = (raw ?? {}) as Record<string, unknown>
    const draft = TargetDraft.safeParse({
      id: `import:${name}`,
      name,
      spec: { kind: 'a2a', url: entry.url, headers: entry.headers ?? {}, binding: entry.binding ?? 'auto', oauth: entry.oauth },
    })
    if (draft.success) drafts.push(draft.data)
    else errors.push(`a2aAgents.${name}: ${draft.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
  }
  for (const [name, raw] of Object.entries(isMap(servers) ? (servers as Record<string, unknown>) : {})) {
    const entry = (raw ?? {}) as Record<string, unknown>
    const spec =
      typeof entry.command === 'string'
        ? { kind: 'mcp-stdio', command: entry.command, args: entry.args ?? [], env: entry.env ?? {}, cwd: entry.cwd }
        : typeof entry.url === 'string'
          ? {
              kind: 'mcp-http',
              url: entry.url,
              headers: entry.headers ?? {},
              transport: httpTransport(entry.type ?? entry.transport),
              oauth: entry.oauth,
            }
          : undefined
    if (!spec) {
      errors.push(`mcpServers.${name}: needs either "command" (stdio) or "url" (HTTP)`)
      continue
    }
    const roots = Array.isArray(entry.roots) ? entry.roots.map((root) => RootInput.safeParse(root)) : []
    const badRoot = roots.findIndex((root) => !root.success)
    if (entry.roots !== undefined && (!Array.isArray(entry.roots) || badRoot !== -1)) {
      errors.push(
        `mcpServers.${name}: "roots" is a list of file:// URIs (or {"uri", "name"})${badRoot !== -1 ? `: roots[${badRoot}] is not one` : ''}`,
      )
      continue
    }
    // Beside what runs or where: the roots offered to the server and the client profile to connect under.
    const client = {
      ...(entry.roots !== undefined && { roots: roots.map((root) => root.data) }),
      ...(typeof entry.profile === 'string' && { profile: entry.profile }),
    }
    const draft = TargetDraft.safeParse({ id: `import:${name}`, name, spec, ...client })
    if (draft.success) drafts.push(draft.data)
    else errors.push(`mcpServers.${name}: ${draft.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
  }
  return { drafts, errors }
}

function httpTransport(type: unknown): 'auto' | 'streamable-http' | 'sse' {
  if (type === 'sse') return 'sse'
  if (type === 'http' || type === 'streamable-http' || type === 'streamableHttp') return 'streamable-http'
  return 'auto'
}
