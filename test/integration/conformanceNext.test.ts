import { beforeAll, describe, expect, it } from 'vitest'
import { type ScenarioRun, inBatches, runScenario, verdict } from '../conformanceRun.mjs'

/**
 * The client scenarios of the MCP conformance suite's 0.2 release (0.2.0-alpha.12, installed as conformance-next)
 * outside authorization, custom headers from tool parameters and skills (their own files), with Parallax's CLI as
 * the client (test/conformanceClient.mjs says which command each runs), and how many checks each must pass.
 */
const PASSING = [
  ['initialize', 1],
  ['tools_call', 2],
  ['elicitation-sep1034-client-defaults', 5],
  ['sse-retry', 3], // the tool's answer comes on the GET stream Parallax reopens after the server closes the POST's
  ['request-metadata', 8], // the first request refused as an unsupported version: Parallax retries with the one offered
  ['json-schema-ref-no-deref', 1],
  ['json-schema-2020-12-preservation', 9], // the listed schema sent back as listed
  ['http-standard-headers', 10],
  // SEP-2322: requestState echoed, a new id on the retry, no state not given; an answer without resultType is complete.
  ['sep-2322-client-request-state', 5],
] as const

const runs = new Map<string, ScenarioRun>()
beforeAll(async () => {
  // Three at a time: each starts its suite's server and one or more Parallax CLI processes.
  const names = PASSING.map(([name]) => name)
  const results = await inBatches(names, 3, (name) => runScenario(name))
  names.forEach((name, index) => runs.set(name, results[index]))
}, 240_000)

describe('the MCP conformance suite 0.2, Parallax as the client', () => {
  for (const [name, expected] of PASSING) {
    it(`passes ${name}`, () => {
      const run = runs.get(name)!
      const { passed, failed, succeeded } = verdict(run)
      expect(failed, run.output).toEqual([])
      expect(succeeded, run.output).toBe(expected)
      expect(passed, run.output).toBe(true)
    })
  }
})
