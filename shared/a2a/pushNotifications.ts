import { randomUUID } from 'node:crypto'
import { StreamResponse, type TaskPushNotificationConfig } from '@a2a-js/sdk'
import type { Client } from '@a2a-js/sdk/client'
import type { A2aPushConfig, ConversationMessage, LogEvent } from '../contract'
import { redactMap } from '../contract'
import { now } from '../runtime/clock'
import { errorMessage } from '../runtime/errors'
import type { FrameSpill } from '../runtime/frameSpill'
import type { PushConfigOperations } from '../runtime/supervisedConnection'
import { textPreview, type TappedFrame } from '../runtime/jsonRpcTap'
import { deeperThan, MAX_DEPTH } from '../runtime/safeJson'
import { stateName } from './plain'
import type { PushDelivery, PushReceiver, Webhook } from './pushReceiver'

/** What the push notifications of a connection need of it. */
export interface PushHost {
  /** The SDK client, or a refusal when the connection is not live. */
  client(): Client
  /** One call, bounded by the request timeout and cancelled with the connection. */
  bounded<T>(call: (signal: AbortSignal) => Promise<T>): Promise<T>
  /** A failed call as the connection reports it (with the agent's code and reason, in the timeline). */
  fail(error: unknown): Error
  frame(frame: TappedFrame): void
  say(message: ConversationMessage): void
  log(level: LogEvent['level'], text: string, oddity?: boolean): void
  /** A push's content, told as stream events are (what is new in it is said once). */
  fold(event: StreamResponse): void
  isLive(): boolean
  readonly receiver: PushReceiver | undefined
  readonly spill: FrameSpill
}

/** A config this connection created, its webhook, and what it expects of it. */
interface Watch {
  configId: string
  taskId: string
  webhook: Webhook | undefined
  expectWithinMs: number
  /** The task's state when the config was made, or as the last push told it. */
  baseline: string | undefined
  pushes: number
  lastPushAt?: number
  timer?: ReturnType<typeof setTimeout>
  finding?: string
}

/**
 * A2A push notifications for a connection: create, get, list and delete a task's configs through the SDK
 * (any binding); `create` points the agent at a webhook of Parallax's receiver. Each POST to it is a frame
 * (`PushNotification`, with the HTTP exchange and what the receiver answered) and, taken, a `push`
 * conversation message, its content told like stream events. A push refused (no token, a wrong one) is an
 * oddity. An agent whose pushes never arrive is a finding: when the task changes state (as Parallax sees
 * it, or as a GetTask shows it once the bound has passed since the config was made) and no push comes
 * within `expectWithinMs`, it is said, once, as an oddity, and the config's view carries it.
 */
export class PushNotifications implements PushConfigOperations {
  private readonly watches = new Map<string, Watch>()
  /** Each task's last state, as Parallax saw it. */
  private readonly states = new Map<string, string>()
  /** Set while a push's own content is told: what it says is what the push said. */
  private pushing = false
  private deliveries = 0

  constructor(private readonly host: PushHost) {}

  async create(taskId: string, expectWithinMs: number): Promise<A2aPushConfig> {
    const client = this.host.client()
    if (!this.host.receiver) throw this.host.fail(new Error('this Parallax runs no webhook receiver'))
    const watch: Watch = {
      configId: randomUUID(),
      taskId,
      webhook: undefined,
      expectWithinMs,
      baseline: this.states.get(taskId),
      pushes: 0,
    }
    // The webhook exists before the agent hears of it: a push may come at once.
    watch.webhook = await this.host.receiver.open((delivery) => this.receive(watch, delivery))
    let config: TaskPushNotificationConfig
    try {
      config = await this.host.bounded((signal) =>
        client.createTaskPushNotificationConfig(
          { tenant: '', id: watch.configId, taskId, url: watch.webhook!.url, token: watch.webhook!.token, authentication: undefined },
          { signal },
        ),
      )
    } catch (error) {
      watch.webhook.close()
      throw this.host.fail(error)
    }
    // The agent may name the config itself.
    watch.configId = config.id || watch.configId
    this.watches.set(watch.configId, watch)
    this.host.log('info', `push notifications for task ${short(taskId)} go to ${watch.webhook.url} (config ${watch.configId})`)
    // A task may change state with nobody watching it here: once the bound has passed, its state is asked for.
    this.arm(watch, 'created')
    return this.view(config)
  }

