import { CommandError } from '../contract'
import { Replay, type ReplayHost, type ReplayOptions } from '../session/replay'

/** The replays an engine has run, by id; one runs at a time. */
export class Replays {
  private readonly byId = new Map<string, Replay>()
  private started = 0

  constructor(private readonly host: ReplayHost) {}

  /**
   * Opens the replay's own connections; the caller steps or runs it. A replay that has not ended is
   * stopped first (its connections close, unless it keeps them): one replay runs at a time.
   */
  async start(options: ReplayOptions): Promise<Replay & { total: number }> {
    this.stopAll()
    const replay = Object.assign(new Replay(this.host, `r${++this.started}`, options), { total: options.turns.length })
    this.byId.set(replay.id, replay)
    try {
      await replay.start()
    } catch (error) {
      await replay.close()
      this.byId.delete(replay.id)
      throw error instanceof CommandError ? error : new CommandError((error as Error).message, 'failed')
    }
    return replay
  }

  get(replayId: string): Replay {
    const replay = this.byId.get(replayId)
    if (!replay) throw new CommandError(`no replay "${replayId}"`, 'not-found')
    return replay
  }

  stopAll(): void {
    for (const replay of this.byId.values()) replay.stop()
  }
}
