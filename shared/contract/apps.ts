/**
 * MCP Apps (`io.modelcontextprotocol/ui`, the extension's 2026-01-26 specification): a tool names a `ui://`
 * resource in `_meta.ui.resourceUri`; the host reads that HTML with `resources/read` and renders it in a
 * sandboxed frame under a CSP built from what the resource declares, and talks to it over postMessage.
 * Pure data and helpers: the engine builds a view's policy with them, the Catalog shows what they read.
 */

/** The extension's identifier, under which a client announces it (`capabilities.extensions`). */
export const MCP_APPS_EXTENSION = 'io.modelcontextprotocol/ui'
/** The one content type an App view may have. */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app'
/** What a client offers under the extension: the view types it renders. */
export const MCP_APPS_CAPABILITY = { mimeTypes: [MCP_APP_MIME_TYPE] }

/** The largest message a view may send or be sent that Parallax hands on (and records whole). */
export const APP_FRAME_TEXT_MAX = 4 * 1024 * 1024

/** The sandbox a view runs in: scripts only; no same-origin, forms, popups, top navigation or downloads. */
export const APP_VIEW_SANDBOX = 'allow-scripts'

export type AppVisibility = 'model' | 'app'

/** What a tool's `_meta.ui` says: the view it renders in, who may call it, and what is wrong with the metadata. */
export interface AppToolUi {
  resourceUri: string
  /** Who may call the tool: the agent (`model`), the tool's own view (`app`); both when the tool does not say. */
  visibility: AppVisibility[]
  /** The tool named its view only under the deprecated flat key `_meta["ui/resourceUri"]`. */
  legacyKey?: true
  problems: string[]
}

export interface AppCsp {
  connectDomains?: string[]
  resourceDomains?: string[]
  frameDomains?: string[]
  baseUriDomains?: string[]
}

export type AppPermission = 'camera' | 'microphone' | 'geolocation' | 'clipboardWrite'
export const APP_PERMISSIONS: AppPermission[] = ['camera', 'microphone', 'geolocation', 'clipboardWrite']

/** A view's declared security and rendering settings (`_meta.ui` of its resource), as far as they are usable. */
export interface AppResourceUi {
  csp?: AppCsp
  permissions?: AppPermission[]
  domain?: string
  prefersBorder?: boolean
}

/** A view as the engine opened it: what was read, the policy it runs under, and what Parallax noticed. */
export interface AppViewInfo {
  viewId: string
  connectionId: string
  uri: string
  tool?: string
  /** Where the host serves the view's document, on an origin of its own (absent on a host that renders none, e.g. the CLI). */
  url?: string
  mimeType?: string
  bytes: number
  /** The metadata the policy was built from, and where it came from. */
  ui: AppResourceUi
  uiFrom: 'resource' | 'list' | 'none'
  /** The Content-Security-Policy the view document is served with. */
  csp: string
  /** The frame's `allow` attribute (the permissions it delegates) and `sandbox` attribute. */
  allow: string
  sandbox: string
  /** The `Permissions-Policy` the view document is served with: every powerful feature it did not declare, forbidden. */
  permissionsPolicy: string
  /** Metadata that could not be honoured or breaks the extension's rules: each a sentence. */
  problems: string[]
}

/** A JSON-RPC 2.0 request, notification or response, by its shape: what a view may send its host. */
export function isJsonRpcMessage(value: unknown): boolean {
  if (!isRecord(value) || value.jsonrpc !== '2.0') return false
  const id = value.id
  const hasId = typeof id === 'string' || typeof id === 'number'
  if (typeof value.method === 'string') return id === undefined || hasId
  return (hasId || id === null) && (value.result !== undefined) !== (value.error !== undefined)
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The App metadata of a listed tool, or undefined when it names no view. */
export function appToolUi(tool: unknown): AppToolUi | undefined {
  const meta = isRecord(tool) && isRecord(tool._meta) ? tool._meta : undefined
  if (!meta) return undefined
  const ui = isRecord(meta.ui) ? meta.ui : undefined
  const nested = ui?.resourceUri
  const flat = meta['ui/resourceUri']
  const uri = typeof nested === 'string' ? nested : typeof flat === 'string' ? flat : undefined
  if (uri === undefined) return undefined
  const problems: string[] = []
  if (!uri.startsWith('ui://')) problems.push(`its view ${JSON.stringify(uri.slice(0, 200))} is not a ui:// resource`)
  if (typeof nested === 'string' && typeof flat === 'string' && nested !== flat)
    problems.push(`_meta.ui.resourceUri and the deprecated _meta["ui/resourceUri"] name different views; the first is used`)
  let visibility: AppVisibility[] = ['model', 'app']
  if (ui?.visibility !== undefined) {
    const listed = Array.isArray(ui.visibility) ? ui.visibility : []
    visibility = listed.filter((v): v is AppVisibility => v === 'model' || v === 'app')
    if (!Array.isArray(ui.visibility) || visibility.length !== listed.length)
      problems.push(`_meta.ui.visibility ${JSON.stringify(ui.visibility)} is not a list of "model" and "app"`)
  }
  return { resourceUri: uri, visibility, ...(typeof nested !== 'string' && { legacyKey: true as const }), problems }
}

/**
 * Where a view may load from or connect to: an origin (scheme, host with an optional `*.` wildcard, port)
 * and an optional path, nothing else — a declared value goes into a policy header, so one that could
 * carry another directive (`;`, `,`, a quote, a space) or widen the policy to everything (`*`) is refused.
 */
const SOURCE = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:(\d{1,5}|\*))?(\/[\w\-.~%!$&()*+=:@/]*)?$/i

