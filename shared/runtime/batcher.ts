import type { EngineEvent } from '../contract'

/**
 * Collects events and delivers them in batches, so a flood of frames costs one message per
 * interval instead of one per frame. The first event of a quiet period is delivered after at most
 * `intervalMs`; `flush()` delivers immediately.
 */
export class EventBatcher {
  private pending: EngineEvent[] = []
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor(
    private readonly deliver: (events: EngineEvent[]) => void,
    private readonly intervalMs = 16,
    private readonly maxBatch = 5_000,
    /** A delivery that throws is reported here: it runs on a timer, where a throw would end the process. */
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  push(event: EngineEvent): void {
    this.pending.push(event)
    if (this.pending.length >= this.maxBatch) this.flush()
    else this.timer ??= setTimeout(() => this.flush(), this.intervalMs)
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    if (this.pending.length === 0) return
    const batch = this.pending
    this.pending = []
    try {
      this.deliver(batch)
    } catch (error) {
      this.onError(error)
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    this.pending = []
  }
}
