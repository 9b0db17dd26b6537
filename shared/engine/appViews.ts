import { randomBytes } from 'node:crypto'
import {
  APP_VIEW_SANDBOX,
  appToolUi,
  appViewAllow,
  appViewCsp,
  appViewPermissionsPolicy,
  CommandError,
  isJsonRpcMessage,
  withAppViewGuard,
  type AppViewInfo,
  type CommandInput,
  type CommandOutput,
} from '../contract'
import { readAppResource } from '../mcp/appResource'
import type { EventLog } from '../runtime/eventLog'
import { JsonRpcTap } from '../runtime/jsonRpcTap'
import { now } from '../runtime/clock'
import { deeperThan, MAX_DEPTH } from '../runtime/safeJson'
import type { SupervisedConnection } from '../runtime/supervisedConnection'

/** How many views stay open at once; opening one more closes the oldest (a UI closes its own as it goes). */
const MAX_OPEN_VIEWS = 50

interface OpenView {
  info: AppViewInfo
  html: string
  connection: SupervisedConnection
  tap: JsonRpcTap
  /** Kinds of misbehaviour already said in the log (each once per view; its frames show every instance). */
  flagged: Set<string>
  /** The size of the message being recorded, when the UI kept only its beginning. */
  wholeBytes?: number
}

type FrameInput = CommandInput<'apps.frames'>['frames'][number]

/**
 * The MCP App views the engine opened (MCP Apps, docs/architecture.md): each one's document and policy,
 * for the host that serves it on an origin of its own, and a tap that makes every message between it and
 * the UI hosting it a frame (`mcp-app` over `postMessage`) on its connection, paired and timed like any other.
 */
export class AppViews {
  private readonly views = new Map<string, OpenView>()

  constructor(
    private readonly events: EventLog,
    /** Where the host serves a view's document, when it serves them at all. */
    private readonly urlOf: ((viewId: string) => string | undefined) | undefined,
  ) {}

  /** Reads the view's resource through the connection, checks it, builds its policy, and says so in the connection's log. */
  async open(connection: SupervisedConnection, uri: string, tool?: string): Promise<AppViewInfo> {
    if (connection.protocol !== 'mcp') throw new CommandError('MCP Apps are an MCP extension: this connection is A2A', 'invalid-input')
    if (!connection.isLive) throw new CommandError(`not connected (${connection.state})`, 'failed')
    const resource = await readAppResource(
      uri,
      (u) => connection.request('resources/read', { uri: u }, { conversation: false }),
      connection.catalogEntries('resources/list'),
    )
    const viewId = randomBytes(16).toString('hex')
    const info: AppViewInfo = {
      viewId,
      connectionId: connection.id,
      uri,
      ...(tool && { tool }),
      ...(this.urlOf?.(viewId) && { url: this.urlOf(viewId) }),
      ...(resource.mimeType && { mimeType: resource.mimeType }),
      bytes: Buffer.byteLength(resource.html),
      ui: resource.ui,
      uiFrom: resource.uiFrom,
      csp: appViewCsp(resource.ui.csp),
      allow: appViewAllow(resource.ui.permissions),
      sandbox: APP_VIEW_SANDBOX,
      permissionsPolicy: appViewPermissionsPolicy(resource.ui.permissions),
      problems: resource.problems,
    }
    const view: OpenView = { info, html: resource.html, connection, tap: undefined!, flagged: new Set() }
    view.tap = new JsonRpcTap(
      'mcp-app',
      'postMessage',
      (frame) => {
        // The frame itself becomes the event (its `seq` is what the answer to a request points back to).
        const bytes = Math.max(frame.bytes, view.wholeBytes ?? 0)
        this.events.emit(Object.assign(frame, { bytes, connectionId: connection.id, view: { id: viewId, uri } }))
      },
      connection.spill,
    )
    if (this.views.size >= MAX_OPEN_VIEWS) this.close(this.views.keys().next().value!, 'too many views were open; the oldest was closed')
    this.views.set(viewId, view)
    const declared =
      info.uiFrom === 'none'
        ? 'none declared: the default'
        : `declared by the ${info.uiFrom === 'list' ? 'resources/list entry' : 'resource'}`
    this.log(
      connection,
      'info',
      `App view ${short(viewId)} opened for ${uri}${tool ? ` (tool ${tool})` : ''}: its policy (${declared}) is ${info.csp}; permissions delegated: ${info.allow || 'none'}`,
    )
    for (const problem of info.problems) this.log(connection, 'warn', `MCP Apps: ${problem}`, true)
    return info
  }

