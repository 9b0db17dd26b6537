import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { McpServer } from '@agentclientprotocol/sdk'
import {
  CommandError,
  ConnectionOptions,
  DEFAULT_PROFILE,
  runsCommand,
  type ClientProfile,
  type ConnectionOwner,
  type SavedTarget,
} from '../contract'
import type { OriginGate } from '../a2a/a2aConnection'
import type { PushReceiver } from '../a2a/pushReceiver'
import { authTargetOf, type AuthManager } from '../auth/authManager'
import { ConnectionAuth } from '../auth/connectionAuth'
import { loadResponder } from '../hooks/responder'
import type { ScriptedResponder } from '../mcp/clientRole'
import type { BuiltIns } from '../runtime/builtIns'
import type { EventLog } from '../runtime/eventLog'
import type { SupervisedConnection } from '../runtime/supervisedConnection'
import { isUserModule } from '../runtime/userModules'
import type { ApprovalStore } from './approvals'
import type { ProfileStore } from './profileStore'
import type { TargetStore } from './targetStore'

/** What building a connection takes of the engine. */
export interface ConnectionParts {
  events: EventLog
  /** Connection defaults for every target (a target's own options override them). */
  defaults: ConnectionOptions
  builtIns: BuiltIns
  approvals: ApprovalStore
  profiles: ProfileStore
  targets: TargetStore
  auth: AuthManager
  /** The webhook receiver A2A connections point push notifications at. */
  pushReceiver: PushReceiver
  /** Whether a person can answer what a server asks (EngineOptions.askUser). */
  askUser: boolean
}

/**
 * Builds every connection the engine makes, of each protocol, under its client profile and for its owner:
 * its options, its credentials, its client role (an MCP target's responder, an ACP agent's policy and MCP
 * servers, an A2A agent's origin gate). Consent is enforced here, where connections are created, so every way
 * of opening one meets it (docs/architecture.md, "Consent"): a stdio command, a responder module, an MCP
 * server's command handed to an ACP agent run only as the user approved them, and an A2A agent reaches an
 * origin other than its configured one only once the user allowed it.
 */
export class ConnectionFactory {
  private created = 0

  constructor(private readonly parts: ConnectionParts) {}

  /**
   * Creates (without opening) a connection for a target, saved or unsaved (the CLI's), owned by `owner`
   * (the user's session unless a feature opens it for itself). A command the user has not approved is
   * refused here, whoever asks (connect, compare, replay): `approval-required`.
   */
  async create(
    target: SavedTarget,
    profile: ClientProfile | undefined,
    owner: Omit<ConnectionOwner, 'startedAt'>,
  ): Promise<SupervisedConnection> {
    const { approvals, builtIns, events, askUser } = this.parts
    if (target.origin !== 'demo' && runsCommand(target.spec)) await approvals.requireCommand({ ...target.spec, kind: 'mcp-stdio' }, target)
    const underProfile = profile ?? (await this.profileOf(target))
    const resolved = await builtIns.resolve(target)
    const id = `${target.id}#${++this.created}`
    const options = ConnectionOptions.parse({ ...this.parts.defaults, ...target.options })
    // Tokens are the target's (the user's id for it), sent only to the server they were obtained for.
    const authTarget = authTargetOf({ ...resolved, id: target.id })
    const auth = authTarget && new ConnectionAuth(this.parts.auth, authTarget, id)
    // Each protocol's module (and its SDK) is loaded when a connection first needs it: a host starts without them.
    const connection =
      resolved.spec.kind === 'a2a'
        ? new (await import('../a2a/a2aConnection')).A2aConnection(
            id,
            resolved,
            events,
            options,
            underProfile,
            this.originGate(target, resolved.spec.url),
            auth,
            this.parts.pushReceiver,
          )
        : resolved.spec.kind === 'acp'
          ? new (await import('../acp/acpConnection')).AcpConnection(id, resolved, events, options, {
              profile: underProfile,
              // A replay runs turns the user recorded and asked to run again: its permission requests are allowed
              // unless the target says otherwise; a compare only looks, so it allows nothing. Commands never run unasked.
              client: {
                askUser: askUser && owner.purpose !== 'replay' && owner.purpose !== 'compare',
                policy: {
                  permission:
                    target.responder?.permission ??
                    (owner.purpose === 'replay' ? 'allow' : owner.purpose === 'compare' ? 'reject' : undefined),
                  terminal: target.responder?.terminal,
                },
              },
              mcpServers: await this.mcpServersFor(target, resolved.spec.mcpServers),
            })
          : new (await import('../mcp/mcpConnection')).McpConnection(id, resolved, events, options, {
              auth,
              profile: underProfile,
              client: {
                roots: target.roots,
                responder: await this.responderOf(target),
                askUser,
              },
            })
    connection.owner = { ...owner, startedAt: Date.now() }
    return connection
  }

