import { CommandError, type ReplayEvent } from '../../contract'
import { parityReportHtml } from '../../session/parityReport'
import { openRecording } from '../../session/recording'
import { Redactor } from '../../runtime/redaction'
import { summarize } from '../../session/replay'
import type { DomainHandlers } from './handler'

/** The recordings library (and recording a connection into it, or into a file), and replays of recordings. */
export const recordingCommands: DomainHandlers<'recordings' | 'replay'> = {
  'recordings.list': (_, engine) => engine.requireLibrary().list(),
  'recordings.start': async ({ connectionId, name, file }, engine) => {
    if (file !== undefined) {
      if (!engine.recordsToFiles) throw new CommandError('this host records into the recordings library, not into a file', 'invalid-input')
      return { name: engine.startRecording(connectionId, file) }
    }
    const library = engine.requireLibrary()
    const connection = engine.connection(connectionId)
    // A name the user chose must be free (nothing is appended to another recording); a generated one is made free.
    const generated = `${connection.target.name} ${new Date().toISOString().slice(0, 19).replace('T', ' ').replaceAll(':', '.')}`
    const created = await library.create(name ?? generated, { generated: name === undefined })
    try {
      return { name: engine.startRecording(connectionId, created.path, created.name) }
    } catch (error) {
      await library.remove(created.name).catch(() => {}) // the first line never reached the disk: no empty recording is left
      throw error
    }
  },
  'recordings.stop': ({ connectionId }, engine) => engine.stopRecording(connectionId),
  'recordings.rename': async ({ name, to }, engine) => ({ name: await engine.requireLibrary().rename(name, to) }),
  'recordings.delete': async ({ name }, engine) => ({ deleted: await engine.requireLibrary().remove(name) }),
  'recordings.import': ({ name, text }, engine) => engine.requireLibrary().import(name, text),
  'recordings.export': async ({ name }, engine) => ({ text: await engine.requireLibrary().export(name) }),
  'recordings.load': async ({ name }, engine) => {
    const { header, problems, events, turns } = await engine.requireLibrary().load(name)
    return { header, problems, events, turns: turns.map(({ index, turn }) => ({ index, turn })) }
  },

  'replay.start': async ({ recording, targetIds, targets, ignore, keep }, engine) => {
    const byName = typeof recording === 'string'
    const loaded = byName ? await engine.requireLibrary().load(recording) : openRecording(recording.text)
    const refs = targets ?? (targetIds ?? []).map((targetId) => ({ targetId }))
    const sides = await Promise.all(refs.map((ref) => engine.resolveTarget(ref)))
    const replay = await engine.startReplay({
      targets: sides,
      turns: loaded.turns,
      ignore,
      recording: byName ? recording : recording.label,
      mapping: loaded.header?.mapping,
      keep,
    })
    return { replayId: replay.id, total: replay.total }
  },
  'replay.step': async ({ replayId }, engine) => (await engine.replay(replayId).step()) ?? null,
  'replay.run': ({ replayId }, engine) => engine.replay(replayId).runAll(),
  'replay.stop': ({ replayId }, engine) => {
    engine.replay(replayId).stop()
    return { stopped: true }
  },
  'replay.report': ({ replayId }, engine) => {
    // Made of the replay's events, as the UI shows it: its recording and sides, and each turn reported so far.
    const events = engine.events
      .eventsOf(`replay:${replayId}`)
      .filter((e): e is ReplayEvent => e.type === 'replay' && e.replayId === replayId)
    const started = events.find((e) => e.phase === 'started')
    if (!started?.sides) throw new CommandError(`no replay "${replayId}"`, 'not-found')
    const turns = events.flatMap((e) => (e.phase === 'turn' && e.turn ? [e.turn] : []))
    const report = {
      recording: started.recording ?? replayId,
      sides: { a: started.sides.a.label, b: started.sides.b.label },
      turns: turns.map(({ index, status, turn, a, b, errors, reason, diff }) => ({ index, status, turn, a, b, errors, reason, diff })),
      summary: summarize(turns),
    }
    // A file for reviewers: secrets are taken out, as in recordings and the CLI's reports.
    return { html: parityReportHtml(new Redactor().redact(report)) }
  },
}