  /** An open view's document (its WebRTC guard first) and policies, for the host that serves it. */
  document(viewId: string): CommandOutput<'apps.document'> {
    const { html, info } = this.view(viewId)
    return {
      html: withAppViewGuard(html),
      csp: info.csp,
      allow: info.allow,
      sandbox: info.sandbox,
      permissionsPolicy: info.permissionsPolicy,
    }
  }

  /**
   * Messages the UI saw cross `postMessage`, in order, as frames. One that is not JSON, nested too deeply
   * or not JSON-RPC is kept as a refused frame (its text aside) and said once in the log: the UI did not
   * hand it on either.
   */
  record(viewId: string, frames: FrameInput[]): number {
    const view = this.view(viewId)
    for (const input of frames) {
      let message: unknown
      let refused = input.refused
      if (!refused) {
        try {
          message = JSON.parse(input.text)
        } catch {
          refused = 'not JSON'
        }
      }
      if (!refused && deeperThan(message, MAX_DEPTH)) refused = `nested deeper than ${MAX_DEPTH} levels`
      if (!refused && !isJsonRpcMessage(message)) refused = 'not a JSON-RPC 2.0 message'
      // The UI's clock is this machine's; a time from the future is the engine's now.
      const ts = Math.min(input.ts ?? now(), now())
      view.wholeBytes = input.bytes
      view.tap.record(input.direction, message, ts, refused, input.text)
      view.wholeBytes = undefined
      if (refused) {
        const who = input.direction === 'in' ? 'the view sent' : 'Parallax could not send the view'
        this.flag(
          view,
          `refused:${input.direction}:${refused}`,
          `${who} a message that is ${refused}; it was not handed on (its text is in the frame)`,
        )
      }
    }
    return frames.length
  }

  /**
   * A view's `tools/call`, checked against the tool's visibility first: a tool listed only for the model
   * (`_meta.ui.visibility` without "app") is refused, as the extension requires. The call itself is the
   * caller's (an inspected call: hooks, validation, recording).
   */
  checkToolCall(viewId: string, tool: string): { connection: SupervisedConnection; view: { id: string; uri: string } } {
    const view = this.view(viewId)
    const listed = view.connection.catalogEntries('tools/list')?.find((t) => (t as { name?: unknown })?.name === tool)
    const ui = appToolUi(listed)
    if (ui && !ui.visibility.includes('app')) {
      const text = `the App view of ${view.info.uri} asked to call ${tool}, which its server lists for the model only (_meta.ui.visibility ${JSON.stringify(ui.visibility)}); Parallax refused it`
      this.log(view.connection, 'warn', text)
      throw new CommandError(text, 'invalid-input')
    }
    return { connection: view.connection, view: { id: viewId, uri: view.info.uri } }
  }

  close(viewId: string, reason?: string): boolean {
    const view = this.views.get(viewId)
    if (!view) return false
    this.views.delete(viewId)
    this.log(
      view.connection,
      reason ? 'warn' : 'info',
      `App view ${short(viewId)} of ${view.info.uri} closed${reason ? `: ${reason}` : ''}`,
    )
    return true
  }

  dispose(): void {
    this.views.clear()
  }

  private view(viewId: string): OpenView {
    const view = this.views.get(viewId)
    if (!view) throw new CommandError(`no open App view ${short(viewId)} (it was closed, or never opened)`, 'not-found')
    return view
  }

  private flag(view: OpenView, kind: string, text: string): void {
    if (view.flagged.has(kind)) return
    view.flagged.add(kind)
    this.log(view.connection, 'warn', `App view ${short(view.info.viewId)} (${view.info.uri}): ${text}`, true)
  }

  private log(connection: SupervisedConnection, level: 'info' | 'warn', text: string, oddity = false): void {
    this.events.emit({ type: 'log', connectionId: connection.id, source: 'engine', level, text, ...(oddity && { oddity: true }) })
  }
}

/** A view as the log names it: the start of its id. */
function short(viewId: string): string {
  return viewId.slice(0, 8)
}
