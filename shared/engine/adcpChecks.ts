import { DEFAULT_MAPPING, type CallReport, type Turn, type TurnResult } from '../contract'
import type * as AdcpModule from '../adcp/adcpCall'
import type { AdcpCall } from '../adcp/adcpCall'
import { errorMessage } from '../runtime/errors'
import type { EventLog } from '../runtime/eventLog'

/**
 * AdCP's release for the engine: the rules of a call to an AdCP agent (its schemas, loaded with the first call
 * or turn that needs them), the checks of a conversation turn that calls one of its tasks, and an `adcp`
 * event for every call or turn whose request or response breaks them.
 */
export class AdcpChecks {
  private module: Promise<typeof AdcpModule> | undefined

  constructor(private readonly events: EventLog) {}

  private load(): Promise<typeof AdcpModule> {
    return (this.module ??= import('../adcp/adcpCall'))
  }

  /** The AdCP side of a call of `tool` on the connection, when its agent is an AdCP agent (its state says). */
  async forCall(connectionId: string, tool: string): Promise<AdcpCall | undefined> {
    const { adcpCall } = await this.load()
    return adcpCall(this.events.context(connectionId), tool)
  }

  /** A conversation turn that called an AdCP task: its request and response checked, and said when they break the schemas. */
  async checkTurn(connectionId: string, protocol: string, turn: Turn, result: TurnResult): Promise<TurnResult> {
    if ('text' in turn) return result // a text turn calls no task
    try {
      return await this.checked(connectionId, protocol, turn, result)
    } catch (error) {
      // The turn happened: a check that cannot run says so and loses nothing of it.
      this.events.emit({
        type: 'log',
        connectionId,
        source: 'engine',
        level: 'error',
        text: `AdCP check of turn ${result.turn}: ${errorMessage(error)}`,
      })
      return result
    }
  }

  private async checked(connectionId: string, protocol: string, turn: Turn, result: TurnResult): Promise<TurnResult> {
    const { adcpCall, turnCall, taskResponse } = await this.load()
    const called = turnCall(turn, DEFAULT_MAPPING)
    const adcp = called && adcpCall(this.events.context(connectionId), called.task)
    if (!called || !adcp) return result
    const response = taskResponse(protocol, result.response)
    const findings = [...adcp.check('request', called.args), ...(response === undefined ? [] : adcp.check('response', response))]
    const checked = adcp.report(findings)
    this.say(connectionId, checked, result.turn)
    return { ...result, adcp: checked }
  }

  /** An `adcp` event when a call or turn broke AdCP's schemas. */
  say(connectionId: string, adcp: CallReport['adcp'], turn: number | undefined): void {
    if (!adcp?.findings.length) return
    this.events.emit({
      type: 'adcp',
      connectionId,
      release: adcp.release,
      task: adcp.task,
      ...(turn !== undefined && { turn }),
      findings: adcp.findings,
    })
  }
}