  async get(taskId: string, configId: string): Promise<A2aPushConfig> {
    const client = this.host.client()
    try {
      return this.view(
        await this.host.bounded((signal) => client.getTaskPushNotificationConfig({ tenant: '', taskId, id: configId }, { signal })),
      )
    } catch (error) {
      throw this.host.fail(error)
    }
  }

  async list(taskId: string): Promise<A2aPushConfig[]> {
    const client = this.host.client()
    try {
      const { configs } = await this.host.bounded((signal) =>
        client.listTaskPushNotificationConfig({ tenant: '', taskId, pageSize: 0, pageToken: '' }, { signal }),
      )
      return configs.map((c) => this.view(c))
    } catch (error) {
      throw this.host.fail(error)
    }
  }

  async delete(taskId: string, configId: string): Promise<{ deleted: true }> {
    const client = this.host.client()
    try {
      await this.host.bounded((signal) => client.deleteTaskPushNotificationConfig({ tenant: '', taskId, id: configId }, { signal }))
    } catch (error) {
      throw this.host.fail(error)
    }
    const watch = this.watches.get(configId)
    if (watch) this.forget(watch)
    return { deleted: true }
  }

  /** A conversation message the connection said: a task's state as Parallax saw it change. */
  observed(message: ConversationMessage): void {
    const { kind, taskId, state } = message.metadata ?? {}
    if (kind !== 'status' || typeof taskId !== 'string' || typeof state !== 'string') return
    this.states.set(taskId, state)
    for (const watch of this.watches.values()) {
      if (watch.taskId !== taskId) continue
      if (this.pushing) watch.baseline = state
      else if (state !== watch.baseline) this.arm(watch, 'changed')
    }
  }

  /** The connection closed: its webhooks close (a late push is answered 404) and nothing more is checked. */
  dispose(): void {
    for (const watch of this.watches.values()) this.forget(watch)
  }

  private forget(watch: Watch): void {
    clearTimeout(watch.timer)
    watch.webhook?.close()
    this.watches.delete(watch.configId)
  }

  /** Checks, `expectWithinMs` from now, that a push came (a change already seen), or asks the task's state (none seen yet). */
  private arm(watch: Watch, why: 'created' | 'changed'): void {
    if (watch.timer) return
    const since = watch.pushes
    const from = watch.baseline
    watch.timer = setTimeout(() => {
      watch.timer = undefined
      void this.check(watch, why, since, from)
    }, watch.expectWithinMs)
    watch.timer.unref?.()
  }

  private async check(watch: Watch, why: 'created' | 'changed', pushesThen: number, from: string | undefined): Promise<void> {
    if (!this.watches.has(watch.configId) || !this.host.isLive() || watch.pushes > pushesThen) return
    let to = this.states.get(watch.taskId)
    if (why === 'created') {
      try {
        const client = this.host.client()
        const task = await this.host.bounded((signal) => client.getTask({ tenant: '', id: watch.taskId, historyLength: 0 }, { signal }))
        to = stateName(task.status?.state)
        this.states.set(watch.taskId, to)
      } catch (error) {
        this.host.log('debug', `push check: could not ask for task ${short(watch.taskId)}: ${errorMessage(error)}`)
        return
      }
      if (watch.pushes > pushesThen || !this.watches.has(watch.configId)) return
      if (from === undefined) {
        // Nothing was known of the task when the config was made: what it is now is what to expect pushes from.
        watch.baseline = to
        return
      }
    }
    if (to === undefined || to === from) return
    watch.finding = `the agent sent no push notification for task ${short(watch.taskId)} within ${watch.expectWithinMs} ms of its change ${from ?? '?'} → ${to} (config ${watch.configId}, webhook ${watch.webhook?.url ?? '?'})`
    this.host.log('warn', watch.finding, true)
  }

