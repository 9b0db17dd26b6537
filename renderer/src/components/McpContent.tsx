import { useState } from 'react'
import type { ConversationMessage } from '../../../shared/contract'
import { JsonView } from './JsonView'
import { Markdown, MarkdownOrRaw, MarkdownSwitch } from './Markdown'
import { isMarkdown } from './markdownRule'
import { AgentText, Name } from './Name'
import './mcpContent.css'

/*
 * What an MCP server returns, as a person reads it: text as text, images as images, audio playable,
 * embedded resources shown by their MIME type (JSON as a tree, markdown rendered, text as text, a blob
 * previewed when it is an image, audio or text, a download otherwise), links to resources readable with
 * one click, and a tool's structured content as an open tree. Everything the agent sent is shown as text
 * (React escapes it), as markdown rendered to elements (./Markdown.tsx: no HTML, no images fetched), or as
 * a data: URL of a type Parallax checked (an image or audio type): nothing it sent runs or loads.
 */

type Block = { type?: unknown; [field: string]: unknown }

/** Raster and SVG images shown in <img> (which never runs an SVG's scripts); audio played by <audio>. */
const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp|avif|bmp|svg\+xml)$/i
const AUDIO_TYPES = /^audio\/[a-z0-9.+-]+$/i
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/
/** How the engine marks a value it cut for size (the whole stays in its frame). */
const CUT = /\[Parallax cut [^\]]*\]$/

/** A tool's result: an error looks like one; its content blocks; its structured content as an open tree. */
export function ToolResult({ result, onRead }: { result: unknown; onRead?: (uri: string) => void }) {
  const r = (result ?? {}) as { content?: unknown; structuredContent?: unknown; isError?: unknown }
  return (
    <div className={`tool-result${r.isError === true ? ' is-error' : ''}`} data-testid="tool-result">
      {r.isError === true && (
        <div className="verdict bad" data-testid="tool-error">
          The tool answered with an error (<span className="mono">isError</span>): a failed turn.
        </div>
      )}
      {Array.isArray(r.content) && <ContentBlocks blocks={r.content as Block[]} onRead={onRead} />}
      {r.structuredContent !== undefined && (
        <div className="structured" data-testid="structured-content">
          <div className="content-label">structuredContent</div>
          <JsonView value={r.structuredContent} openDepth={64} />
        </div>
      )}
    </div>
  )
}

/** Content blocks, each as what it is. */
export function ContentBlocks({ blocks, onRead }: { blocks: Block[]; onRead?: (uri: string) => void }) {
  if (blocks.length === 0) return <div className="muted">(no content)</div>
  return (
    <div className="content-blocks">
      {blocks.map((block, i) => (
        <ContentBlock key={i} block={block} onRead={onRead} />
      ))}
    </div>
  )
}

export function ContentBlock({ block, onRead }: { block: Block; onRead?: (uri: string) => void }) {
  const annotations = block.annotations as { audience?: unknown; priority?: unknown } | undefined
  const body = blockBody(block, onRead)
  return (
    <div className="content-block" data-type={String(block.type)}>
      {annotations && (
        <div className="content-annotations muted">
          {Array.isArray(annotations.audience) && <>for {annotations.audience.map(String).join(', ')}</>}
          {typeof annotations.priority === 'number' && <> · priority {annotations.priority}</>}
        </div>
      )}
      {body}
    </div>
  )
}

function blockBody(block: Block, onRead?: (uri: string) => void) {
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? <TextContent text={block.text} /> : <JsonView value={block} />
    case 'image':
      return <Media kind="image" data={block.data} mimeType={block.mimeType} />
    case 'audio':
      return <Media kind="audio" data={block.data} mimeType={block.mimeType} />
    case 'resource_link':
      return <ResourceLink link={block} onRead={onRead} />
    case 'resource':
      return <ResourceContent content={(block.resource ?? {}) as Block} />
    default:
      return (
        <>
          <div className="content-label">{String(block.type)}</div>
          <JsonView value={block} openDepth={2} />
        </>
      )
  }
}

/** A text block: rendered when it reads as markdown (with a switch to its raw text), else as text. */
function TextContent({ text }: { text: string }) {
  const markdown = isMarkdown(text) && !CUT.test(text.slice(-1_000))
  return markdown ? <MarkdownOrRaw text={text} raw={<LongText text={text} />} /> : <LongText text={text} />
}

