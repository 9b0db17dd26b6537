import { readFile } from 'node:fs/promises'
import { extname, resolve, sep } from 'node:path'
import { CommandError, type CallReport } from '../contract'
import { withStepUp } from '../auth/stepUp'
import { inspectCall } from '../hooks/callInspector'
import type { HookSet } from '../hooks/hooks'
import { loadHooks } from '../hooks/loadHooks'
import type { SchemaValidator } from '../hooks/validator'
import type { EventLog } from '../runtime/eventLog'
import type { CallOptions, SupervisedConnection } from '../runtime/supervisedConnection'
import type { AdcpChecks } from './adcpChecks'
import type { ApprovalStore } from './approvals'
import type { HooksFileChoices } from './hooksFiles'

/** What inspected calls take of the engine. */
export interface InspectedCallParts {
  events: EventLog
  approvals: ApprovalStore
  /** Where a loaded hooks file is remembered among the recent ones. */
  hooksFiles: HooksFileChoices
  /** The hooks examples that ship with Parallax: they are its own, approved already. */
  builtInHooksDir: string | undefined
  /** Envelope fields flagged when found in domain arguments or input schemas (EngineOptions.protocolFields). */
  protocolFields: string[] | undefined
  /** AdCP's rules for a call to an AdCP agent. */
  adcp: AdcpChecks
}

/**
 * Inspected calls of a tool (MCP) or a skill (A2A), and the pre-validation hooks they run through: hooks are
 * loaded (a module approved first) per target, so they survive reconnects, and each new connection to a
 * target that has them says so.
 */
export class InspectedCalls {
  /** Hooks per target. */
  private readonly hooks = new Map<string, HookSet>()
  /** The JSON Schema validator (Ajv), made on the first inspected call: a host starts without it. */
  private validator: Promise<SchemaValidator> | undefined

  constructor(private readonly parts: InspectedCallParts) {}

  /**
   * One inspected call — hooks, validation, lint, send, context echo — of a tool (MCP) or a skill (A2A);
   * `view`: the MCP App view that made it, rather than the user.
   */
  async call(
    connection: SupervisedConnection,
    tool: string,
    args: Record<string, unknown>,
    view?: { id: string; uri: string },
    options: CallOptions = {},
  ): Promise<CallReport> {
    const callable = connection.callEndpoint(tool, options)
    const what = connection.protocol === 'a2a' ? `message/send (skill ${tool})` : `tools/call ${tool}`
    // A server asking for more scopes than the token has: the person signs in again, and the call goes again.
    const endpoint = {
      protocol: connection.protocol,
      tool,
      ...callable,
      send: (args: Record<string, unknown>) => withStepUp(what, () => callable.send(args)),
    }
    const validator = await this.schemaValidator()
    const adcp = await this.parts.adcp.forCall(connection.id, tool)
    const report = await inspectCall(endpoint, args, this.hooks.get(connection.target.id), validator, this.parts.protocolFields, adcp)
    this.parts.events.emit({ type: 'call', connectionId: connection.id, ...report, ...(view && { view }) })
    this.parts.adcp.say(connection.id, report.adcp, report.turn)
    return report
  }

  private schemaValidator(): Promise<SchemaValidator> {
    return (this.validator ??= import('../hooks/validator').then(({ SchemaValidator }) => new SchemaValidator()))
  }

  /** Loads (or reloads) a hooks file for the connection's target. A bad file leaves the old hooks in place. */
  async loadHooks(connection: SupervisedConnection, path: string): Promise<{ source: string; kind: HookSet['kind']; tools: string[] }> {
    const { id: connectionId, target } = connection
    const { events } = this.parts
    await this.requireApproval(path)
    let set: HookSet
    try {
      set = await loadHooks(path)
    } catch (error) {
      const message = (error as Error).message
      events.emit({
        type: 'hooks',
        connectionId,
        targetId: target.id,
        tools: Object.keys(this.hooks.get(target.id)?.hooks ?? {}),
        source: this.hooks.get(target.id)?.source,
        error: message,
      })
      throw new CommandError(message, 'invalid-input')
    }
    this.hooks.set(target.id, set)
    await this.parts.hooksFiles.remember(set.source)
    const tools = Object.keys(set.hooks)
    events.emit({ type: 'hooks', connectionId, targetId: target.id, source: set.source, kind: set.kind, tools })
    return { source: set.source, kind: set.kind, tools }
  }

  clearHooks(connection: SupervisedConnection): boolean {
    const { id: connectionId, target } = connection
    const cleared = this.hooks.delete(target.id)
    this.parts.events.emit({ type: 'hooks', connectionId, targetId: target.id, tools: [] })
    return cleared
  }

  /** A new connection to a target that has hooks says so, so its views show the hooks that will run. */
  announceHooks(connection: SupervisedConnection): void {
    const set = this.hooks.get(connection.target.id)
    if (set)
      this.parts.events.emit({
        type: 'hooks',
        connectionId: connection.id,
        targetId: connection.target.id,
        source: set.source,
        kind: set.kind,
        tools: Object.keys(set.hooks),
      })
  }

  /**
   * A hooks module runs inside Parallax, so its exact content must be approved (a declarative `.json`
   * file is data and needs none; the examples that ship with Parallax are its own).
   */
  private async requireApproval(file: string): Promise<void> {
    const path = resolve(file)
    const own = this.parts.builtInHooksDir
    if (extname(path) === '.json' || (own && path.startsWith(own + sep))) return
    const content = await readFile(path, 'utf8').catch((error: Error) => {
      throw new CommandError(`cannot read hooks file ${path}: ${error.message}`, 'invalid-input')
    })
    await this.parts.approvals.requireHooks(path, content)
  }
}
