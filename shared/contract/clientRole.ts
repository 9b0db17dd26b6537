import { z } from 'zod'

/**
 * The client's side of MCP (docs/architecture.md, "Answering what servers ask"): what a server may ask
 * its client — a model's reply (`sampling/createMessage`), the user's input (`elicitation/create`), the
 * client's roots (`roots/list`) — and what Parallax answers with: a person (the UI), a scripted responder
 * (a file of canned replies or a module), the CLI's flags, or the target's roots. Pure data and helpers:
 * the UI imports them.
 */

/** The requests a server may send its client that Parallax answers (the engine's table of them, with the capability each needs: `SERVER_REQUESTS` in shared/mcp/clientRole.ts). */
export const SERVER_REQUEST_METHODS = ['sampling/createMessage', 'elicitation/create', 'roots/list'] as const
export type ServerRequestMethod = (typeof SERVER_REQUEST_METHODS)[number]

/** A root the client offers (`roots/list`): a `file://` URI, as the spec requires, and a name to show. */
export const Root = z
  .object({
    uri: z
      .string()
      .max(4096)
      .regex(/^file:\/\//, 'a root is a file:// URI, e.g. file:///home/me/project'),
    name: z.string().min(1).max(200).optional(),
  })
  .strict()
export type Root = z.infer<typeof Root>

/** A root as a config file may give it: its URI alone, or `{uri, name}`. */
export const RootInput = z.union([z.string().transform((uri) => ({ uri })), z.record(z.string(), z.unknown())]).pipe(Root)

export const ELICIT_ACTIONS = ['accept', 'decline', 'cancel'] as const
export type ElicitAction = (typeof ELICIT_ACTIONS)[number]

/**
 * Who answers for a target when no person does (the CLI, tests, replays), and before the UI asks one:
 * `file` is a JSON file of canned replies or a module `(request) => result` (loaded like hooks, and a
 * module only once its content is approved); `elicit` answers every elicitation not answered by the file
 * (accept with `elicitContent`, or the requested schema's defaults when none is given).
 */
export const Responder = z
  .object({
    file: z.string().min(1).max(4096).optional(),
    elicit: z.enum(ELICIT_ACTIONS).optional(),
    elicitContent: z.record(z.string(), z.unknown()).optional(),
    /** ACP: answers every permission request (allow: the agent's allow option; reject: its reject option) before a person is asked. */
    permission: z.enum(['allow', 'reject']).optional(),
    /** ACP: runs or refuses every command the agent asks to run, before a person is asked. */
    terminal: z.enum(['allow', 'reject']).optional(),
  })
  .strict()
export type Responder = z.infer<typeof Responder>

/** The name of the profile a connection is made under when neither the command nor the target names one. */
export const DEFAULT_PROFILE = 'default'

/** How the user (or a host for them) answers a request that waits for a person. */
export const ServerRequestAnswer = z.union([
  z.object({ result: z.record(z.string(), z.unknown()) }).strict(),
  z.object({ reject: z.string().max(2000).default('the user rejected the request') }).strict(),
])
export type ServerRequestAnswer = z.output<typeof ServerRequestAnswer>

/** The JSON-RPC error a client sends when its user rejects a sampling request (the MCP spec's example uses -1). */
export const USER_REJECTED_CODE = -1

/** A JSON Schema property of an elicitation form, as far as Parallax reads it. */
export interface ElicitField {
  type?: string
  title?: string
  description?: string
  default?: unknown
  enum?: unknown[]
  enumNames?: string[]
  oneOf?: { const?: unknown; title?: string }[]
  anyOf?: { const?: unknown; title?: string }[]
  items?: { type?: string; enum?: unknown[]; anyOf?: { const?: unknown; title?: string }[]; oneOf?: { const?: unknown; title?: string }[] }
  format?: string
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  minItems?: number
  maxItems?: number
}

/** The requested schema of a form-mode elicitation: a flat object of primitive fields (and multi-select arrays). */
export interface ElicitSchema {
  type?: 'object'
  properties?: Record<string, ElicitField>
  required?: string[]
}

/** Each field's `default`, where it has one: what "accept" with nothing filled in sends (SEP-1034). */
export function elicitationDefaults(schema: ElicitSchema | undefined): Record<string, unknown> {
  const content: Record<string, unknown> = {}
  for (const [name, field] of Object.entries(schema?.properties ?? {})) if (field && 'default' in field) content[name] = field.default
  return content
}

/** The text a request carries, for matching canned replies and for the conversation: its messages and system prompt, or its message. */
export function serverRequestText(method: string, params: unknown): string {
  const p = (params ?? {}) as { messages?: { content?: unknown }[]; systemPrompt?: unknown; message?: unknown; url?: unknown }
  if (method === 'sampling/createMessage')
    return [typeof p.systemPrompt === 'string' ? p.systemPrompt : '', ...(p.messages ?? []).map((m) => contentText(m.content))]
      .filter(Boolean)
      .join('\n')
  if (method === 'elicitation/create') return [p.message, p.url].filter((s) => typeof s === 'string').join('\n')
  return ''
}

/** The text of a sampling message's content (one block or several); other blocks named by their type. */
export function contentText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content]
  return blocks
    .map((block) => {
      const b = (block ?? {}) as { type?: unknown; text?: unknown }
      return b.type === 'text' && typeof b.text === 'string' ? b.text : typeof b.type === 'string' ? `[${b.type}]` : ''
    })
    .filter(Boolean)
    .join('\n')
}
