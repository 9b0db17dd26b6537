import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { CommandError, paramHeaderValues, scanParamHeaders } from '../contract'

/**
 * The `Mcp-Param-*` headers of an outgoing `tools/call` over streamable HTTP in the 2026 era (SEP-2243),
 * built from the tool's schema as the last `tools/list` gave it (none when the tool was never listed: the
 * spec's "send without"). A tool whose `x-mcp-header` declarations are invalid is one the spec has a client
 * exclude: calling it is refused, saying why, and nothing is sent.
 */
export function toolCallHeaders(message: JSONRPCMessage, listed: unknown[] | undefined): Record<string, string> | undefined {
  const request = message as { method?: unknown; params?: { name?: unknown; arguments?: unknown } }
  if (request.method !== 'tools/call' || typeof request.params?.name !== 'string') return undefined
  const name = request.params.name
  const tool = listed?.find((t) => (t as { name?: unknown } | null)?.name === name) as { inputSchema?: unknown } | undefined
  if (!tool) return undefined
  const scan = scanParamHeaders(tool.inputSchema)
  if (!scan.valid)
    throw new CommandError(
      `tool "${name}" is excluded: its x-mcp-header declaration is invalid (${scan.problem}); MCP 2026-07-28 has a client on streamable HTTP exclude such a tool, so Parallax does not call it`,
      'invalid-input',
    )
  const headers = paramHeaderValues(scan.headers, request.params.arguments)
  return Object.keys(headers).length ? headers : undefined
}
