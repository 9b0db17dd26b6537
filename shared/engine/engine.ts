import { join } from 'node:path'
import {
  CommandError,
  ConnectionOptions,
  DEFAULT_CONNECTION_OPTIONS,
  isCommandName,
  parseCommandInput,
  type AppInfo,
  type CommandName,
  type CommandOutput,
  type SavedTarget,
} from '../contract'
import { demoTargets } from '../demo/targets'
import { McpConnection } from '../mcp/mcpConnection'
import { PARALLAX_VERSION } from '../version'
import { EventLog } from './eventLog'
import type { SupervisedConnection } from './supervisedConnection'
import { TargetStore } from './targetStore'

export interface EngineOptions {
  host: AppInfo['host'] | 'cli'
  /** Where saved targets persist; omit for an in-memory engine. */
  dataDir?: string
  /** Where `shared/` and `node_modules/` live, for spawning the demo servers (Electron passes its app path). */
  appRoot?: string
  /** Connection defaults for every target (a target's own options override them). */
  defaults?: Partial<ConnectionOptions>
}

/**
 * The one engine every host drives. It owns targets and connections, and turns everything that
 * happens into events on `events`. Hosts call `execute` with untrusted input; it is validated here.
 */
export class Engine {
  readonly events = new EventLog()
  readonly targets: TargetStore
  private readonly connections = new Map<string, SupervisedConnection>()
  private readonly defaults: ConnectionOptions
  private nextConnection = 0

  constructor(private readonly options: EngineOptions) {
    this.defaults = ConnectionOptions.parse({ ...DEFAULT_CONNECTION_OPTIONS, ...options.defaults })
    this.targets = new TargetStore(demoTargets(options.appRoot), options.dataDir && join(options.dataDir, 'targets.json'))
  }

  /** Validates a command's input against the contract, then runs it. */
  async execute(command: unknown, input: unknown): Promise<unknown> {
    if (!isCommandName(command)) throw new CommandError(`unknown command ${JSON.stringify(command)}`, 'unknown-command')
    return this.run(command, input)
  }

  private async run<C extends CommandName>(command: C, rawInput: unknown): Promise<CommandOutput<C>> {
    const input = parseCommandInput(command, rawInput) as never
    const handlers: { [K in CommandName]: (input: never) => Promise<CommandOutput<K>> | CommandOutput<K> } = {
      'app.info': () => this.info(),
      'targets.list': () => this.targets.list(),
      'targets.save': (draft) => this.targets.save(draft),
      'targets.remove': async ({ id }: { id: string }) => {
        for (const c of this.connections.values()) if (c.target.id === id) await this.closeConnection(c.id)
        return { removed: await this.targets.remove(id) }
      },
      'targets.import': ({ text, fileName }: { text: string; fileName?: string }) => this.targets.import(text, fileName),
      'connections.open': async ({ targetId }: { targetId: string }) => ({ connectionId: (await this.openTarget(targetId)).id }),
      'connections.close': async ({ connectionId }: { connectionId: string }) => ({ closed: await this.closeConnection(connectionId) }),
      'connections.refresh': async ({ connectionId }: { connectionId: string }) => {
        const connection = this.connection(connectionId)
        if (connection instanceof McpConnection) await connection.rediscover()
        return { ok: true as const }
      },
      'connections.probe': async ({ connectionId }: { connectionId: string }) => ({ ok: await this.connection(connectionId).probeNow() }),
      'connections.setKeepalive': ({ connectionId, intervalMs }: { connectionId: string; intervalMs: number }) => {
        this.connection(connectionId).setKeepaliveInterval(intervalMs)
        return { intervalMs }
      },
      'events.since': ({ afterSeq }: { afterSeq: number }) => this.events.since(afterSeq),
    }
    return handlers[command](input) as CommandOutput<C>
  }

  info(): AppInfo {
    return { name: 'Parallax', version: PARALLAX_VERSION, host: this.options.host === 'electron' ? 'electron' : 'web', defaults: this.defaults }
  }

  /** Opens a connection to a saved target, or returns the live one it already has. */
  async openTarget(targetId: string): Promise<SupervisedConnection> {
    const target = await this.targets.get(targetId)
    if (!target) throw new CommandError(`no target with id "${targetId}"`, 'not-found')
    for (const c of this.connections.values()) if (c.target.id === targetId && !c.isFinished) return c
    const connection = this.createConnection(target)
    void connection.open()
    return connection
  }

  /** Creates a connection for an ad-hoc target (the CLI) without saving it. */
  createConnection(target: SavedTarget): SupervisedConnection {
    const id = `${target.id}#${++this.nextConnection}`
    const options = ConnectionOptions.parse({ ...this.defaults, ...target.options })
    const connection = new McpConnection(id, target, this.events, options)
    this.connections.set(id, connection)
    return connection
  }

  connection(connectionId: string): SupervisedConnection {
    const connection = this.connections.get(connectionId)
    if (!connection) throw new CommandError(`no connection with id "${connectionId}"`, 'not-found')
    return connection
  }

  private async closeConnection(connectionId: string): Promise<boolean> {
    const connection = this.connections.get(connectionId)
    if (!connection) return false
    await connection.close()
    return true
  }

  /** Closes every connection: no child process or timer outlives the engine. */
  async dispose(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.close()))
  }
}
