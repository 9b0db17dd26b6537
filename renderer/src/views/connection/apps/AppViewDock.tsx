import { useEffect, useRef, useState } from 'react'
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge'
import { appToolUi, type AppViewInfo } from '../../../../../shared/contract'
import { closeAppView } from '../../../store/appActions'
import { openTab } from '../../../store/actions'
import type { ConnectionView } from '../../../store/connectionView'
import { useStore, type AppViewRequest } from '../../../store/store'
import { AgentText, Name } from '../../../components/Name'
import type { ViewAsk, ViewSession } from './viewBridge'
import { openOutside, unopenable } from '../../../store/openOutside'
import './apps.css'

/** The view's height, as it reports it (`ui/notifications/size-changed`), within these bounds: the page's tabs keep their room below it. */
const MIN_HEIGHT = 80
const MAX_HEIGHT = 360

/**
 * The MCP App view of the App tool the user called on this connection, above the page's tabs (so it stays
 * while the user looks at its frames): the view itself in a sandboxed frame served from an origin of its
 * own, the policy it runs under, what it asked, and how many messages crossed between it and Parallax.
 */
export function AppViewDock({ view }: { view: ConnectionView }) {
  const request = useStore((s) => s.appViews[view.id])
  if (!request) return null
  return <AppViewPanel key={request.key} view={view} request={request} />
}

type Phase =
  { name: 'opening' } | { name: 'loading' } | { name: 'running' } | { name: 'stopped'; why: string } | { name: 'failed'; why: string }

