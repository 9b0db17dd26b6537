import { appendFileSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { CommandError, type EngineEvent, type EventInput, type SessionSummary } from '../contract'
import { FrameSpill } from '../runtime/frameSpill'
import { ownerRunning } from '../runtime/processLife'
import type { SessionStore } from '../runtime/store/sessionStore'
import { readSummary } from '../runtime/store/sessionFiles'
import type * as ObservedModule from '../tap/observedSession'
import type { ControlLine } from '../tap/tapControl'
import { FollowedTap } from './tapFollower'

/** How often the sessions folder is looked at for new taps, and followed ones for new lines. */
export const TAP_POLL_MS = 300
/** Frames larger than this keep a preview inline and their whole text in the session (a driven connection's default). */
const MAX_FRAME_BYTES = 1_000_000
/** A session folder's name (runtime/store): `<start>-<pid>-<n>`. */
const SESSION_NAME = /^\d{8}T\d{6}Z-\d+-\d+$/

export interface TapFollowersOptions {
  /** The engine's store: its folder is the data folder's `sessions/`, where taps write theirs. */
  store: SessionStore
  emit: (event: EventInput) => EngineEvent
  protocolFields?: readonly string[]
}

/** A line of a tap's `control.jsonl`: what to hold, or what becomes of a held message (the tap reads it: shared/tap/tapControl.ts). */
export type { ControlLine as TapControl } from '../tap/tapControl'

/** Whether a session is an app's copy of a tap's session (the tap's own is listed; the copy never is). */
export function isTapMirror(summary: SessionSummary): boolean {
  return summary.owner?.purpose === 'tap' && summary.host !== 'tap'
}

/**
 * The sessions `parallax tap` writes into this engine's data folder, shown live: the folder is looked at
 * every few hundred milliseconds for sessions of a running tap (host `tap`, not ended, its process alive),
 * each followed from its beginning as a connection of this engine (`tap:<session id>`, owned by `tap`)
 * until it ends, its tap is gone (cut short) or the user stops following it. What this engine keeps of
 * it (its own session, a mirror) is never listed, and goes at the next start.
 */
export class TapFollowers {
  private readonly followed = new Map<string, FollowedTap>()
  /** Every tap connection this engine has shown, followed now or not: what each is called. */
  private readonly shown = new Map<string, string>()
  /** Session folders already judged (not a tap's, ended, or followed), never read again. */
  private readonly judged = new Set<string>()
  private readonly timer: ReturnType<typeof setInterval>
  /** The analysis of observed sessions, loaded when a running tap is first found. */
  private observed: typeof ObservedModule | undefined
  private loading = false

  constructor(private readonly options: TapFollowersOptions) {
    this.removeMirrors()
    this.timer = setInterval(() => this.poll(), TAP_POLL_MS)
    this.timer.unref()
  }

  /** What an observed connection of this engine is called, or undefined for a connection that is not one. */
  observedName(connectionId: string): string | undefined {
    const tap = this.followed.get(connectionId)
    return tap ? (tap.name ?? 'this session') : this.shown.get(connectionId)
  }

  isFollowed(connectionId: string): boolean {
    return this.followed.has(connectionId)
  }

  /** The tap's session folder of a connection that shows one. */
  folderOf(connectionId: string): string | undefined {
    return this.followed.get(connectionId)?.dir
  }

  /** Looks for new taps, reads what the followed ones wrote, lets go of those that ended or whose tap is gone. */
  poll(): void {
    for (const name of this.names()) if (!this.judged.has(name)) this.judge(name)
    for (const [connectionId, tap] of this.followed) {
      tap.read()
      if (tap.name !== undefined) this.shown.set(connectionId, tap.name)
      if (!tap.isEnded && !ownerRunning(tap.writer.pid, tap.writer.start)) tap.cutShort()
      if (tap.isEnded) this.followed.delete(connectionId)
    }
  }

  /** Stops following a tap here (its session goes on in the host); false when it is not followed. */
  stop(connectionId: string): boolean {
    const tap = this.followed.get(connectionId)
    if (!tap) return false
    tap.read()
    tap.stop()
    this.followed.delete(connectionId)
    return true
  }

  /**
   * Hands a decision to the tap of a followed session (hold in flight): one JSON line appended to its
   * `control.jsonl` (0600), which the tap reads. A held message is decided only while the tap holds it.
   */
  control(connectionId: string, line: ControlLine): void {
    const tap = this.followed.get(connectionId)
    if (!tap) {
      const name = this.shown.get(connectionId)
      if (name === undefined)
        throw new CommandError(`"${connectionId}" is no session watched through parallax tap: only a tap holds messages`, 'not-found')
      throw new CommandError(`${name} is no longer followed here (its tap ended, or the app stopped following it)`, 'failed')
    }
    const holdId = 'release' in line ? line.release : 'drop' in line ? line.drop : undefined
    if (holdId !== undefined && !tap.holds(holdId))
      throw new CommandError(`message ${holdId} is not held now: it was released, dropped or timed out`, 'not-found')
    try {
      appendFileSync(join(tap.dir, 'control.jsonl'), `${JSON.stringify(line)}\n`, { mode: 0o600 })
    } catch (error) {
      throw new CommandError(`the tap could not be told: ${(error as Error).message}`, 'failed')
    }
  }

  /** Stops following every tap (the engine stops; `removeMirrors` once its store is closed removes its copies). */
  dispose(): void {
    clearInterval(this.timer)
    for (const connectionId of [...this.followed.keys()]) this.stop(connectionId)
  }

  /** Removes the copies of taps' sessions whose app is not running (this engine's, at its end, or a crashed one's). */
  removeMirrors(): void {
    const { store } = this.options
    for (const name of this.names()) {
      const summary = readSummary(join(store.dir, name))
      if (!summary || !isTapMirror(summary)) continue
      if (summary.writer && ownerRunning(summary.writer.pid, summary.writer.start)) continue
      rmSync(join(store.dir, name), { recursive: true, force: true })
    }
  }

  private judge(name: string): void {
    const dir = join(this.options.store.dir, name)
    const summary = readSummary(dir)
    if (!summary) return // not written yet: looked at again next time
    this.judged.add(name)
    if (summary.host !== 'tap' || summary.ended || !summary.writer) return
    if (!ownerRunning(summary.writer.pid, summary.writer.start)) return
    const observed = this.observed
    if (!observed) {
      this.judged.delete(name) // followed once the analysis is loaded, at the next look
      if (!this.loading) {
        this.loading = true
        void import('../tap/observedSession').then((module) => (this.observed = module)).finally(() => (this.loading = false))
      }
      return
    }
    const connectionId = `tap:${summary.id}`
    const store = this.options.store
    const tap = new FollowedTap({
      dir,
      summary,
      connectionId,
      emit: this.options.emit,
      spill: new FrameSpill(MAX_FRAME_BYTES, (text) => store.keepPayload(connectionId, text)),
      protocolFields: this.options.protocolFields,
      observe: (options) => new observed.ObservedSession(options),
    })
    this.followed.set(connectionId, tap)
  }

  private names(): string[] {
    try {
      return readdirSync(this.options.store.dir).filter((name) => SESSION_NAME.test(name))
    } catch {
      return []
    }
  }
}
