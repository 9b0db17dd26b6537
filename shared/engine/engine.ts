import { readFile } from 'node:fs/promises'
import { extname, join, resolve, sep } from 'node:path'
import {
  CommandError,
  ConnectionOptions,
  DEFAULT_CONNECTION_OPTIONS,
  isApprovalRequired,
  isCommandName,
  parseCommandInput,
  type AppInfo,
  type CallReport,
  type CompareResult,
  type ClientProfile,
  type CommandName,
  type CommandOutput,
  type SavedTarget,
  type TargetDraft,
  type Turn,
  type TurnResult,
} from '../contract'
import { A2aConnection, type OriginGate } from '../a2a/a2aConnection'
import { inspectCall } from '../hooks/callInspector'
import type { HookSet } from '../hooks/hooks'
import { loadHooks } from '../hooks/loadHooks'
import { SchemaValidator } from '../hooks/validator'
import { RecordingLibrary } from '../session/library'
import { RecordingWriter } from '../session/recording'
import { Replay } from '../session/replay'
import { turnsFromEvents } from '../session/turns'
import { NO_BUILT_INS, type BuiltIns } from '../runtime/builtIns'
import { McpConnection } from '../mcp/mcpConnection'
import { PARALLAX_VERSION } from '../version'
import { EventLog } from '../runtime/eventLog'
import { answerForUi, deeperThan, MAX_DEPTH } from '../runtime/safeJson'
import type { SupervisedConnection } from '../runtime/supervisedConnection'
import { compareSnapshots, snapshotOf } from '../compare/compare'
import { ProfileStore } from './profileStore'
import { TargetStore } from './targetStore'
import { ApprovalStore, type Approver } from './approvals'

export interface EngineOptions {
  host: AppInfo['host'] | 'cli'
  /** Where saved targets persist; omit for an in-memory engine. */
  dataDir?: string
  /** The demos and examples that ship with Parallax, provided by the host (shared/demo's `builtInDemos`). */
  builtIns?: BuiltIns
  /** Connection defaults for every target (a target's own options override them). */
  defaults?: Partial<ConnectionOptions>
  /** Envelope fields flagged when found in domain arguments or input schemas. */
  protocolFields?: string[]
  /** Where recordings live; defaults to `<dataDir>/recordings`. */
  recordingsDir?: string
  /** Extra key names redacted from recordings, besides authorization, cookies, tokens and keys. */
  secretKeys?: string[]
  /** Where approvals persist; defaults to `<dataDir>/approvals.json` (in memory without either). */
  approvalsFile?: string
  /** Answers approval requests on the spot (the CLI asks on its terminal); without it they are refused for the host to confirm. */
  approver?: Approver
}

/**
 * The one engine every host drives. It owns targets and connections, and turns everything that
 * happens into events on `events`. Hosts call `execute` with untrusted input; it is validated here.
 */
export class Engine {
  readonly events = new EventLog()
  readonly targets: TargetStore
  readonly profiles: ProfileStore
  readonly approvals: ApprovalStore
  private readonly connections = new Map<string, SupervisedConnection>()
  private readonly defaults: ConnectionOptions
  private readonly builtIns: BuiltIns
  /** Hooks per target, so they survive reconnects. */
  private readonly hooks = new Map<string, HookSet>()
  private readonly validator = new SchemaValidator()
  private readonly recorders = new Map<string, { writer: RecordingWriter; name: string; stop: () => void }>()
  private readonly replays = new Map<string, Replay>()
  private nextReplay = 0
  readonly library: RecordingLibrary | undefined
  private nextConnection = 0