function AppViewPanel({ view, request }: { view: ConnectionView; request: AppViewRequest }) {
  const api = useStore((s) => s.api)
  const appInfo = useStore((s) => s.info)
  const theme = useStore((s) => s.theme)
  const [opened, setOpened] = useState<AppViewInfo>()
  const [phase, setPhase] = useState<Phase>({ name: 'opening' })
  const [src, setSrc] = useState<string>()
  const [height, setHeight] = useState(160)
  const [asks, setAsks] = useState<ViewAsk[]>([])
  const [problems, setProblems] = useState<string[]>([])
  const [app, setApp] = useState<{ name: string; version: string }>()
  const [hidden, setHidden] = useState(false)
  const frame = useRef<HTMLIFrameElement>(null)
  const session = useRef<ViewSession>(undefined)
  const initialized = useRef(false)
  const delivered = useRef(false)
  const context = useRef<McpUiHostContext>(undefined)

  // Read and check the view's resource; the engine says where the host serves it.
  useEffect(() => {
    if (!api) return
    let current = true
    api.invoke('apps.open', { connectionId: request.connectionId, uri: request.uri, tool: request.tool }).then(
      (info) => {
        if (!current) return void api.invoke('apps.close', { viewId: info.viewId }).catch(() => {})
        if (!info.url) return setPhase({ name: 'failed', why: 'this host does not serve App views' })
        setOpened(info)
        setPhase({ name: 'loading' })
      },
      (error: Error) => current && setPhase({ name: 'failed', why: error.message }),
    )
    return () => {
      current = false
    }
  }, [api, request.connectionId, request.uri, request.tool])

  // The bridge first, the view's document second: its first message finds someone listening.
  useEffect(() => {
    if (!api || !opened) return
    const definition = (view.catalog['tools/list'] ?? []).find((t) => (t as { name?: string }).name === request.tool)
    context.current = hostContext(theme, definition)
    let current = true
    let running: ViewSession | undefined
    const stop = (why: string) => {
      setPhase({ name: 'stopped', why })
      setSrc(undefined)
      if (!running) return
      // Stop listening first: everything it sent until now is recorded, then the engine is told it is gone.
      void running.bridge.close().catch(() => {})
      void running.relay.flush().then(() => api.invoke('apps.close', { viewId: opened.viewId, reason: `stopped: ${why}` }).catch(() => {}))
    }
    // The bridge (the ext-apps SDK and its schemas) loads with the first view, not with the app.
    void import('./viewBridge').then(async ({ startViewBridge }) => {
      if (!current) return
      running = startViewBridge({
        api,
        info: opened,
        view: () => frame.current?.contentWindow ?? null,
        hostContext: context.current!,
        host: { name: 'Parallax', version: appInfo?.version ?? '0' },
        grantsPermissions: appInfo?.host === 'web',
        on: {
          initialized: (info) => {
            initialized.current = true
            setApp(info)
            setPhase({ name: 'running' })
          },
          resized: (h) => h !== undefined && setHeight(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(h)))),
          ask: (ask) => setAsks((list) => [...list.filter((a) => a.kind === 'link' || a.kind !== ask.kind).slice(-8), ask]),
          stop,
          problem: (text) => setProblems((list) => (list.includes(text) ? list : [...list.slice(-4), text])),
        },
      })
      session.current = running
      await running.connect()
      if (current) setSrc(opened.url)
    })
    return () => {
      current = false
      session.current = undefined
      if (!running) return void api.invoke('apps.close', { viewId: opened.viewId }).catch(() => {})
      const closing = running
      void closing.bridge.close().catch(() => {})
      void closing.relay.flush().then(() => api.invoke('apps.close', { viewId: opened.viewId }).catch(() => {}))
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one bridge per opened view; theme changes go through setHostContext below
  }, [api, opened])

  // The tool's input and result, once the view is ready and the call has come back (hooked arguments: what was sent).
  useEffect(() => {
    const running = session.current
    if (phase.name !== 'running' || !running || !request.outcome || delivered.current) return
    delivered.current = true
    const { bridge } = running
    if ('result' in request.outcome) {
      void bridge.sendToolInput({ arguments: request.outcome.arguments })
      void bridge.sendToolResult(request.outcome.result as Parameters<typeof bridge.sendToolResult>[0])
    } else {
      void bridge.sendToolInput({ arguments: request.arguments })
      void bridge.sendToolCancelled({ reason: request.outcome.failed })
    }
  }, [phase.name, request.outcome, request.arguments])

  useEffect(() => {
    if (!session.current || !context.current || context.current.theme === theme) return
    // After the page has taken the theme (the app applies it in its own effect, which runs after this one): its colours are read then.
    const timer = setTimeout(() => {
      if (!session.current || !context.current) return
      context.current = { ...context.current, theme, styles: hostStyles() }
      session.current.bridge.setHostContext(context.current) // ui/notifications/host-context-changed: what changed
    })
    return () => clearTimeout(timer)
  }, [theme])

  const close = async () => {
    const running = session.current
    if (running && initialized.current) await running.bridge.teardownResource({}, { timeout: 1000 }).catch(() => {})
    closeAppView(request.connectionId)
  }
  const messages = opened ? (view.appFrames[opened.viewId] ?? 0) : 0
  const bordered = opened?.ui.prefersBorder !== false
  return (
    <section className="app-view" data-testid="app-view" aria-label={`App view of ${request.tool}`}>
      <header className="app-view-head">
        <strong>App view</strong>
        <Name value={request.tool} className="mono" />
        <span className="mono muted app-view-uri" title="The ui:// resource the view was read from">
          {request.uri}
        </span>
        <PhaseBadge phase={phase} />
        {app && (
          <span className="muted" title="What the view says it is (ui/initialize)">
            <Name value={app.name} /> {app.version}
          </span>
        )}
        <span className="spacer" />
        <button
          className="btn ghost small"
          onClick={() => openTab('frames')}
          title="Its messages are frames of their own protocol (mcp-app, over postMessage) among the connection's"
          data-testid="app-view-frames"
        >
          {messages.toLocaleString()} message{messages === 1 ? '' : 's'} · Frames
        </button>
        <button className="btn ghost small" onClick={() => setHidden(!hidden)} aria-expanded={!hidden}>
          {hidden ? 'Show' : 'Hide'}
        </button>
        <button className="btn small" onClick={() => void close()} title="Tear the view down (ui/resource-teardown) and close it">
          Close
        </button>
      </header>
      {phase.name === 'failed' && (
        <div className="verdict bad" data-testid="app-view-error">
          The view cannot be shown: {phase.why}
        </div>
      )}
      {phase.name === 'stopped' && (
        <div className="verdict warn" data-testid="app-view-stopped">
          Parallax stopped the view: {phase.why}. Everything it sent until then is in its frames.
        </div>
      )}
      {opened && <Policy info={opened} />}
      {problems.map((p) => (
        <div key={p} className="verdict warn app-view-problem">
          {p}
        </div>
      ))}
      {opened && phase.name !== 'stopped' && phase.name !== 'failed' && (
        <div className={`app-view-frame${bordered ? ' bordered' : ''}`} hidden={hidden || !src}>
          <iframe
            ref={frame}
            src={src}
            sandbox={opened.sandbox}
            allow={opened.allow}
            referrerPolicy="no-referrer"
            title={`App view: ${request.uri}`}
            style={{ height }}
            data-testid="app-view-frame"
          />
        </div>
      )}
      <Asks asks={asks} onDone={(id) => setAsks((list) => list.filter((a) => a.id !== id))} />
    </section>
  )
}

function PhaseBadge({ phase }: { phase: Phase }) {
  const [tone, label] =
    phase.name === 'running'
      ? ['ok', 'running']
      : phase.name === 'failed'
        ? ['bad', 'failed']
        : phase.name === 'stopped'
          ? ['warn', 'stopped']
          : ['busy', phase.name === 'opening' ? 'reading its resource' : 'waiting for its handshake']
  return (
    <span className={`badge ${tone}`} data-testid="app-view-phase">
      {label}
    </span>
  )
}

