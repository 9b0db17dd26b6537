import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { McpError, ResultSchema } from '@modelcontextprotocol/sdk/types.js'
import type { McpEra } from '../contract'
import { jsonRpcErrorWords } from '../runtime/errors'

export interface SessionRequestOptions {
  timeout?: number
  signal?: AbortSignal
  resetTimeoutOnProgress?: boolean
  onprogress?: () => void
}

/** The request timeout, and whether to ask for progress: a token the server may report against, each report (a frame) restarting the timeout. */
export function requestOptions(timeoutMs: number, progress = false): SessionRequestOptions {
  return progress ? { timeout: timeoutMs, resetTimeoutOnProgress: true, onprogress: () => {} } : { timeout: timeoutMs }
}

/** The schema the 1.x SDK checks a result against (a list's, `CallToolResultSchema`); the 2.x client checks spec results itself. */
export type ResultCheck = Parameters<Client['request']>[1]

/**
 * One negotiated MCP session, whichever SDK speaks it (docs/architecture.md, "Two SDKs, one per MCP era"): the
 * 1.x client for the 2025 era, the 2.x client for 2026-07-28 (./modernSession.ts). Failures come out alike:
 * a JSON-RPC error as the 1.x `McpError` (its code, message and data), a timeout as `RequestTimeout`, a
 * method the era does not have as a `CommandError` saying so.
 */
export interface McpSession {
  readonly era: McpEra
  readonly protocolVersion: string | undefined
  readonly serverCapabilities: Record<string, unknown>
  readonly serverInfo: { name: string; version: string; title?: string; [k: string]: unknown } | undefined
  readonly instructions: string | undefined
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: SessionRequestOptions,
    check?: ResultCheck,
  ): Promise<Record<string, unknown>>
  close(): Promise<void>
}

/** The 2025 era on the 1.x client, as Parallax always spoke it. */
export class LegacySession implements McpSession {
  readonly era = '2025'
  constructor(
    readonly client: Client,
    readonly protocolVersion: string | undefined,
  ) {}

  get serverCapabilities(): Record<string, unknown> {
    return (this.client.getServerCapabilities() ?? {}) as Record<string, unknown>
  }

  get serverInfo() {
    return this.client.getServerVersion()
  }

  get instructions() {
    return this.client.getInstructions()
  }

  async request(method: string, params: Record<string, unknown> | undefined, options: SessionRequestOptions, check?: ResultCheck) {
    const request = { method, ...(params !== undefined && { params }) } as Parameters<Client['request']>[0]
    try {
      return (await this.client.request(request, check ?? ResultSchema, options)) as Record<string, unknown>
    } catch (error) {
      throw prefixedOnce(error)
    }
  }

  close(): Promise<void> {
    return this.client.close()
  }
}

/**
 * A JSON-RPC error as the SDK threw it, its "MCP error <code>: " said once: a server built with an SDK sends
 * its error's message with the prefix already on, and the 1.x client puts it on again.
 */
export function prefixedOnce(error: unknown): unknown {
  if (error instanceof McpError) error.message = `MCP error ${error.code}: ${jsonRpcErrorWords(error.message, error.code)}`
  return error
}
