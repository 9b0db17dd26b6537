import { CommandError, type EngineEvent, type RecordingHeader } from '../../contract'
import { backlogPage } from '../../runtime/store/backlogPages'
import { SESSION_VIEW } from '../../runtime/store/sessionStore'
import { contextBefore, lastSeqOf, searchSession, walkSession } from '../../runtime/store/sessionReads'
import { RecordingWriter } from '../../session/recording'
import { isTapMirror } from '../tapFollowers'
import type { CommandContext, DomainHandlers } from './handler'

/** Sessions kept on disk (runtime/store): listed, read back as `session:<id>`, saved as recordings, searched, deleted, bounded. */
export const sessionCommands: DomainHandlers<'sessions'> = {
  // An app's copy of a tap's session is not listed: the tap's own is.
  'sessions.list': ({ targetId }, engine) =>
    engine.events.store
      .list()
      .filter((s) => s.owner !== undefined && !isTapMirror(s) && (targetId === undefined || s.targetId === targetId)),
  'sessions.backlog': ({ sessionId, afterSeq, limit }, engine) => {
    const viewId = `${SESSION_VIEW}${sessionId}`
    const files = filesOf(engine, viewId)
    return backlogPage([{ connectionId: viewId, files }], afterSeq, limit ?? 50_000, lastSeqOf(files))
  },
  'sessions.export': async ({ sessionId, name, path, from, to }, engine) => {
    const summary = engine.events.store.list().find((s) => s.id === sessionId)
    if (!summary) throw new CommandError(`no session "${sessionId}"`, 'not-found')
    const files = filesOf(engine, `${SESSION_VIEW}${sessionId}`)
    let file: { name?: string; path: string }
    if (path !== undefined) {
      if (!engine.recordsToFiles)
        throw new CommandError('this host saves sessions into the recordings library, not into a file', 'invalid-input')
      file = { path }
    } else {
      const stamp = new Date(summary.startedAt).toISOString().slice(0, 19).replace('T', ' ').replaceAll(':', '.')
      const created = await engine.requireLibrary().create(name ?? `${summary.targetName} ${stamp}`, { generated: name === undefined })
      file = created
    }
    // A time range starts with the connection's state then, as a recording started then would.
    const context = from === undefined ? [] : contextBefore(files, from)
    const header: Omit<RecordingHeader, 'format' | 'app' | 'startedAt' | 'mapping'> = {
      targets: [{ id: summary.targetId, name: summary.targetName }],
      connection: { id: summary.connectionId, ...(summary.owner ?? { purpose: 'session', startedAt: summary.startedAt }) },
      context: context.length,
    }
    const writer = new RecordingWriter(file.path, header)
    let events = 0
    const write = (event: EngineEvent) => {
      writer.write({ ...event, connectionId: summary.connectionId })
      events++
    }
    for (const event of context) write(event)
    walkSession(files, write, from, to)
    writer.close()
    if (writer.error) throw new CommandError(writer.error, 'failed')
    return { ...(file.name !== undefined && { name: file.name }), ...(path !== undefined && { path }), events }
  },
  'sessions.delete': ({ sessionId }, engine) => {
    try {
      if (!engine.events.store.delete(sessionId)) throw new CommandError(`no session "${sessionId}"`, 'not-found')
    } catch (error) {
      if (error instanceof CommandError) throw error
      throw new CommandError((error as Error).message, 'invalid-input')
    }
    return { deleted: true }
  },
  'sessions.retention': (_input, engine) => retention(engine),
  'sessions.setRetention': ({ bytes }, engine) => {
    const removed = engine.events.store.setRetention(bytes)
    return { ...retention(engine), removed }
  },
  'sessions.search': ({ connectionId, text, from, budgetMs, limit }, engine) => {
    engine.events.store.flush()
    return searchSession(filesOf(engine, connectionId), text, from, budgetMs ?? 250, limit ?? 200)
  },
}

function retention(engine: CommandContext): { bytes: number; used: number } {
  const store = engine.events.store
  return { bytes: store.retentionBytes, used: store.list().reduce((sum, s) => sum + s.bytes, 0) }
}

function filesOf(engine: CommandContext, connectionId: string) {
  const files = engine.events.store.files(connectionId)
  if (!files) throw new CommandError(`no session "${connectionId.replace(SESSION_VIEW, '')}"`, 'not-found')
  return files
}
