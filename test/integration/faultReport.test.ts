import { expect, it } from 'vitest'
import { withinConnection } from '../../shared/runtime/faultScope'
import { fixtureTarget } from '../fixtures/targets'
import { perTestEngine } from '../fixtures/testEngine'

// The engine's side of a fault nobody handled (the hosts' side, under a real `parallax web` and the CLI, is in
// test/faults/unhandledFaults.test.ts): the connection whose work it came from fails with where it happened; one
// outside any connection is the engine's own log line; the other connections are untouched.
const engines = perTestEngine()

it('fails the faulty connection with its cause, says an unscoped fault as the engine’s, and leaves the rest', async () => {
  const faulty = await engines.connect(fixtureTarget('slowTools'))
  const engine = engines.engine
  const healthy = await engine.createConnection({ ...fixtureTarget('slowTools'), id: 'fixture:other' })
  expect(await healthy.open()).toBe(true)

  const reason = withinConnection(faulty.id, () => new Error('stray rejection'))
  const report = engine.reportFault({ reason, kind: 'unhandled rejection', connectionId: faulty.id })
  expect(report).toEqual({ line: `${faulty.id} (slowTools) failed after an unhandled rejection: stray rejection`, failed: faulty.id })
  const failed = await engines.recorder.waitFor((e) => e.type === 'connection' && e.connectionId === faulty.id && e.state === 'failed')
  expect(failed).toMatchObject({
    reason: 'Parallax stopped this connection after an unhandled rejection: stray rejection',
    cause: { fault: { kind: 'unhandled rejection', stack: expect.arrayContaining([expect.stringMatching(/faultReport\.test\.ts/)]) } },
  })

  const unscoped = engine.reportFault({ reason: new Error('somewhere else'), kind: 'uncaught exception' })
  expect(unscoped.failed).toBeUndefined()
  expect(unscoped.line).toMatch(/^uncaught exception: somewhere else\n {2}at /)
  expect(engines.recorder.of('log', 'engine').at(-1)).toMatchObject({
    level: 'error',
    text: 'Parallax met an uncaught exception: somewhere else',
  })
  expect(healthy.state).toBe('connected')
})
