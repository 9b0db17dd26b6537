/**
 * What an ACP frame is about, where its method alone does not say: the kind of a session update (and the
 * tool it names), the file a request reads or writes, the command a terminal runs. The Frames filter finds
 * `tool_call get_products` or `fs/write_text_file /work/notes.md` by it.
 */
export function acpSubject(method: string, params: unknown): string | undefined {
  const p = (params ?? {}) as {
    update?: { sessionUpdate?: unknown; name?: unknown; title?: unknown; toolCallId?: unknown }
    path?: unknown
    command?: unknown
    toolCall?: { title?: unknown; name?: unknown }
  }
  const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined)
  if (method === 'session/update') {
    const kind = text(p.update?.sessionUpdate)
    const tool = text(p.update?.name) ?? text(p.update?.title)
    return kind && tool ? `${kind} ${tool}` : kind
  }
  if (method.startsWith('fs/')) return text(p.path)
  if (method === 'terminal/create') return text(p.command)
  if (method === 'session/request_permission') return text(p.toolCall?.name) ?? text(p.toolCall?.title)
  return undefined
}

/** The capability a request from the agent needs that Parallax did not offer (an oddity: the SDK answers -32601), or undefined. */
export function unofferedRequest(
  method: string,
  offered: { read: boolean; write: boolean; terminal: boolean } | undefined,
): string | undefined {
  if (method === 'fs/read_text_file' && !offered?.read) return 'fs.readTextFile'
  if (method === 'fs/write_text_file' && !offered?.write) return 'fs.writeTextFile'
  if (method.startsWith('terminal/') && !offered?.terminal) return 'terminal'
  return undefined
}
