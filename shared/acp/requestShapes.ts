import { z } from 'zod'
import type { RequestProblem } from '../contract'

/**
 * The params of the ACP requests Parallax can send again, as the protocol's schema (v1, `PromptRequest` and
 * its `ContentBlock`s) shapes them: only `session/prompt` — the connection opens its sessions itself, and
 * sends `initialize` once. Checked before anything is sent, so params shaped like another protocol's (an A2A
 * message, an MCP tool call) are refused, never read as a prompt.
 */
const Meta = z.record(z.string(), z.unknown()).nullable().optional()
const Annotations = z.record(z.string(), z.unknown()).nullable().optional()

const ContentBlock = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('text'), text: z.string(), annotations: Annotations, _meta: Meta }).passthrough(),
    z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string(), uri: z.string().nullable().optional() }).passthrough(),
    z.object({ type: z.literal('audio'), data: z.string(), mimeType: z.string() }).passthrough(),
    z.object({ type: z.literal('resource_link'), uri: z.string(), name: z.string() }).passthrough(),
    z
      .object({
        type: z.literal('resource'),
        resource: z.union([
          z.object({ uri: z.string(), text: z.string() }).passthrough(),
          z.object({ uri: z.string(), blob: z.string() }).passthrough(),
        ]),
      })
      .passthrough(),
  ],
  { message: 'a content block is text, image, audio, resource_link or resource (its "type")' },
)

const PromptRequest = z
  .object({
    sessionId: z.string({ message: 'a session id is required (the session the prompt goes to)' }).min(1, 'a session id is required'),
    prompt: z.array(ContentBlock, { message: 'prompt is a list of content blocks' }).min(1, 'a prompt needs at least one content block'),
    _meta: Meta,
  })
  .passthrough()

const SHAPES: Readonly<Record<string, z.ZodType>> = { 'session/prompt': PromptRequest }

/** Where params break the ACP schema for the method (nothing when they fit), or that Parallax does not send the method again. */
export function checkAcpRequest(method: string, params: Record<string, unknown>): { problems: RequestProblem[]; known: boolean } {
  const shape = SHAPES[method]
  if (!shape)
    return { known: false, problems: [{ path: '', message: `Parallax does not send ${method} again (it sends prompts: session/prompt)` }] }
  const checked = shape.safeParse(params)
  if (checked.success) return { known: true, problems: [] }
  return {
    known: true,
    problems: checked.error.issues.slice(0, 20).map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
  }
}