  /**
   * The MCP servers an ACP agent is handed in `session/new`, from the user's saved targets. The agent will run
   * a stdio server's command, so that command needs the user's approval as if Parallax ran it.
   */
  private async mcpServersFor(agent: SavedTarget, ids: string[]): Promise<McpServer[]> {
    const servers: McpServer[] = []
    for (const id of ids) {
      const saved = await this.parts.targets.get(id)
      if (!saved) throw new CommandError(`${agent.name} is to be handed the MCP server "${id}", which is no saved target`, 'not-found')
      const { spec } = await this.parts.builtIns.resolve(saved)
      const pairs = (map: Record<string, string>) => Object.entries(map).map(([name, value]) => ({ name, value }))
      if (spec.kind === 'mcp-stdio') {
        if (saved.origin !== 'demo') await this.parts.approvals.requireCommand(spec, saved)
        servers.push({ name: saved.name, command: spec.command, args: spec.args, env: pairs(spec.env) })
      } else if (spec.kind === 'mcp-http')
        servers.push({ type: spec.transport === 'sse' ? 'sse' : 'http', name: saved.name, url: spec.url, headers: pairs(spec.headers) })
      else throw new CommandError(`${saved.name} is no MCP server: an ACP agent is handed MCP servers only`, 'invalid-input')
    }
    return servers
  }

  /** The client profile a target connects under when the caller names none: its own, or the default one (docs/architecture.md, "Answering what servers ask"). */
  private async profileOf(target: SavedTarget): Promise<ClientProfile> {
    try {
      return (await this.parts.profiles.resolve(target.profile ?? DEFAULT_PROFILE))!
    } catch (error) {
      throw new CommandError(`${target.name} connects under ${(error as Error).message}: choose another profile for it`, 'not-found')
    }
  }

  /**
   * A target's scripted responder, loaded afresh (so a reconnect picks up edits). A module runs inside
   * Parallax, so its exact content must be approved, as a hooks module's is; a JSON file is data.
   */
  private async responderOf(target: SavedTarget): Promise<ScriptedResponder | undefined> {
    const file = target.responder?.file
    if (file && isUserModule(file)) {
      const path = resolve(file)
      const content = await readFile(path, 'utf8').catch((error: Error) => {
        throw new CommandError(`cannot read the responder of ${target.name}, ${path}: ${error.message}`, 'invalid-input')
      })
      await this.parts.approvals.requireHooks(path, content, 'Run this responder module inside Parallax?')
    }
    try {
      return await loadResponder(target.responder)
    } catch (error) {
      throw new CommandError(`the responder of ${target.name}: ${(error as Error).message}`, 'invalid-input')
    }
  }

  /** An A2A target may talk to an origin other than its configured one only once the user allowed it. */
  private originGate(target: SavedTarget, url: string): OriginGate {
    const configured = new URL(url).origin
    // A built-in demo agent runs in this process, and every interface its card names is its own (gRPC on a port of its own).
    if (target.origin === 'demo') return { isAllowed: async () => true, require: async () => {} }
    return {
      isAllowed: (origin) => this.parts.approvals.isOriginAllowed(target.id, configured, origin),
      require: (origin, via) => this.parts.approvals.requireOrigin(target, configured, origin, via),
    }
  }
}
