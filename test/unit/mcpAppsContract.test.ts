import { describe, expect, it } from 'vitest'
import {
  APP_VIEW_WEBRTC_GUARD,
  appResourceUi,
  appToolUi,
  appViewAllow,
  appViewCsp,
  appViewPermissionsPolicy,
  isJsonRpcMessage,
  withAppViewGuard,
} from '../../shared/contract'

describe('MCP Apps metadata as Parallax reads it', () => {
  it("reads a tool's view, old key or new, and who may call it", () => {
    expect(appToolUi({ name: 'plain' })).toBeUndefined()
    expect(appToolUi({ _meta: { 'ui/resourceUri': 'ui://a/v.html' } })).toEqual({
      resourceUri: 'ui://a/v.html',
      visibility: ['model', 'app'],
      legacyKey: true,
      problems: [],
    })
    expect(appToolUi({ _meta: { ui: { resourceUri: 'ui://a/v.html', visibility: ['app'] } } })?.visibility).toEqual(['app'])
    const odd = appToolUi({
      _meta: { ui: { resourceUri: 'https://x.example/v.html', visibility: ['everyone'] }, 'ui/resourceUri': 'ui://b' },
    })!
    expect(odd.visibility).toEqual([])
    expect(odd.problems).toEqual([
      'its view "https://x.example/v.html" is not a ui:// resource',
      '_meta.ui.resourceUri and the deprecated _meta["ui/resourceUri"] name different views; the first is used',
      '_meta.ui.visibility ["everyone"] is not a list of "model" and "app"',
    ])
  })

  it('keeps only origins in a policy: nothing that could add a directive or allow everything', () => {
    const { ui, problems } = appResourceUi({
      ui: {
        csp: {
          connectDomains: [
            'https://api.example.com',
            'wss://*.example.com:443',
            "'self'",
            '*',
            'https://a.example.com https://b.example.com',
          ],
          resourceDomains: ['https://cdn.example.com/lib/', 'https://x.example.com;script-src *', 'javascript:alert(1)', 42],
          frameDomains: 'https://embed.example.com',
        },
        permissions: { microphone: {}, camera: {}, teleport: {} },
      },
    })
    expect(ui.csp).toEqual({
      connectDomains: ['https://api.example.com', 'wss://*.example.com:443'],
      resourceDomains: ['https://cdn.example.com/lib/'],
    })
    expect(ui.permissions).toEqual(['camera', 'microphone'])
    expect(problems).toHaveLength(4)
    const csp = appViewCsp(ui.csp)
    expect(csp).toBe(
      "sandbox allow-scripts; default-src 'none'; script-src 'self' 'unsafe-inline' https://cdn.example.com/lib/; " +
        "style-src 'self' 'unsafe-inline' https://cdn.example.com/lib/; img-src 'self' data: https://cdn.example.com/lib/; " +
        "font-src 'self' https://cdn.example.com/lib/; media-src 'self' data: https://cdn.example.com/lib/; " +
        "connect-src https://api.example.com wss://*.example.com:443; frame-src 'none'; object-src 'none'; base-uri 'self'; " +
        "webrtc 'block'",
    )
    expect(appViewAllow(ui.permissions)).toBe('camera; microphone')
    // The document's own Permissions Policy denies every powerful feature but the two it declared.
    const denied = appViewPermissionsPolicy(ui.permissions).split(', ')
    expect(denied).toEqual(expect.arrayContaining(['geolocation=()', 'clipboard-write=()', 'display-capture=()', 'sync-xhr=()', 'usb=()']))
    expect(denied.some((d) => d.startsWith('camera') || d.startsWith('microphone'))).toBe(false)
  })

  it('serves a view with its WebRTC guard first: after a doctype (which must lead), else before anything', () => {
    expect(withAppViewGuard('<!DOCTYPE html><html><script>app()</script>')).toBe(
      `<!DOCTYPE html>${APP_VIEW_WEBRTC_GUARD}<html><script>app()</script>`,
    )
    expect(withAppViewGuard('\uFEFF<!-- built --> <!doctype html>\n<p>x')).toBe(
      `\uFEFF<!-- built --> <!doctype html>${APP_VIEW_WEBRTC_GUARD}\n<p>x`,
    )
    expect(withAppViewGuard('<script>app()</script>')).toBe(`${APP_VIEW_WEBRTC_GUARD}<script>app()</script>`)
  })

  it('without metadata, the restrictive default: no network, no frames', () => {
    expect(appResourceUi(undefined)).toEqual({ ui: {}, problems: [] })
    expect(appViewCsp(undefined)).toContain("connect-src 'none'; frame-src 'none'")
    expect(appViewAllow(undefined)).toBe('')
  })

  it('tells a JSON-RPC message from anything else a view may post', () => {
    expect(isJsonRpcMessage({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} })).toBe(true)
    expect(isJsonRpcMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized' })).toBe(true)
    expect(isJsonRpcMessage({ jsonrpc: '2.0', id: 'a', result: {} })).toBe(true)
    expect(isJsonRpcMessage({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'x' } })).toBe(true)
    for (const garbage of [
      'text',
      null,
      [],
      { hello: 'world' },
      { jsonrpc: '1.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 1 },
      { jsonrpc: '2.0', id: 1, result: {}, error: {} },
      { jsonrpc: '2.0', id: {}, method: 'x' },
    ])
      expect(isJsonRpcMessage(garbage)).toBe(false)
  })
})