  /**
   * One POST to a webhook: a frame always; a taken push is also a conversation message, its content told. A
   * push counts for the config's task only when it names that task: one naming another (or none) is an
   * oddity, kept as its frame and nothing more — it says nothing of the task watched.
   */
  private receive(watch: Watch, delivery: PushDelivery): void {
    const at = now()
    const parsed = parseJson(delivery.text)
    const tooDeep = parsed !== undefined && deeperThan(parsed, MAX_DEPTH) ? `nested deeper than ${MAX_DEPTH} levels` : undefined
    const refused = delivery.refused ?? tooDeep
    const event = refused ? undefined : streamResponse(parsed)
    const named = event?.payload ? taskOf(event.payload) : undefined
    const spilled =
      delivery.bytes > this.host.spill.maxFrameBytes || tooDeep
        ? (this.host.spill.spill(delivery.text, delivery.bytes, !!tooDeep) ?? textPreview(delivery.text))
        : undefined
    const frame: TappedFrame & { seq?: number } = {
      type: 'frame',
      ts: at,
      direction: 'in',
      protocol: 'a2a',
      transport: 'rest',
      kind: refused ? 'error' : 'notification',
      method: 'PushNotification',
      id: `push-${++this.deliveries}`,
      payload: spilled ? spilled.preview : (parsed ?? (delivery.text || null)),
      bytes: delivery.bytes,
      http: { method: 'POST', url: delivery.url, status: delivery.status, headers: redactMap(delivery.headers) },
      subject: named || watch.taskId,
      ...(spilled && { truncated: tooDeep ? { ...spilled.truncated, refused: tooDeep } : spilled.truncated }),
    }
    this.host.frame(frame)
    const where = frame.seq !== undefined ? ` (frame #${frame.seq})` : ''
    if (refused) {
      this.host.log('warn', `a push notification for task ${short(watch.taskId)} was refused: ${refused}${where}`, true)
      return
    }
    if (!event?.payload || named !== watch.taskId) {
      const what = !event?.payload
        ? 'is not an A2A StreamResponse'
        : named
          ? `names task ${short(named)}`
          : `names no task (a ${event.payload.$case})`
      this.host.log(
        'warn',
        `a push notification to the webhook for task ${short(watch.taskId)} ${what}: not counted for that task${where}`,
        true,
      )
      return
    }
    const payload = event.payload
    const state = payload.$case === 'task' || payload.$case === 'statusUpdate' ? stateName(payload.value.status?.state) : undefined
    const contextId = 'contextId' in payload.value ? payload.value.contextId : undefined
    watch.pushes++
    watch.lastPushAt = at
    if (watch.finding) this.host.log('info', `a push notification for task ${short(watch.taskId)} arrived after all${where}`)
    watch.finding = undefined
    this.host.say({
      role: 'agent',
      content: `push notification: ${state ? `${payload.$case} ${state}` : payload.$case}`,
      timestamp: at,
      metadata: {
        kind: 'push',
        timestampSource: 'observed',
        taskId: watch.taskId,
        ...(contextId && { contextId }),
        ...(state && { state }),
        configId: watch.configId,
        ...(frame.seq !== undefined && { frameSeq: frame.seq }),
      },
    })
    this.pushing = true
    try {
      this.host.fold(event)
    } finally {
      this.pushing = false
    }
    if (state) {
      watch.baseline = state
      this.states.set(watch.taskId, state)
    }
    // A push answers what was waited for: the next change is checked afresh.
    clearTimeout(watch.timer)
    watch.timer = undefined
  }

  private view(config: TaskPushNotificationConfig): A2aPushConfig {
    const watch = this.watches.get(config.id)
    return {
      id: config.id,
      taskId: config.taskId,
      url: config.url,
      hasToken: !!config.token,
      ...(config.authentication?.scheme && { authentication: { scheme: config.authentication.scheme } }),
      ...(watch && {
        receiver: {
          pushes: watch.pushes,
          ...(watch.lastPushAt !== undefined && { lastPushAt: watch.lastPushAt }),
          expectWithinMs: watch.expectWithinMs,
          ...(watch.finding && { finding: watch.finding }),
        },
      }),
    }
  }
}

function short(id: string): string {
  return id.length > 8 ? id.slice(0, 8) : id
}

/** A push's body as an A2A `StreamResponse`, or undefined when it is none. */
function streamResponse(parsed: unknown): StreamResponse | undefined {
  if (parsed === undefined) return undefined
  try {
    return StreamResponse.fromJSON(parsed)
  } catch {
    return undefined
  }
}

/** The task a push is about: a task's id, an update's or a message's task id (empty when it names none). */
function taskOf(payload: NonNullable<StreamResponse['payload']>): string | undefined {
  const id = payload.$case === 'task' ? payload.value.id : payload.value.taskId
  return id || undefined
}

function parseJson(text: string): unknown {
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
