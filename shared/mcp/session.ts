import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ErrorCode, McpError, ResultSchema } from '@modelcontextprotocol/sdk/types.js'
import { ProtocolError, SdkError, SdkErrorCode, type Client as ModernClient } from '@modelcontextprotocol/client'
import { z } from 'zod'
import { CommandError, type McpEra } from '../contract'

export interface SessionRequestOptions {
  timeout?: number
  signal?: AbortSignal
  resetTimeoutOnProgress?: boolean
  onprogress?: () => void
}

/** The schema the 1.x SDK checks a result against (a list's, `CallToolResultSchema`); the 2.x client checks spec results itself. */
export type ResultCheck = Parameters<Client['request']>[1]

/**
 * One negotiated MCP session, whichever SDK speaks it (docs/architecture.md, "Two SDKs, one per era"): the
 * 1.x client for the 2025 era, the 2.x client for 2026-07-28. Failures come out alike: a JSON-RPC error as
 * the 1.x `McpError` (its code, message and data), a timeout as `RequestTimeout`, a method the era does
 * not have as a `CommandError` saying so.
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
    return (await this.client.request(request, check ?? ResultSchema, options)) as Record<string, unknown>
  }

  close(): Promise<void> {
    return this.client.close()
  }
}

/** Any JSON object: the result schema for a method the 2.x client has no schema of its own for (an extension's). */
const ANY_RESULT = z.looseObject({})

/** The 2026 era on the 2.x client, negotiated through `server/discover`. */
export class ModernSession implements McpSession {
  readonly era = '2026'
  constructor(readonly client: ModernClient) {}

  get protocolVersion() {
    return this.client.getNegotiatedProtocolVersion()
  }

  get serverCapabilities(): Record<string, unknown> {
    return (this.client.getServerCapabilities() ?? {}) as Record<string, unknown>
  }

  get serverInfo() {
    return this.client.getServerVersion()
  }

  get instructions() {
    return this.client.getInstructions()
  }

  /** Not async: a method the era does not have is refused at once (thrown), before the caller records anything as sent. */
  request(method: string, params: Record<string, unknown> | undefined, options: SessionRequestOptions): Promise<Record<string, unknown>> {
    const request = { method, ...(params !== undefined && { params }) }
    const send = this.client.request as (request: unknown, schemaOrOptions: unknown, options?: unknown) => Promise<unknown>
    let answer: Promise<unknown>
    try {
      try {
        answer = send.call(this.client, request, options)
      } catch (error) {
        // A method outside the spec (an extension's) needs a result schema of the caller's: any object will do.
        if (!(error instanceof TypeError)) throw error
        answer = send.call(this.client, request, ANY_RESULT, options)
      }
    } catch (error) {
      throw legacyShaped(error, method, this.protocolVersion)
    }
    return answer.then(
      (result) => result as Record<string, unknown>,
      (error: unknown) => {
        throw legacyShaped(error, method, this.protocolVersion)
      },
    )
  }

  close(): Promise<void> {
    return this.client.close()
  }
}

/** A 2.x failure in the shape the rest of the engine reads (the 1.x SDK's), so both eras are judged alike. */
function legacyShaped(error: unknown, method: string, version: string | undefined): unknown {
  if (error instanceof ProtocolError) return new McpError(error.code, error.message, error.data)
  if (error instanceof SdkError) {
    if (error.code === SdkErrorCode.MethodNotSupportedByProtocolVersion)
      return new CommandError(
        `${method} is not a method of MCP ${version ?? '2026-07-28'}, the version this session negotiated (the 2026 era has no ${method}); nothing was sent`,
        'invalid-input',
      )
    if (error.code === SdkErrorCode.RequestTimeout) return new McpError(ErrorCode.RequestTimeout, error.message)
    if (error.code === SdkErrorCode.ConnectionClosed) return new McpError(ErrorCode.ConnectionClosed, error.message)
  }
  return error
}
