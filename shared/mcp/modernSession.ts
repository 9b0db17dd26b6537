import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { ProtocolError, SdkError, SdkErrorCode, type Client as ModernClient } from '@modelcontextprotocol/client'
import { z } from 'zod'
import { CommandError } from '../contract'
import { jsonRpcErrorWords } from '../runtime/errors'
import type { McpSession, SessionRequestOptions } from './session'

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
  if (error instanceof ProtocolError) return new McpError(error.code, jsonRpcErrorWords(error.message, error.code), error.data)
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
