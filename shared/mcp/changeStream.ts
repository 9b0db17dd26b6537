import type { Client as ModernClient, McpSubscription } from '@modelcontextprotocol/client'
import { errorMessage } from '../runtime/errors'

/** The lists whose changes a `subscriptions/listen` filter can ask for, by the capability that says they change. */
const LISTS = [
  { capability: 'tools', filter: 'toolsListChanged' },
  { capability: 'prompts', filter: 'promptsListChanged' },
  { capability: 'resources', filter: 'resourcesListChanged' },
] as const

type Capability = (typeof LISTS)[number]['capability']

/** How many times a dropped stream is opened again in one session: a server that keeps dropping it is not chased forever. */
const REOPENS = 3

/**
 * The 2026 era's list changes (docs/architecture.md, "The protocol rules the code keeps"): they come only on
 * a `subscriptions/listen` stream, asked for the lists the server says change (`listChanged` on the
 * capability), and only those the server acknowledged are refreshed. A stream that drops is opened again,
 * a bounded number of times, each said.
 */
export class ChangeStream {
  private subscription: McpSubscription | undefined
  private honored = new Set<Capability>()
  private reopens = 0
  private stopped = false

  constructor(
    private readonly client: ModernClient,
    private readonly capabilities: Record<string, unknown>,
    private readonly note: (level: 'info' | 'warn', text: string) => void,
    private readonly timeoutMs: number,
  ) {}

  /** The lists the server advertises as changing (`listChanged`). */
  get wanted(): Capability[] {
    return LISTS.filter(({ capability }) => (this.capabilities[capability] as { listChanged?: unknown } | undefined)?.listChanged).map(
      (l) => l.capability,
    )
  }

  /** Whether a change to this list is one the server agreed to send on the stream. */
  honors(capability: string): boolean {
    return this.honored.has(capability as Capability)
  }

  /** Opens the stream; resolves with the rule that now applies, in words. */
  async open(): Promise<string> {
    const wanted = this.wanted
    if (wanted.length === 0)
      return 'none heard: the server advertises no listChanged in server/discover, so no subscriptions/listen stream is opened (refresh to see changes)'
    const filter = Object.fromEntries(LISTS.filter((l) => wanted.includes(l.capability)).map((l) => [l.filter, true]))
    try {
      const subscription = await this.client.listen(filter, { timeout: this.timeoutMs })
      this.subscription = subscription
      const acknowledged = subscription.honoredFilter as Record<string, unknown>
      this.honored = new Set(LISTS.filter((l) => acknowledged[l.filter]).map((l) => l.capability))
      void subscription.closed.then((how) => this.onClosed(how))
      const refused = wanted.filter((c) => !this.honored.has(c))
      return `on a subscriptions/listen stream (2026 era): asked for ${wanted.join(', ')}; the server acknowledged ${[...this.honored].join(', ') || 'none'}${refused.length ? ` (not ${refused.join(', ')})` : ''}`
    } catch (error) {
      this.note('warn', `subscriptions/listen was refused, so list changes will not be seen: ${errorMessage(error)}`)
      return `none heard: subscriptions/listen was refused (${errorMessage(error)}); refresh to see changes`
    }
  }

  private onClosed(how: 'local' | 'graceful' | 'remote'): void {
    if (this.stopped || how === 'local') return
    if (this.reopens >= REOPENS) {
      this.note(
        'warn',
        `the subscriptions/listen stream ended (${how}) for the ${this.reopens + 1}th time: not opened again; lists change only when refreshed`,
      )
      return
    }
    this.reopens++
    this.note(
      'info',
      `the subscriptions/listen stream ended (${how === 'graceful' ? 'the server closed it' : 'it dropped'}); opening it again`,
    )
    void this.open()
  }

  async close(): Promise<void> {
    this.stopped = true
    await this.subscription?.close().catch(() => {})
  }
}