  constructor(private readonly options: EngineOptions) {
    this.defaults = ConnectionOptions.parse({ ...DEFAULT_CONNECTION_OPTIONS, ...options.defaults })
    this.builtIns = options.builtIns ?? NO_BUILT_INS
    this.targets = new TargetStore(this.builtIns.targets, options.dataDir && join(options.dataDir, 'targets.json'))
    this.profiles = new ProfileStore(options.dataDir && join(options.dataDir, 'profiles.json'))
    this.approvals = new ApprovalStore(options.approvalsFile ?? (options.dataDir && join(options.dataDir, 'approvals.json')), options.approver)
    const recordings = options.recordingsDir ?? (options.dataDir && join(options.dataDir, 'recordings'))
    this.library = recordings ? new RecordingLibrary(recordings, this.builtIns.recordings) : undefined
  }

  /** Validates a command's input against the contract, then runs it. */
  async execute(command: unknown, input: unknown): Promise<unknown> {
    if (!isCommandName(command)) throw new CommandError(`unknown command ${JSON.stringify(command)}`, 'unknown-command')
    // Schemas, hooks and diffs walk the input: it may be nested no deeper than what agents may send.
    if (deeperThan(input, MAX_DEPTH)) throw new CommandError(`the input of ${command} is nested deeper than ${MAX_DEPTH} levels; Parallax refused it`, 'invalid-input')
    // Large agent data reaches a UI as a bounded preview; the whole stays in its frame (frames.export).
    return answerForUi(command, await this.run(command, input))
  }

