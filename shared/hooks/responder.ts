import { ELICIT_ACTIONS, serverRequestText, type Responder } from '../contract'
import type { ScriptedAnswer, ScriptedResponder, ServerRequest } from '../mcp/clientRole'
import { loadUserFile } from '../runtime/userModules'

/**
 * A target's scripted responder: its file (canned replies in JSON, or a module), then its `elicit` answer.
 * The first that answers a request answers it; when none does, a person is asked (or Parallax answers
 * that nobody could). A module must have been approved by the caller before this loads it.
 */
export async function loadResponder(spec: Responder | undefined): Promise<ScriptedResponder | undefined> {
  if (!spec) return undefined
  const parts: ScriptedResponder[] = []
  if (spec.file) parts.push(await loadResponderFile(spec.file))
  if (spec.elicit) {
    const { elicit, elicitContent } = spec
    parts.push({
      source: `--elicit ${elicit}`,
      answer: async (request) =>
        request.method !== 'elicitation/create'
          ? undefined
          : { result: elicit === 'accept' ? { action: elicit, ...(elicitContent && { content: elicitContent }) } : { action: elicit } },
    })
  }
  if (parts.length === 0) return undefined
  if (parts.length === 1) return parts[0]
  return {
    source: parts.map((p) => p.source).join(', then '),
    answer: async (request) => {
      for (const part of parts) {
        const answer = await part.answer(request)
        if (answer) return { ...answer, source: answer.source ?? part.source }
      }
      return undefined
    },
  }
}

/**
 * A file of canned replies (`.json`) or a module (`.js`, `.mjs`, `.ts`, …: runtime/userModules.ts) exporting
 * `(request) => result` (default), or `sampling` and `elicitation` functions by name (or in a default-exported
 * object). A function returns the result to send, `undefined` to leave the request to someone else, or throws
 * to answer with an error. Read afresh on every load, so a reconnect picks up edits.
 */
export async function loadResponderFile(file: string): Promise<ScriptedResponder> {
  const loaded = await loadUserFile(file, 'responder')
  const { path } = loaded
  if (loaded.kind === 'json') return cannedReplies(loaded.json, path)
  const exported = loaded.exports
  const byMethod: Record<string, unknown> = {
    'sampling/createMessage': exported.sampling,
    'elicitation/create': exported.elicitation,
  }
  const fallback = typeof exported.default === 'function' ? exported.default : undefined
  if (!fallback && typeof byMethod['sampling/createMessage'] !== 'function' && typeof byMethod['elicitation/create'] !== 'function')
    throw new Error(`responder module ${path} exports no function: export default (request) => result, or sampling / elicitation`)
  return {
    source: path,
    answer: async (request) => {
      const named = byMethod[request.method]
      const fn = (typeof named === 'function' ? named : fallback) as ((request: ServerRequest) => unknown) | undefined
      if (!fn) return undefined
      const result = await fn(structuredClone(request))
      if (result === undefined || result === null) return undefined
      if (typeof result !== 'object' || Array.isArray(result))
        throw new Error(`the responder returned ${Array.isArray(result) ? 'an array' : typeof result}, not a result object`)
      return { result: result as Record<string, unknown> }
    },
  }
}

/** One canned reply: taken when its `match` (a piece of text, any case) is in the request's text, or always without one. */
interface CannedReply {
  match?: string
  /** An error to answer with instead of a result. */
  error?: { code?: number; message: string }
  [field: string]: unknown
}

/**
 * `{"sampling": [...], "elicitation": [...]}`, each a reply or a list of them, tried in order:
 * sampling `{match?, text, model?, stopReason?}` or the whole result (`{role, content, model, stopReason}`);
 * elicitation `{match?, action, content?}` (accept without content sends the form's defaults).
 */
function cannedReplies(json: unknown, path: string): ScriptedResponder {
  if (!json || typeof json !== 'object' || Array.isArray(json))
    throw new Error(`${path}: a responder file is an object: {"sampling": [...], "elicitation": [...]}`)
  const { sampling, elicitation, ...rest } = json as Record<string, unknown>
  const unknown = Object.keys(rest)
  if (unknown.length) throw new Error(`${path}: unknown key(s) ${unknown.join(', ')}; a responder file has "sampling" and "elicitation"`)
  const lists: Record<string, CannedReply[]> = {
    'sampling/createMessage': replyList(sampling, 'sampling', path),
    'elicitation/create': replyList(elicitation, 'elicitation', path),
  }
  lists['elicitation/create'].forEach((reply, i) => {
    if (!reply.error && !(ELICIT_ACTIONS as readonly unknown[]).includes(reply.action))
      throw new Error(`${path}: elicitation[${i}].action must be one of ${ELICIT_ACTIONS.join(', ')}`)
  })
  lists['sampling/createMessage'].forEach((reply, i) => {
    if (!reply.error && typeof reply.text !== 'string' && reply.content === undefined)
      throw new Error(`${path}: sampling[${i}] needs "text" (or a whole result with "content")`)
  })
  return {
    source: path,
    answer: async (request: ServerRequest): Promise<ScriptedAnswer | undefined> => {
      const text = serverRequestText(request.method, request.params).toLowerCase()
      const reply = (lists[request.method] ?? []).find((r) => r.match === undefined || text.includes(r.match.toLowerCase()))
      if (!reply) return undefined
      if (reply.error) return { error: reply.error }
      const { match: _match, error: _error, ...result } = reply
      void _match
      void _error
      return { result }
    },
  }
}

function replyList(value: unknown, key: string, path: string): CannedReply[] {
  if (value === undefined) return []
  const list = Array.isArray(value) ? value : [value]
  return list.map((reply, i) => {
    if (!reply || typeof reply !== 'object' || Array.isArray(reply)) throw new Error(`${path}: ${key}[${i}] is not an object`)
    const r = reply as CannedReply
    if (r.match !== undefined && typeof r.match !== 'string') throw new Error(`${path}: ${key}[${i}].match must be text`)
    if (r.error !== undefined && typeof r.error?.message !== 'string') throw new Error(`${path}: ${key}[${i}].error needs a "message"`)
    return r
  })
}