/** Text shown whole up to a few screens; longer text folds, and text the engine cut says so at once (the whole is in its frame). */
function LongText({ text }: { text: string }) {
  const [whole, setWhole] = useState(false)
  const cut = CUT.exec(text.slice(-1_000))?.[0]
  const body = cut ? text.slice(0, text.length - cut.length).replace(/… $/, '') : text
  const folded = !whole && body.length > FOLD_TEXT_AT
  return (
    <div className="content-text">
      <AgentText value={folded ? body.slice(0, FOLD_TEXT_AT) : body} />
      {folded && (
        <button className="more" onClick={() => setWhole(true)}>
          {' '}
          … {(body.length - FOLD_TEXT_AT).toLocaleString()} more characters
        </button>
      )}
      {cut && (
        <div className="muted" data-testid="cut-note">
          {cut.slice(1, -1)}
        </div>
      )}
    </div>
  )
}

/** How much text shows before it folds. */
const FOLD_TEXT_AT = 20_000

/** An image or audio clip the agent sent as base64: shown or played when its type and data check out, else said why not. */
function Media({ kind, data, mimeType }: { kind: 'image' | 'audio'; data: unknown; mimeType: unknown }) {
  const type = typeof mimeType === 'string' ? mimeType : ''
  const allowed = kind === 'image' ? IMAGE_TYPES : AUDIO_TYPES
  const problem =
    typeof data !== 'string'
      ? 'no data'
      : CUT.test(data)
        ? 'cut for size: the whole is in its frame (Frames → Save whole…)'
        : !BASE64.test(data)
          ? 'its data is not base64'
          : !allowed.test(type)
            ? `Parallax does not ${kind === 'image' ? 'show' : 'play'} "${type || 'no type'}"`
            : undefined
  if (problem)
    return (
      <div className="content-media-problem">
        <span className="muted">
          {kind} ({type || 'no type'}, {typeof data === 'string' ? `${base64Bytes(data).toLocaleString()} bytes` : 'empty'}): {problem}
        </span>
      </div>
    )
  const src = `data:${type};base64,${data as string}`
  return (
    <figure className={`content-${kind}`}>
      {kind === 'image' ? <img src={src} alt={`image (${type}) the agent sent`} /> : <audio controls src={src} />}
      <figcaption className="muted">
        {type} · {base64Bytes(data as string).toLocaleString()} bytes
      </figcaption>
    </figure>
  )
}

/** A link to a resource: what it says it is, and a Read that reads it (a `resources/read`). */
function ResourceLink({ link, onRead }: { link: Block; onRead?: (uri: string) => void }) {
  const uri = typeof link.uri === 'string' ? link.uri : undefined
  return (
    <div className="content-link" data-testid="resource-link">
      <span className="content-label">link</span>
      <span className="content-link-name">
        {typeof link.name === 'string' && <Name value={link.name} />} {uri && <Name value={uri} className="mono muted" />}
      </span>
      {typeof link.mimeType === 'string' && <span className="muted">{link.mimeType}</span>}
      {typeof link.description === 'string' && <AgentText value={link.description} className="muted" />}
      {uri && onRead && (
        <button className="btn small" onClick={() => onRead(uri)} title={`resources/read ${uri}`}>
          Read
        </button>
      )}
    </div>
  )
}

/** The contents a `resources/read` returned, each previewed by its MIME type. */
export function ResourceContents({ contents }: { contents: unknown }) {
  if (!Array.isArray(contents)) return <JsonView value={contents} />
  if (contents.length === 0) return <div className="muted">(no contents)</div>
  return (
    <div className="content-blocks">
      {(contents as Block[]).map((content, i) => (
        <ResourceContent key={i} content={content} />
      ))}
    </div>
  )
}