const CSP_LISTS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const

/** A resource's `_meta.ui` as far as it is usable, and why any of it was set aside. */
export function appResourceUi(meta: unknown): { ui: AppResourceUi; problems: string[] } {
  const problems: string[] = []
  const ui: AppResourceUi = {}
  const source = isRecord(meta) && isRecord(meta.ui) ? meta.ui : undefined
  if (!source) return { ui, problems }
  if (source.csp !== undefined) {
    if (!isRecord(source.csp)) problems.push('_meta.ui.csp is not an object; the default policy applies')
    else {
      const csp: AppCsp = {}
      for (const list of CSP_LISTS) {
        const given = source.csp[list]
        if (given === undefined) continue
        if (!Array.isArray(given)) {
          problems.push(`_meta.ui.csp.${list} is not a list; ignored`)
          continue
        }
        const kept = given.filter((d): d is string => typeof d === 'string' && d.length <= 500 && SOURCE.test(d)).slice(0, 50)
        const refused = given.filter((d) => !kept.includes(d as string))
        if (refused.length)
          problems.push(
            `_meta.ui.csp.${list}: ${refused
              .slice(0, 5)
              .map((d) => JSON.stringify(typeof d === 'string' ? d.slice(0, 100) : d))
              .join(
                ', ',
              )}${refused.length > 5 ? ` and ${refused.length - 5} more` : ''} ${refused.length === 1 ? 'is' : 'are'} not an origin (scheme://host[:port]); left out of the policy`,
          )
        if (kept.length) csp[list] = kept
      }
      ui.csp = csp
    }
  }
  if (source.permissions !== undefined) {
    if (!isRecord(source.permissions)) problems.push('_meta.ui.permissions is not an object; no permission is delegated')
    else {
      const asked = Object.keys(source.permissions)
      ui.permissions = APP_PERMISSIONS.filter((p) => asked.includes(p))
      const unknown = asked.filter((p) => !(APP_PERMISSIONS as string[]).includes(p))
      if (unknown.length) problems.push(`_meta.ui.permissions: ${unknown.slice(0, 5).join(', ')} is none of ${APP_PERMISSIONS.join(', ')}`)
    }
  }
  if (typeof source.domain === 'string') ui.domain = source.domain.slice(0, 300)
  if (typeof source.prefersBorder === 'boolean') ui.prefersBorder = source.prefersBorder
  return { ui, problems }
}

/**
 * The policy a view document is served with: the extension's restrictive default, widened only by the
 * origins the resource declared (its specification's "CSP construction"), with `sandbox allow-scripts`
 * so the document gets an origin of its own (opaque) however it is opened. Network access is `'none'`
 * unless declared.
 */
export function appViewCsp(csp: AppCsp | undefined): string {
  const list = (values: string[] | undefined) => (values?.length ? ` ${values.join(' ')}` : '')
  const resources = list(csp?.resourceDomains)
  return [
    `sandbox ${APP_VIEW_SANDBOX}`,
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline'${resources}`,
    `style-src 'self' 'unsafe-inline'${resources}`,
    `img-src 'self' data:${resources}`,
    `font-src 'self'${resources}`,
    `media-src 'self' data:${resources}`,
    `connect-src${list(csp?.connectDomains) || " 'none'"}`,
    `frame-src${list(csp?.frameDomains) || " 'none'"}`,
    "object-src 'none'",
    `base-uri${list(csp?.baseUriDomains) || " 'self'"}`,
    // CSP3's WebRTC directive: a view declares no WebRTC. No browser enforces it yet (Chromium ignores it,
    // saying so in the view's console); the view's guard (APP_VIEW_WEBRTC_GUARD) stands in meanwhile.
    "webrtc 'block'",
  ].join('; ')
}