  private async run<C extends CommandName>(command: C, rawInput: unknown): Promise<CommandOutput<C>> {
    const input = parseCommandInput(command, rawInput) as never
    const handlers: { [K in CommandName]: (input: never) => Promise<CommandOutput<K>> | CommandOutput<K> } = {
      'app.info': () => this.info(),
      'targets.list': () => this.targets.list(),
      'targets.save': async ({ approve, ...draft }: TargetDraft & { approve?: boolean }) => {
        const saved = await this.targets.save(draft)
        if (approve) await this.approveTarget(saved)
        return saved
      },
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
      'conversation.send': ({ connectionId, turn, stream, newContext }: { connectionId: string; turn: Turn; stream: boolean; newContext: boolean }) =>
        this.sendTurn(connectionId, turn, { stream, newContext }),
      'conversation.newContext': ({ connectionId }: { connectionId: string }) => {
        this.a2a(connectionId).newContext()
        return { ok: true as const }
      },
      'tasks.get': ({ connectionId, taskId, historyLength }: { connectionId: string; taskId: string; historyLength?: number }) =>
        this.a2a(connectionId).getTask(taskId, historyLength),
      'tasks.list': ({ connectionId, contextId }: { connectionId: string; contextId?: string }) => this.a2a(connectionId).listTasks(contextId),
      'tasks.cancel': ({ connectionId, taskId }: { connectionId: string; taskId: string }) => this.a2a(connectionId).cancelTask(taskId),
      'tasks.resubscribe': ({ connectionId, taskId }: { connectionId: string; taskId: string }) => this.a2a(connectionId).resubscribe(taskId),
      'hooks.load': ({ connectionId, path }: { connectionId: string; path: string }) => this.loadHooks(connectionId, path),
      'hooks.clear': ({ connectionId }: { connectionId: string }) => {
        const { target } = this.connection(connectionId)
        const cleared = this.hooks.delete(target.id)
        this.events.emit({ type: 'hooks', connectionId, targetId: target.id, tools: [] })
        return { cleared }
      },
      'tools.call': ({ connectionId, tool, arguments: args }: { connectionId: string; tool: string; arguments: Record<string, unknown> }) =>
        this.callTool(connectionId, tool, args),
      'recordings.list': () => this.requireLibrary().list(),
      'recordings.start': async ({ connectionId, name }: { connectionId: string; name?: string }) => {
        const library = this.requireLibrary()
        const connection = this.connection(connectionId)
        // A name the user chose must be free (nothing is appended to another recording); a generated one is made free.
        const generated = `${connection.target.name} ${new Date().toISOString().slice(0, 19).replace('T', ' ').replaceAll(':', '.')}`
        const file = await library.create(name ?? generated, { generated: name === undefined })
        try {
          return { name: this.startRecording(connectionId, file.path, file.name) }
        } catch (error) {
          await library.remove(file.name).catch(() => {}) // the first line never reached the disk: no empty recording is left
          throw error
        }
      },
      'recordings.stop': ({ connectionId }: { connectionId: string }) => this.stopRecording(connectionId),
      'recordings.rename': async ({ name, to }: { name: string; to: string }) => ({ name: await this.requireLibrary().rename(name, to) }),
      'recordings.delete': async ({ name }: { name: string }) => ({ deleted: await this.requireLibrary().remove(name) }),
      'recordings.import': ({ name, text }: { name: string; text: string }) => this.requireLibrary().import(name, text),
      'recordings.export': async ({ name }: { name: string }) => ({ text: await this.requireLibrary().export(name) }),
      'recordings.load': async ({ name }: { name: string }) => {
        const loaded = await this.requireLibrary().load(name)
        const turns = turnsFromEvents(loaded.events, loaded.header?.mapping).map(({ index, turn }) => ({ index, turn }))
        return { header: loaded.header, problems: loaded.problems, events: loaded.events.length, turns }
      },
      'replay.start': async ({ recording, targetIds, ignore }: { recording: string; targetIds: string[]; ignore: string[] }) => {
        const loaded = await this.requireLibrary().load(recording)
        const targets = await Promise.all(
          targetIds.map(async (id) => {
            const target = await this.targets.get(id)
            if (!target) throw new CommandError(`no target with id "${id}"`, 'not-found')
            return target
          }),
        )
        const replay = await this.startReplay({ targets, turns: turnsFromEvents(loaded.events, loaded.header?.mapping), ignore, recording, mapping: loaded.header?.mapping })
        return { replayId: replay.id, total: replay.total }
      },
      'replay.step': async ({ replayId }: { replayId: string }) => (await this.replay(replayId).step()) ?? null,
      'replay.run': ({ replayId }: { replayId: string }) => this.replay(replayId).runAll(),
      'replay.stop': ({ replayId }: { replayId: string }) => {
        this.replay(replayId).stop()
        return { stopped: true }
      },
      'frames.export': ({ connectionId, seq }: { connectionId: string; seq: number }) => {
        const connection = this.connection(connectionId)
        const frame = this.events.since(seq - 1)[0]
        if (!frame || frame.seq !== seq || frame.type !== 'frame' || frame.connectionId !== connectionId) throw new CommandError(`no frame #${seq} on this connection`, 'not-found')
        if (!frame.truncated?.file) throw new CommandError(frame.truncated ? 'the whole payload could not be kept (the disk refused it)' : 'this frame is shown whole already', 'invalid-input')
        return { text: connection.spill.read(frame.truncated.file), bytes: frame.bytes }
      },
      'approvals.list': () => this.approvals.list(),
      'approvals.grant': ({ fingerprint }: { fingerprint: string }) => this.approvals.grant(fingerprint),
      'approvals.revoke': async ({ fingerprint }: { fingerprint: string }) => ({ revoked: await this.approvals.revoke(fingerprint) }),
      'profiles.list': () => this.profiles.list(),
      'profiles.save': ({ profile }: { profile: unknown }) => this.profiles.save(profile),
      'profiles.remove': async ({ name }: { name: string }) => ({ removed: await this.profiles.remove(name) }),
      'compare.run': async ({ a, b }: { a: CompareSideInput; b: CompareSideInput }) => {
        const side = async ({ targetId, profile }: CompareSideInput) => {
          const target = await this.targets.get(targetId)
          if (!target) throw new CommandError(`no target with id "${targetId}"`, 'not-found')
          return { target, profile: await this.profiles.resolve(profile) }
        }
        // Both sides (and their profiles) are checked before anything connects.
        const [sa, sb] = [await side(a), await side(b)]
        return this.compare(sa, sb)
      },
      'events.since': ({ afterSeq, limit }: { afterSeq: number; limit?: number }) => this.events.since(afterSeq, limit),
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
    const connection = await this.createConnection(target)
    void connection.open()
    return connection
  }

  /**
   * Creates (without opening) a connection for a target, saved or ad hoc (the CLI's). A command the
   * user has not approved is refused here, whoever asks (connect, compare, replay): `approval-required`.
   */
  async createConnection(target: SavedTarget, profile?: ClientProfile): Promise<SupervisedConnection> {
    if (target.origin !== 'demo' && target.spec.kind === 'mcp-stdio') await this.approvals.requireCommand(target.spec, target)
    const resolved = await this.builtIns.resolve(target)
    const id = `${target.id}#${++this.nextConnection}`
    const options = ConnectionOptions.parse({ ...this.defaults, ...target.options })
    const connection =
      resolved.spec.kind === 'a2a'
        ? new A2aConnection(id, resolved, this.events, options, profile, this.originGate(target, resolved.spec.url))
        : new McpConnection(id, resolved, this.events, options, { profile })
    this.connections.set(id, connection)
    return connection
  }

  /** An A2A target may talk to an origin other than its configured one only once the user allowed it. */
  private originGate(target: SavedTarget, url: string): OriginGate {
    const configured = new URL(url).origin
    return {
      isAllowed: (origin) => this.approvals.isOriginAllowed(target.id, configured, origin),
      require: (origin, via) => this.approvals.requireOrigin(target, configured, origin, via),
    }
  }

  /** Approves a target's command as it is now (the user typed or reviewed it); nothing to approve for the rest. */
  async approveTarget(target: SavedTarget, options: { persist?: boolean } = {}): Promise<void> {
    if (target.spec.kind !== 'mcp-stdio') return
    await this.approvals.requireCommand(target.spec, target).catch(async (error) => {
      if (!(error instanceof CommandError) || !isApprovalRequired(error.details)) throw error
      await this.approvals.grant(error.details.approval.fingerprint, options)
    })
  }

  /**
   * Connects each side (its own connection, under its profile), waits until discovery has settled,
   * and diffs what the two exposed. The connections close afterwards; their frames stay.
   */
  async compare(a: { target: SavedTarget; profile?: ClientProfile }, b: { target: SavedTarget; profile?: ClientProfile }): Promise<CompareResult> {
    const sides: SupervisedConnection[] = []
    try {
      for (const { target, profile } of [a, b]) sides.push(await this.createConnection(target, profile))
      const opened = await Promise.all(sides.map((c) => c.open()))
      opened.forEach((ok, i) => {
        if (!ok) throw this.connectFailure(sides[i])
      })
      await Promise.all(sides.map((c) => c.settled()))
      const events = this.events.since(0)
      const report = compareSnapshots(snapshotOf(events, sides[0].id), snapshotOf(events, sides[1].id))
      const describe = (i: number, profile?: ClientProfile) => ({ targetId: sides[i].target.id, targetName: sides[i].target.name, ...(profile && { profile: profile.name }), connectionId: sides[i].id })
      return { a: describe(0, a.profile), b: describe(1, b.profile), ...report }
    } finally {
      await Promise.all(sides.map((c) => c.close()))
    }
  }

  /** Why a connection could not open, as a command error; an approval it needs is kept, for the host to ask. */
  connectFailure(connection: SupervisedConnection): CommandError {
    const failed = this.events.since(0).findLast((e) => e.connectionId === connection.id && e.type === 'connection' && e.state === 'failed')
    const event = failed?.type === 'connection' ? failed : undefined
    const message = `cannot connect to ${connection.target.name}: ${event?.reason ?? 'unknown error'}`
    return event?.approval ? new CommandError(message, 'approval-required', { approval: event.approval }) : new CommandError(message, 'failed')
  }

  /** One turn on any connection: an A2A message, or an MCP tool call. */
  async sendTurn(connectionId: string, turn: Turn, options: { stream?: boolean; newContext?: boolean } = {}): Promise<TurnResult> {
    const connection = this.connection(connectionId)
    if (connection instanceof A2aConnection) return connection.send(turn, options)
    if (!('tool' in turn)) throw new CommandError('an MCP turn is a tool call: {"tool": NAME, "arguments": {…}}', 'invalid-input')
    const mcp = connection as McpConnection
    const { turn: number, result } = await mcp.callTool(turn.tool, turn.arguments)
    return { turn: number, request: { tool: turn.tool, arguments: turn.arguments }, response: result, state: result.isError ? 'error' : 'completed' }
  }

  /** Loads (or reloads) a hooks file for the connection's target. A bad file leaves the old hooks in place. */
  async loadHooks(connectionId: string, path: string): Promise<{ source: string; kind: HookSet['kind']; tools: string[] }> {
    const { target } = this.connection(connectionId)
    await this.requireHooksApproval(path)
    let set: HookSet
    try {
      set = await loadHooks(path)
    } catch (error) {
      const message = (error as Error).message
      this.events.emit({ type: 'hooks', connectionId, targetId: target.id, tools: Object.keys(this.hooks.get(target.id)?.hooks ?? {}), source: this.hooks.get(target.id)?.source, error: message })
      throw new CommandError(message, 'invalid-input')
    }
    this.hooks.set(target.id, set)
    const tools = Object.keys(set.hooks)
    this.events.emit({ type: 'hooks', connectionId, targetId: target.id, source: set.source, kind: set.kind, tools })
    return { source: set.source, kind: set.kind, tools }
  }

  /**
   * A hooks module runs inside Parallax, so its exact content must be approved (a declarative `.json`
   * file is data and needs none; the examples that ship with Parallax are its own).
   */
  async requireHooksApproval(file: string): Promise<void> {
    const path = resolve(file)
    const own = this.builtIns.hooksDir
    if (extname(path) === '.json' || (own && path.startsWith(own + sep))) return
    const content = await readFile(path, 'utf8').catch((error: Error) => {
      throw new CommandError(`cannot read hooks file ${path}: ${error.message}`, 'invalid-input')
    })
    await this.approvals.requireHooks(path, content)
  }

  /** One inspected call: hooks, validation, lint, send, context echo. An A2A skill is called with a data part {skill, input}. */
  async callTool(connectionId: string, tool: string, args: Record<string, unknown>): Promise<CallReport> {
    const connection = this.connection(connectionId)
    const hooks = this.hooks.get(connection.target.id)
    let report: CallReport
    if (connection instanceof A2aConnection) {
      report = await inspectCall(
        {
          protocol: 'a2a',
          tool,
          send: async (hooked) => {
            const result = await connection.send({ data: { skill: tool, input: hooked } })
            const artifacts = (result.response as { artifacts?: { parts: { data?: unknown }[] }[] } | null)?.artifacts ?? []
            const data = artifacts.flatMap((a) => a.parts.map((p) => p.data)).find((d) => d !== undefined)
            return { response: result.response, data }
          },
        },
        args,
        hooks,
        this.validator,
        this.options.protocolFields,
      )
    } else {
      const mcp = connection as McpConnection
      const listed = (mcp.catalog['tools/list'] ?? []) as { name: string; inputSchema?: unknown; outputSchema?: unknown }[]
      const definition = listed.find((t) => t.name === tool)
      report = await inspectCall(
        {
          protocol: 'mcp',
          tool,
          inputSchema: definition?.inputSchema,
          outputSchema: definition?.outputSchema,
          send: async (hooked) => {
            const { result } = await mcp.callTool(tool, hooked)
            const text = result.content?.find((c) => c.type === 'text')?.text
            let data: unknown = result.structuredContent
            if (data === undefined && text) {
              try {
                data = JSON.parse(text)
              } catch {
                data = undefined
              }
            }
            return { response: result, data, structured: result.structuredContent }
          },
        },
        args,
        hooks,
        this.validator,
        this.options.protocolFields,
      )
    }
    this.events.emit({ type: 'call', connectionId, ...report })
    return report
  }

  /** Records a connection's events (from now on) into a JSON Lines file, redacted, flushed per line. */
  startRecording(connectionId: string, path: string, name = path): string {
    const connection = this.connection(connectionId)
    if (this.recorders.has(connectionId)) throw new CommandError(`this connection is already being recorded as "${this.recorders.get(connectionId)!.name}"`, 'invalid-input')
    let writer: RecordingWriter
    try {
      const { id, name: targetName, spec, origin } = connection.target
      writer = new RecordingWriter(path, { targets: [{ id, name: targetName, ...(origin !== 'demo' && { spec }) }] }, this.options.secretKeys)
      if (writer.error) throw new Error(`the first line could not be written (${writer.error.split(' stopped: ').pop()})`)
    } catch (error) {
      const message = `cannot record to ${path}: ${(error as Error).message}`
      this.events.emit({ type: 'recording', connectionId, state: 'failed', name, error: message })
      throw new CommandError(message, 'failed')
    }
    // Recording starts with what the connection already said, so a replay has the whole session.
    for (const event of this.events.since(0)) if (event.connectionId === connectionId) writer.write(event)
    const unsubscribe = this.events.subscribe((event) => {
      if (event.connectionId !== connectionId || event.type === 'recording') return
      writer.write(event)
      if (writer.error) {
        unsubscribe()
        this.recorders.delete(connectionId)
        this.events.emit({ type: 'recording', connectionId, state: 'failed', name, error: writer.error })
      }
    })
    this.recorders.set(connectionId, { writer, name, stop: unsubscribe })
    this.events.emit({ type: 'recording', connectionId, state: 'started', name })
    return name
  }

  stopRecording(connectionId: string): { name: string; lines: number } {
    const recorder = this.recorders.get(connectionId)
    if (!recorder) throw new CommandError('this connection is not being recorded', 'invalid-input')
    recorder.stop()
    recorder.writer.close()
    this.recorders.delete(connectionId)
    this.events.emit({ type: 'recording', connectionId, state: 'stopped', name: recorder.name, lines: recorder.writer.lines })
    return { name: recorder.name, lines: recorder.writer.lines }
  }

  /** Opens the replay's own connections; the caller steps or runs it. */
  async startReplay(options: ConstructorParameters<typeof Replay>[2]): Promise<Replay & { total: number }> {
    const replay = Object.assign(new Replay(this, `r${++this.nextReplay}`, options), { total: options.turns.length })
    this.replays.set(replay.id, replay)
    try {
      await replay.start()
    } catch (error) {
      await replay.close()
      this.replays.delete(replay.id)
      throw error instanceof CommandError ? error : new CommandError((error as Error).message, 'failed')
    }
    return replay
  }

  private replay(replayId: string): Replay {
    const replay = this.replays.get(replayId)
    if (!replay) throw new CommandError(`no replay "${replayId}"`, 'not-found')
    return replay
  }

  private requireLibrary(): RecordingLibrary {
    if (!this.library) throw new CommandError('recordings need a data folder', 'failed')
    return this.library
  }

  private a2a(connectionId: string): A2aConnection {
    const connection = this.connection(connectionId)
    if (!(connection instanceof A2aConnection)) throw new CommandError('tasks belong to A2A connections; this one is MCP', 'invalid-input')
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
    for (const id of [...this.recorders.keys()]) this.stopRecording(id)
    for (const replay of this.replays.values()) replay.stop()
    await Promise.all([...this.connections.values()].map((c) => c.close()))
    for (const connection of this.connections.values()) connection.spill.dispose()
    await this.builtIns.dispose()
  }
}

type CompareSideInput = { targetId: string; profile?: string | Record<string, unknown> }
