import { AppBridge, type McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge'
import type { AppViewInfo, CallReport, ParallaxApi } from '../../../../../shared/contract'
import { FLOOD_PER_SECOND, FrameRelay } from './frameRelay'
import { ViewTransport } from './viewTransport'

/** What a view asked of its host that a person should see: a link to open, a message for the conversation, context for the model. */
export type ViewAsk =
  | { kind: 'link'; id: number; url: string; decide: (open: boolean) => void }
  | { kind: 'message'; id: number; text: string }
  | { kind: 'context'; id: number; text: string }

export interface ViewEvents {
  /** The view finished its handshake (`ui/notifications/initialized`). */
  initialized(app: { name: string; version: string } | undefined): void
  /** The view's content changed size. */
  resized(height: number | undefined): void
  ask(ask: ViewAsk): void
  /** The view must go: it flooded, or asked to be torn down; `why` says which. */
  stop(why: string): void
  /** Something went wrong that the user should know (a refused message, frames not recorded). */
  problem(text: string): void
}

/** One view's bridge, its relay of frames, and how to start it. */
export interface ViewSession {
  bridge: AppBridge
  relay: FrameRelay
  connect: () => Promise<void>
}

type CallToolResult = Awaited<ReturnType<NonNullable<AppBridge['oncalltool']>>>
type ReadResourceResult = Awaited<ReturnType<NonNullable<AppBridge['onreadresource']>>>

/**
 * The host side of one MCP App view, with the ext-apps app bridge: its handshake, the tool input and
 * result it is sent, and what it asks. Parallax does nothing for a view itself: its tool calls are the
 * engine's inspected calls (`apps.callTool`: visibility, hooks, validation, recording), its resource
 * reads the engine's requests; every message either way is a frame (the relay). A view may not list the
 * server's tools, resources or prompts, sample, or download: Parallax does not offer them.
 */
export function startViewBridge(options: {
  api: ParallaxApi
  info: AppViewInfo
  view: () => Window | null
  hostContext: McpUiHostContext
  host: { name: string; version: string }
  grantsPermissions: boolean
  on: ViewEvents
}): ViewSession {
  const { api, info, on } = options
  const relay = new FrameRelay(
    api,
    info.viewId,
    () => on.stop(`it sent more than ${FLOOD_PER_SECOND} messages within a second`),
    (count, why) => on.problem(`${count} message${count === 1 ? '' : 's'} could not be recorded: ${why}`),
  )
  const transport = new ViewTransport(options.view, relay, (why) =>
    on.problem(`the view sent a message that is ${why}; it was not handed on`),
  )
  const bridge = new AppBridge(
    null,
    options.host,
    {
      serverTools: {},
      serverResources: {},
      logging: {},
      openLinks: {},
      message: { text: {} },
      updateModelContext: { text: {}, structuredContent: {} },
      sandbox: {
        ...(info.ui.csp && { csp: info.ui.csp }),
        ...(options.grantsPermissions && info.ui.permissions?.length && { permissions: permissionsOf(info.ui.permissions) }),
      },
    },
    { hostContext: options.hostContext },
  )
  let asks = 0
  bridge.oncalltool = async (params) => {
    await relay.flush() // the view's request is on record before the call it asks for
    const report = await api.invoke('apps.callTool', { viewId: info.viewId, tool: params.name, arguments: params.arguments ?? {} })
    return resultOf(report)
  }
  bridge.onreadresource = async (params) => {
    await relay.flush()
    const answer = await api.invoke('connections.request', {
      connectionId: info.connectionId,
      method: 'resources/read',
      params: params as Record<string, unknown>,
      conversation: false,
    })
    if (answer.outcome === 'result') return answer.result as ReadResourceResult
    throw new Error(answer.outcome === 'error' ? answer.error.message : answer.reason)
  }
  bridge.onopenlink = ({ url }) =>
    new Promise((resolve) => on.ask({ kind: 'link', id: ++asks, url, decide: (open) => resolve(open ? {} : { isError: true }) }))
  bridge.onmessage = async ({ content }) => {
    on.ask({ kind: 'message', id: ++asks, text: textOf(content) })
    return {}
  }
  bridge.onupdatemodelcontext = async ({ content, structuredContent }) => {
    on.ask({ kind: 'context', id: ++asks, text: structuredContent ? JSON.stringify(structuredContent) : textOf(content ?? []) })
    return {}
  }
  bridge.addEventListener('initialized', () => on.initialized(bridge.getAppVersion()))
  bridge.addEventListener('sizechange', ({ height }) => on.resized(height))
  bridge.addEventListener('requestteardown', () => on.stop('it asked to be closed'))
  return { bridge, relay, connect: () => bridge.connect(transport) }
}

/** A call's report as the view's `tools/call` answer: the tool's result, or an error that says why there is none. */
function resultOf(report: CallReport): CallToolResult {
  if (report.hookError) throw new Error(`the hook refused the call: ${report.hookError.message}`)
  if (!report.sent) throw new Error('Parallax did not send the call')
  if (report.error !== undefined || report.response === undefined) throw new Error(report.error ?? 'no answer')
  return report.response as CallToolResult
}

function textOf(content: unknown[]): string {
  return content
    .map((block) => {
      const b = block as { type?: string; text?: unknown }
      return b.type === 'text' && typeof b.text === 'string' ? b.text : `[${b.type ?? 'content'}]`
    })
    .join('\n')
}

function permissionsOf(granted: string[]): Record<string, object> {
  return Object.fromEntries(granted.map((p) => [p, {}]))
}