const POLICY_FEATURES: Record<AppPermission, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
}

/** The frame's `allow` attribute: the Permissions Policy features the resource asked for, delegated to the view alone. */
export function appViewAllow(permissions: AppPermission[] | undefined): string {
  return (permissions ?? []).map((p) => POLICY_FEATURES[p]).join('; ')
}

/**
 * The powerful features a view's document is denied unless it declared them (`Permissions-Policy`; the
 * names Chromium knows, so the header holds no name it would complain of). A view that declared none of
 * them gets none, whatever the default of each feature, and no frame it makes can get one either.
 */
const POLICY_DENIED = [
  'accelerometer',
  'autoplay',
  'browsing-topics',
  'camera',
  'captured-surface-control',
  'clipboard-read',
  'clipboard-write',
  'compute-pressure',
  'deferred-fetch',
  'deferred-fetch-minimal',
  'digital-credentials-create',
  'digital-credentials-get',
  'display-capture',
  'encrypted-media',
  'fullscreen',
  'gamepad',
  'geolocation',
  'gyroscope',
  'hid',
  'identity-credentials-get',
  'idle-detection',
  'keyboard-map',
  'language-detector',
  'local-fonts',
  'local-network',
  'local-network-access',
  'loopback-network',
  'magnetometer',
  'microphone',
  'midi',
  'otp-credentials',
  'payment',
  'picture-in-picture',
  'private-state-token-issuance',
  'private-state-token-redemption',
  'publickey-credentials-create',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'speaker-selection',
  'storage-access',
  'summarizer',
  'sync-xhr',
  'translator',
  'unload',
  'usb',
  'window-management',
  'xr-spatial-tracking',
]

/** The view document's `Permissions-Policy`: every feature above denied but those the resource declared (the frame's `allow` delegates those). */
export function appViewPermissionsPolicy(permissions: AppPermission[] | undefined): string {
  const declared = new Set((permissions ?? []).map((p) => POLICY_FEATURES[p]))
  return POLICY_DENIED.filter((feature) => !declared.has(feature))
    .map((feature) => `${feature}=()`)
    .join(', ')
}

/**
 * What no browser lets a policy forbid yet, taken out of a view before its own scripts run: WebRTC, which
 * reaches any host whatever `connect-src` says (CSP3's `webrtc 'block'` is in the policy, and Chromium does
 * not enforce it). It removes the constructors that open peer connections, in the view and in every frame
 * it makes of its own (`srcdoc`, where the guard is put first again; a frame from elsewhere is refused by
 * `frame-src`, or is a declared host's). A script, not the browser: the Apps panel says so.
 */
export const APP_VIEW_WEBRTC_GUARD = `<script>(() => {
  const guard = document.currentScript ? document.currentScript.outerHTML : ''
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCIceTransport']) {
    try { Object.defineProperty(window, name, { value: undefined, writable: false, configurable: false }) } catch {}
  }
  const fix = (frame) => {
    const doc = frame.getAttribute('srcdoc')
    if (doc !== null && !doc.startsWith(guard)) frame.setAttribute('srcdoc', guard + doc)
  }
  const scan = (root) => {
    if (root.nodeType !== 1 && root.nodeType !== 11) return
    if (root.localName === 'iframe') fix(root)
    for (const frame of root.querySelectorAll('iframe')) fix(frame)
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) watch(el.shadowRoot)
  }
  const observer = new MutationObserver((records) => {
    for (const r of records) r.type === 'attributes' ? r.target.localName === 'iframe' && fix(r.target) : r.addedNodes.forEach(scan)
  })
  const watch = (root) => observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['srcdoc'] })
  const attach = Element.prototype.attachShadow
  Element.prototype.attachShadow = function (init) { const root = attach.call(this, init); watch(root); return root }
  watch(document)
})()</script>`

/** A view's document as Parallax serves it: the WebRTC guard first, before anything of the view's own (after a doctype, which must lead). */
export function withAppViewGuard(html: string): string {
  const doctype = /^(?:\uFEFF)?\s*(?:<!--[\s\S]*?-->\s*)*<!doctype[^>]*>/i.exec(html)
  const at = doctype ? doctype[0].length : 0
  return `${html.slice(0, at)}${APP_VIEW_WEBRTC_GUARD}${html.slice(at)}`
}
