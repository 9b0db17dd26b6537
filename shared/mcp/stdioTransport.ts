import type { ChildProcess } from 'node:child_process'
import type { PassThrough } from 'node:stream'
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { OWN_PROCESS_GROUPS, startChild, stopChild } from '../runtime/childProcesses'
import { JsonLineReader, wireText } from '../runtime/lines'

export interface ServerProcessSettings {
  command: string
  args: string[]
  env: Record<string, string>
  cwd?: string
  maxMessageBytes: number
  /** How long the server has to exit once its stdin is closed, and again after SIGTERM, before SIGKILL. */
  exitGraceMs: number
  /** How the process ended (the SDK keeps only that it closed): part of every failure that follows. */
  onExit: (exit: { code: number | null; signal: string | null }) => void
}

/** The SDK transport's own state this class takes over. */
interface SdkInternals {
  _process?: ChildProcess
  _readBuffer: JsonLineReader<JSONRPCMessage>
  _stderrStream: PassThrough | null
  processReadBuffer(): void
}

/**
 * An MCP server over stdio: the SDK's transport, with the server started and ended Parallax's way. It ends
 * with Parallax (shared/runtime/childProcesses.ts); closing it gives the server `exitGraceMs` after its
 * stdin closes, then SIGTERM, then SIGKILL; the line reader is linear in a line's length (the SDK's is
 * quadratic) and keeps the text each message arrived as, and each message sent is serialised once, the
 * frame tap keeping that text.
 */
export class ServerProcessTransport extends StdioClientTransport {
  private readonly sdk = this as unknown as SdkInternals

  constructor(private readonly settings: ServerProcessSettings) {
    super({
      command: settings.command,
      args: settings.args,
      env: { ...getDefaultEnvironment(), ...settings.env },
      cwd: settings.cwd,
      stderr: 'pipe',
      maxBufferSize: settings.maxMessageBytes,
    })
    this.sdk._readBuffer = new JsonLineReader(settings.maxMessageBytes, deserializeMessage)
  }

  override async start(): Promise<void> {
    // Windows has no process groups: there the SDK's own start (which also finds `npx.cmd` and the like).
    if (OWN_PROCESS_GROUPS) await this.startInOwnGroup()
    else await super.start()
    this.sdk._process?.once('exit', (code, signal) => this.settings.onExit({ code, signal }))
  }

  /** The SDK's start, with the server in a process group of its own that ends with Parallax. */
  private startInOwnGroup(): Promise<void> {
    if (this.sdk._process) throw new Error('the server process is already started')
    const { command, args, env, cwd } = this.settings
    return new Promise((resolve, reject) => {
      const child = startChild(command, args, {
        env: { ...getDefaultEnvironment(), ...env },
        cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
      })
      this.sdk._process = child
      child.on('error', (error) => {
        reject(error)
        this.onerror?.(error)
      })
      child.on('spawn', () => resolve())
      child.on('close', () => {
        if (this.sdk._process === child) this.sdk._process = undefined
        this.onclose?.()
      })
      child.stdin!.on('error', (error) => this.onerror?.(error))
      child.stdout!.on('data', (chunk: Buffer) => {
        try {
          this.sdk._readBuffer.append(chunk)
          this.sdk.processReadBuffer()
        } catch (error) {
          this.onerror?.(error as Error)
          this.close().catch(() => {})
        }
      })
      child.stdout!.on('error', (error) => this.onerror?.(error))
      if (this.sdk._stderrStream) child.stderr!.pipe(this.sdk._stderrStream)
    })
  }

  override send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.sdk._process?.stdin
      if (!stdin) return reject(new Error('Not connected'))
      const text = JSON.stringify(message)
      wireText.set(message, text)
      if (stdin.write(`${text}\n`)) resolve()
      else stdin.once('drain', resolve)
    })
  }

  override async close(): Promise<void> {
    const child = this.sdk._process
    this.sdk._process = undefined
    if (child) await stopChild(child, this.settings.exitGraceMs)
    this.sdk._readBuffer.clear()
  }
}
