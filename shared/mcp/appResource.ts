import { appResourceUi, CommandError, MCP_APP_MIME_TYPE, type AppResourceUi, type RequestAnswer } from '../contract'

/** An App view's document as its server gave it, and what Parallax noticed about it. */
export interface AppResource {
  html: string
  mimeType?: string
  ui: AppResourceUi
  /** Where the metadata came from: the content `resources/read` returned, else the `resources/list` entry. */
  uiFrom: 'resource' | 'list' | 'none'
  problems: string[]
}

type Content = { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown; _meta?: unknown }

/**
 * Reads a view's `ui://` resource through the connection (`resources/read`) and checks it is what the
 * MCP Apps extension says it must be: one content for the URI, `text/html;profile=mcp-app`, text or
 * base64 HTML. Anything else is refused with what it was; a view is never rendered from it.
 */
export async function readAppResource(
  uri: string,
  read: (uri: string) => Promise<RequestAnswer>,
  listed: unknown[] | undefined,
): Promise<AppResource> {
  if (!uri.startsWith('ui://'))
    throw new CommandError(`an App view is a ui:// resource, not ${JSON.stringify(uri.slice(0, 200))}`, 'invalid-input')
  const answer = await read(uri)
  if (answer.outcome === 'error')
    throw new CommandError(`the server could not read ${uri}: ${answer.error.message} (JSON-RPC error ${answer.error.code})`, 'failed')
  if (answer.outcome !== 'result') throw new CommandError(`no answer to resources/read of ${uri}: ${answer.reason}`, 'failed')
  const contents = Array.isArray(answer.result.contents) ? (answer.result.contents as Content[]) : []
  const content = contents.find((c) => c?.uri === uri) ?? contents[0]
  if (!content) throw new CommandError(`resources/read of ${uri} returned no contents, so there is no view to render`, 'failed')
  const problems: string[] = []
  if (content.uri !== uri) problems.push(`resources/read returned ${JSON.stringify(content.uri)} for ${uri}`)
  if (contents.length > 1) problems.push(`resources/read returned ${contents.length} contents; the view is the first that matches ${uri}`)
  const entry = listed?.find((r) => (r as { uri?: unknown })?.uri === uri) as Content | undefined
  const mimeType =
    typeof content.mimeType === 'string' ? content.mimeType : typeof entry?.mimeType === 'string' ? entry.mimeType : undefined
  const html = documentText(uri, content)
  checkType(uri, mimeType, html, problems)
  const fromContent = appResourceUi(content._meta)
  const fromList = appResourceUi(entry?._meta)
  const declared = hasUi(content._meta) ? 'resource' : hasUi(entry?._meta) ? 'list' : 'none'
  const chosen = declared === 'list' ? fromList : fromContent
  return { html, mimeType, ui: chosen.ui, uiFrom: declared, problems: [...problems, ...chosen.problems] }
}

function hasUi(meta: unknown): boolean {
  return typeof meta === 'object' && meta !== null && typeof (meta as { ui?: unknown }).ui === 'object'
}

/** The document's text: `text`, or `blob` decoded from base64 as UTF-8. */
function documentText(uri: string, content: Content): string {
  if (typeof content.text === 'string') {
    if (!content.text.trim()) throw new CommandError(`${uri} is empty: there is no view to render`, 'failed')
    return content.text
  }
  if (typeof content.blob === 'string') {
    const clean = content.blob.replace(/\s+/g, '')
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1)
      throw new CommandError(`${uri} came as a blob that is not base64, so it cannot be read as HTML`, 'failed')
    const text = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.from(clean, 'base64'))
    if (!text.trim()) throw new CommandError(`${uri} is empty: there is no view to render`, 'failed')
    return text
  }
  throw new CommandError(`${uri} has neither text nor blob: there is no view to render`, 'failed')
}

/** An App view is HTML: the extension's own type, plain HTML with a note, anything else refused. */
function checkType(uri: string, mimeType: string | undefined, html: string, problems: string[]): void {
  const normal = mimeType?.toLowerCase().replace(/\s+/g, '')
  if (normal === MCP_APP_MIME_TYPE) return
  if (normal?.startsWith('text/html')) {
    problems.push(`${uri} is ${mimeType}; an App view should be ${MCP_APP_MIME_TYPE}`)
    return
  }
  if (mimeType === undefined && /^\s*</.test(html)) {
    problems.push(`${uri} names no MIME type; it reads as HTML, and an App view should be ${MCP_APP_MIME_TYPE}`)
    return
  }
  throw new CommandError(
    `${uri} is ${mimeType ? mimeType : 'of no stated type and does not read as HTML'}, not an App view (${MCP_APP_MIME_TYPE}): Parallax renders only HTML views`,
    'failed',
  )
}
