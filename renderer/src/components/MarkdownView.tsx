import type { ReactNode } from 'react'
import ReactMarkdown, { type Components } from 'react-markdown'
import { visibleName, visibleText } from '../../../shared/contract'
import { openOutside, unopenable } from '../store/openOutside'

/*
 * Markdown an agent sent, rendered as React elements (react-markdown: never an HTML string). What could run,
 * load or mislead does not: raw HTML is shown as code, images are not fetched (their address is said
 * instead), a link shows its address and opens only on a click, in the system browser, only as the one rule
 * for opening addresses allows (openOutside: https, or http to this machine), and hidden characters are marked.
 */

/** Markdown rendered safely (see the top of this file). */
export default function MarkdownView({ text }: { text: string }) {
  return (
    <div className="markdown" data-testid="markdown">
      <ReactMarkdown remarkPlugins={[htmlAsCode]} rehypePlugins={[markHiddenCharacters]} components={COMPONENTS} urlTransform={keepUrl}>
        {text}
      </ReactMarkdown>
    </div>
  )
}

/** Addresses reach the components below as written: they show them, and decide what may be opened. */
const keepUrl = (url: string) => url

const COMPONENTS: Components = {
  a: ({ href, children }) => <Link href={href ?? ''}>{children}</Link>,
  img: ({ src, alt }) => <NotLoadedImage src={typeof src === 'string' ? src : ''} alt={alt ?? ''} />,
  // Classed, so that a pane's own heading styles (a card's h3) do not apply to the agent's.
  h1: ({ children }) => <h1 className="markdown-heading">{children}</h1>,
  h2: ({ children }) => <h2 className="markdown-heading">{children}</h2>,
  h3: ({ children }) => <h3 className="markdown-heading">{children}</h3>,
  h4: ({ children }) => <h4 className="markdown-heading">{children}</h4>,
  h5: ({ children }) => <h5 className="markdown-heading">{children}</h5>,
  h6: ({ children }) => <h6 className="markdown-heading">{children}</h6>,
}

/** A link: its text, and its address beside it; a click opens it in the system browser where the one rule allows (openOutside). */
function Link({ href, children }: { href: string; children: ReactNode }) {
  const refused = unopenable(href)
  return (
    <span className="markdown-link" data-href={href}>
      {!refused ? (
        <button type="button" className="link-button" title={`Open ${href} in your browser`} onClick={() => openOutside(href)}>
          {children}
        </button>
      ) : (
        <span className="markdown-link-text" title={refused}>
          {children}
        </span>
      )}{' '}
      <span className="markdown-url">({visibleName(href)})</span>
    </span>
  )
}

/** An image in markdown is not fetched (a remote address would learn that, and when, the result was read): its address is said. */
function NotLoadedImage({ src, alt }: { src: string; alt: string }) {
  return (
    <span className="markdown-image" data-src={src} title="Images in markdown are not loaded">
      image{alt && <>: {visibleText(alt)}</>} <span className="markdown-url">({visibleName(src)}, not loaded)</span>
    </span>
  )
}

/** An mdast or hast node, as far as the two plugins below read it. */
interface TreeNode {
  type: string
  value?: string
  tagName?: string
  properties?: Record<string, unknown>
  children?: TreeNode[]
}

/** Nodes whose children are inline (phrasing) content: raw HTML among them becomes inline code, elsewhere a code block. */
const PHRASING_PARENTS = new Set(['paragraph', 'heading', 'emphasis', 'strong', 'delete', 'link', 'linkReference', 'tableCell'])

/** A remark plugin: raw HTML in the markdown is shown as code, never rendered. */
function htmlAsCode() {
  return (tree: TreeNode) => {
    const visit = (node: TreeNode) => {
      for (const child of node.children ?? []) {
        if (child.type === 'html') child.type = PHRASING_PARENTS.has(node.type) ? 'inlineCode' : 'code'
        else visit(child)
      }
    }
    visit(tree)
  }
}

const HIDDEN_MARK = /(⟨U\+[0-9A-F]{4,6}⟩)/

/** A rehype plugin: hidden characters in text (bidirectional overrides, zero-width characters) shown as ⟨U+XXXX⟩ and marked, as `AgentText` does. */
function markHiddenCharacters() {
  return (tree: TreeNode) => {
    const visit = (node: TreeNode) => {
      if (!node.children) return
      node.children = node.children.flatMap((child) => {
        if (child.type !== 'text' || child.value === undefined) return (visit(child), [child])
        const shown = visibleText(child.value)
        if (shown === child.value) return [child]
        return shown
          .split(HIDDEN_MARK)
          .filter(Boolean)
          .map((part): TreeNode =>
            HIDDEN_MARK.test(part)
              ? { type: 'element', tagName: 'mark', properties: { className: ['hidden-char'] }, children: [{ type: 'text', value: part }] }
              : { type: 'text', value: part },
          )
      })
    }
    visit(tree)
  }
}