/** The policy the view runs under and where it came from, what it may use, what enforces each part, and what its metadata got wrong. */
function Policy({ info }: { info: AppViewInfo }) {
  const from =
    info.uiFrom === 'resource'
      ? 'as its resource declares'
      : info.uiFrom === 'list'
        ? 'as its resources/list entry declares'
        : 'nothing declared: the default, no network'
  const webrtc = typeof RTCPeerConnection !== 'undefined'
  return (
    <details className="app-view-policy" data-testid="app-view-policy">
      <summary>
        <span className="muted">Sandboxed</span> <span className="mono">{info.sandbox}</span>
        <span className="muted"> · own origin · policy {from} · permissions </span>
        <span className="mono">{info.allow || 'none'}</span>
        {webrtc && (
          <span className="badge warn" title="No browser enforces a policy on WebRTC: open the policy to see what stands in">
            WebRTC not enforced by the browser
          </span>
        )}
        {info.problems.length > 0 && (
          <span className="badge warn">
            {info.problems.length} problem{info.problems.length === 1 ? '' : 's'}
          </span>
        )}
      </summary>
      <div className="app-view-policy-body">
        <dl className="app-view-enforced" data-testid="app-view-enforced">
          <dt>Network</dt>
          <dd>
            <span className="badge ok">enforced</span> fetch, WebSocket, scripts, styles, images, fonts, media and frames reach only the
            hosts in the policy below; the browser refuses the rest.
          </dd>
          <dt>Devices</dt>
          <dd>
            <span className="badge ok">enforced</span> camera, microphone, location, clipboard, screen capture and every other powerful
            feature:{' '}
            {info.allow ? (
              <>
                <span className="mono">{info.allow}</span> delegated, as declared
              </>
            ) : (
              'none declared, none delegated'
            )}
            ; the frame&apos;s Permissions Policy denies the rest, in the view and any frame it makes.
          </dd>
          <dt>WebRTC</dt>
          {webrtc ? (
            <dd className="verdict warn">
              <span className="badge warn">not enforced by the browser</span> WebRTC reaches any host, whatever the policy says: no browser
              enforces a policy on it (CSP&apos;s <span className="mono">webrtc &apos;block&apos;</span> is in the policy for one that does;
              Chromium ignores it). Parallax takes WebRTC out of the view, and out of the frames it makes, before their scripts run — a
              script of Parallax&apos;s, not the browser: a view that gets around it can reach hosts it did not declare.
            </dd>
          ) : (
            <dd>
              <span className="badge ok">none here</span> this browser has no WebRTC.
            </dd>
          )}
        </dl>
        <div className="section-title">Content-Security-Policy</div>
        <pre className="json app-view-csp">{info.csp.split('; ').join(';\n')}</pre>
        <div className="section-title">Permissions-Policy</div>
        <pre className="json app-view-csp">{info.permissionsPolicy}</pre>
        {info.problems.map((p) => (
          <div key={p} className="verdict warn">
            <AgentText value={p} />
          </div>
        ))}
      </div>
    </details>
  )
}

/** What the view asked of its host: links open only on a click; messages and model context are shown (Parallax has no model to give them). */
function Asks({ asks, onDone }: { asks: ViewAsk[]; onDone: (id: number) => void }) {
  if (asks.length === 0) return null
  return (
    <ul className="app-view-asks" data-testid="app-view-asks">
      {asks.map((ask) => (
        <li key={ask.id}>
          {ask.kind === 'link' ? (
            <>
              The view asks to open <span className="mono">{ask.url}</span>
              <span className="spacer" />
              {unopenable(ask.url) === undefined ? (
                <button
                  className="btn small"
                  onClick={() => {
                    ask.decide(openOutside(ask.url) === undefined)
                    onDone(ask.id)
                  }}
                >
                  Open
                </button>
              ) : (
                <span className="muted">{unopenable(ask.url)}</span>
              )}
              <button className="btn ghost small" onClick={() => (ask.decide(false), onDone(ask.id))}>
                Refuse
              </button>
            </>
          ) : (
            <>
              {ask.kind === 'message' ? 'The view adds to the conversation' : 'The view sets what the model should know'}
              <span className="muted"> (shown here: Parallax has no model)</span>: <AgentText value={ask.text} className="mono" />
            </>
          )}
        </li>
      ))}
    </ul>
  )
}

/** What the view is told about its host: theme and Parallax's colours and fonts, the tool it shows, how it is displayed. */
function hostContext(theme: 'dark' | 'light', tool: unknown): McpUiHostContext {
  return {
    theme,
    displayMode: 'inline',
    availableDisplayModes: ['inline'],
    containerDimensions: { maxHeight: MAX_HEIGHT },
    platform: 'web',
    locale: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    ...(appToolUi(tool) && { toolInfo: { tool: tool as NonNullable<McpUiHostContext['toolInfo']>['tool'] } }),
    styles: hostStyles(),
  }
}

/** Parallax's colours and fonts now, as the extension's style variables. */
function hostStyles(): NonNullable<McpUiHostContext['styles']> {
  const style = getComputedStyle(document.documentElement)
  const v = (name: string) => style.getPropertyValue(name).trim() || undefined
  return {
    variables: {
      '--color-background-primary': v('--panel'),
      '--color-background-secondary': v('--panel-2'),
      '--color-text-primary': v('--text'),
      '--color-text-secondary': v('--muted'),
      '--color-border-primary': v('--border'),
      '--color-ring-primary': v('--accent'),
      '--font-sans': v('--sans'),
      '--font-mono': v('--mono'),
    } as NonNullable<NonNullable<McpUiHostContext['styles']>['variables']>,
  }
}
