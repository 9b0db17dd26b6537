import { protocol } from 'electron'
import { CommandError } from '../../shared/contract'
import type { Engine } from '../../shared/engine/engine'

/** The scheme MCP App views are served on: `parallax-view://<view id>/`, so each view is an origin of its own. */
export const VIEW_SCHEME = 'parallax-view'

/** Where one view's document is (the engine's `appViewUrl`). */
export function viewUrl(viewId: string): string {
  return `${VIEW_SCHEME}://${viewId}/`
}

/** Must run before the app is ready: a standard, secure scheme gets real origins (one per view id) and a policy like https. */
export function registerViewScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: VIEW_SCHEME, privileges: { standard: true, secure: true } }])
}

/**
 * Serves each open view's document with its policy (`sandbox allow-scripts`: an opaque origin however it
 * is opened) and `frame-ancestors` naming only the UI's page, so nothing else can frame it. The UI's page
 * is a file:// page, another origin; the view reaches Parallax only by `postMessage` to its parent, and
 * has no preload (the bridge to the engine is the main frame's alone, and the IPC guard checks it).
 */
export function serveViews(engine: Engine, rendererUrl: string): void {
  const ancestors = rendererUrl.startsWith('file:') ? 'file:' : new URL(rendererUrl).origin
  protocol.handle(VIEW_SCHEME, async (request) => {
    const url = new URL(request.url)
    if (request.method !== 'GET' || url.pathname !== '/' || !/^[0-9a-f]{32}$/.test(url.hostname))
      return new Response('Parallax: not a view.\n', { status: 404 })
    try {
      const document = await engine.invoke('apps.document', { viewId: url.hostname })
      return new Response(document.html, {
        headers: {
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Security-Policy': `${document.csp}; frame-ancestors ${ancestors}`,
          'Permissions-Policy': document.permissionsPolicy,
          'X-Content-Type-Options': 'nosniff',
          'Cache-Control': 'no-store',
        },
      })
    } catch (error) {
      const gone = error instanceof CommandError && error.code === 'not-found'
      return new Response(gone ? 'Parallax: no such view (it was closed).\n' : 'Parallax: the view cannot be served.\n', {
        status: gone ? 404 : 500,
      })
    }
  })
}