/** One resource's contents: text (JSON as a tree), or a blob previewed when it can be (an image, audio, text), with a download. */
export function ResourceContent({ content }: { content: Block }) {
  const [raw, setRaw] = useState(false)
  const uri = typeof content.uri === 'string' ? content.uri : ''
  const type = typeof content.mimeType === 'string' ? content.mimeType : ''
  const text = typeof content.text === 'string' ? content.text : undefined
  const blob = typeof content.blob === 'string' ? content.blob : undefined
  const json = text !== undefined && !raw ? asJson(text, type) : undefined
  const markdown = text !== undefined && json === undefined && isMarkdown(text, type || undefined)
  const size = text !== undefined ? new TextEncoder().encode(text).length : blob !== undefined ? base64Bytes(blob) : 0
  let body
  if (text !== undefined)
    body =
      json !== undefined ? (
        <JsonView value={json.value} openDepth={4} />
      ) : markdown && !raw ? (
        <Markdown text={text} />
      ) : (
        <pre className="content-text resource-text">
          <AgentText value={text} />
        </pre>
      )
  else if (blob !== undefined) {
    const decoded = /^text\/|\/json$|\+json$/.test(type) && BASE64.test(blob) ? decodeText(blob) : undefined
    body = IMAGE_TYPES.test(type) ? (
      <Media kind="image" data={blob} mimeType={type} />
    ) : AUDIO_TYPES.test(type) ? (
      <Media kind="audio" data={blob} mimeType={type} />
    ) : decoded !== undefined ? (
      <pre className="content-text resource-text">
        <AgentText value={decoded} />
      </pre>
    ) : (
      <div className="muted">{type || 'binary'} data: no preview; download it to open it with what your system has.</div>
    )
  } else body = <JsonView value={content} />
  return (
    <div className="resource-content" data-testid="resource-content" data-mime={type}>
      <div className="resource-head">
        <span className="content-label">{blob !== undefined ? 'blob' : 'text'}</span>
        <Name value={uri} className="mono" />
        <span className="muted">
          {type || 'no MIME type'} · {size.toLocaleString()} bytes
        </span>
        <span className="spacer" />
        {markdown && <MarkdownSwitch raw={raw} onChange={setRaw} />}
        {text !== undefined && asJson(text, type) !== undefined && (
          <button className="btn small ghost" onClick={() => setRaw(!raw)}>
            {raw ? 'As a tree' : 'As text'}
          </button>
        )}
        {(text !== undefined || blob !== undefined) && (
          <button className="btn small" onClick={() => saveContent(uri, type, text, blob)} title="Save these contents as a file">
            Download
          </button>
        )}
      </div>
      {body}
    </div>
  )
}

/** A prompt's messages (`prompts/get`) as a conversation: each message's role and content, resources and images included. */
export function PromptMessages({ result, onRead }: { result: unknown; onRead?: (uri: string) => void }) {
  const r = (result ?? {}) as { description?: unknown; messages?: unknown }
  const messages = Array.isArray(r.messages) ? (r.messages as { role?: unknown; content?: unknown }[]) : []
  return (
    <div className="prompt-messages" data-testid="prompt-messages">
      {typeof r.description === 'string' && <AgentText value={r.description} className="muted" />}
      {messages.map((m, i) => (
        <div key={i} className={`msg ${m.role === 'user' ? 'user' : 'agent'} prompt-message`} data-role={String(m.role)}>
          <div className="msg-head">
            <span className="msg-label">{String(m.role)}</span>
          </div>
          {Array.isArray(m.content) ? (
            <ContentBlocks blocks={m.content as Block[]} onRead={onRead} />
          ) : (
            <ContentBlock block={(m.content ?? {}) as Block} onRead={onRead} />
          )}
        </div>
      ))}
      {messages.length === 0 && <div className="muted">(no messages)</div>}
    </div>
  )
}

/**
 * The body of a conversation message that carries an MCP answer worth reading as what it is: a prompt's
 * messages, a resource's contents, a tool's content blocks. Undefined for the rest (shown as before).
 */
export function richAnswer(message: ConversationMessage): React.ReactNode | undefined {
  const meta = message.metadata
  if (!meta || message.role !== 'agent') return undefined
  if (meta.kind === 'result' && meta.method === 'prompts/get') return <PromptMessages result={meta.data} />
  if (meta.kind === 'result' && meta.method === 'resources/read')
    return <ResourceContents contents={(meta.data as { contents?: unknown } | undefined)?.contents} />
  if ((meta.kind === 'result' || meta.kind === 'error') && Array.isArray(meta.content))
    return (
      <>
        <ContentBlocks blocks={meta.content as Block[]} />
        {meta.data !== undefined && <JsonView value={meta.data} openDepth={2} />}
      </>
    )
  return undefined
}

function asJson(text: string, type: string): { value: unknown } | undefined {
  const looks = /json/i.test(type) || /^\s*[[{]/.test(text)
  if (!looks) return undefined
  try {
    return { value: JSON.parse(text) as unknown }
  } catch {
    return undefined
  }
}

function base64Bytes(base64: string): number {
  const data = base64.replace(/\s/g, '')
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding)
}

function decodeBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64.replace(/\s/g, ''))
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

function decodeText(base64: string): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(decodeBytes(base64))
  } catch {
    return undefined
  }
}

/** Saves a resource's contents as a file, named after the last part of its URI. */
function saveContent(uri: string, type: string, text: string | undefined, blob: string | undefined): void {
  let data: BlobPart
  try {
    data = text ?? decodeBytes(blob ?? '')
  } catch {
    return
  }
  const link = document.createElement('a')
  link.href = URL.createObjectURL(new Blob([data], { type: type || 'application/octet-stream' }))
  link.download = fileName(uri)
  link.click()
  // Released once the download has had time to read it.
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000)
}

function fileName(uri: string): string {
  const last = uri.split(/[/?#]/).filter(Boolean).pop() ?? 'resource'
  return last.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '') || 'resource'
}
