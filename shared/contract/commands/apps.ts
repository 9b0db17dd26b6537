import { z } from 'zod'
import { APP_FRAME_TEXT_MAX, type AppViewInfo } from '../apps'
import type { CallReport } from '../events'
import { ConnectionRef } from './refs'

/** An App view the engine opened (apps.open), by its id. */
const ViewRef = z.object({ viewId: z.string().regex(/^[0-9a-f]{32}$/, 'a view id as apps.open gave it') })

/** MCP App views: opened from a connection's `ui://` resource, served by the host, their messages recorded, their tool calls inspected. */
export const appViewInputs = {
  /**
   * Opens an MCP App view for a connection: reads its `ui://` resource (`resources/read`, frames only),
   * checks it is an App's HTML, and builds the policy it runs under from the metadata it declares. The
   * answer says where the host serves it (on an origin of its own) and everything a UI shows about it.
   */
  'apps.open': ConnectionRef.extend({ uri: z.string().min(1).max(4096), tool: z.string().min(1).max(500).optional() }),
  /** An open view's document and policy, for the host that serves it. */
  'apps.document': ViewRef,
  /**
   * Messages between a view and the UI hosting it, as the UI saw them cross `postMessage` (`in`: from the
   * view), in order: each becomes a frame (protocol `mcp-app`) on the view's connection. `refused`: the UI
   * did not hand the message on (too large, too deep, not JSON); `text` is then its beginning and `bytes` its size.
   */
  'apps.frames': ViewRef.extend({
    frames: z
      .array(
        z
          .object({
            direction: z.enum(['in', 'out']),
            text: z.string().max(APP_FRAME_TEXT_MAX),
            ts: z.number().optional(),
            refused: z.string().max(300).optional(),
            bytes: z.number().int().min(0).optional(),
          })
          .strict(),
      )
      .min(1)
      .max(500),
  }),
  /** A view's `tools/call`: refused for a tool its visibility keeps from views, else an inspected call like `tools.call`. */
  'apps.callTool': ViewRef.extend({ tool: z.string().min(1).max(500), arguments: z.record(z.string(), z.unknown()).default({}) }),
  /** The view is gone (torn down, or stopped for misbehaving: `reason` says why); its frames stay. */
  'apps.close': ViewRef.extend({ reason: z.string().max(500).optional() }),
} as const

export interface AppViewOutputs {
  'apps.open': AppViewInfo
  'apps.document': { html: string; csp: string; allow: string; sandbox: string; permissionsPolicy: string }
  'apps.frames': { recorded: number }
  'apps.callTool': CallReport
  'apps.close': { closed: boolean }
}
