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
] as const

/**
 * SEP-2322: Parallax echoes requestState, uses a new id on the retry and sends no state it was not given (every
 * check passes), but a 2026 result without `resultType` is refused as invalid (the spec makes it required of
 * 2026 servers) where the suite wants it taken as complete: Parallax says so as a finding and exits 1.
 */
const REQUEST_STATE = 'sep-2322-client-request-state'

const runs = new Map<string, ScenarioRun>()
beforeAll(async () => {
  // Three at a time: each starts its suite's server and one or more Parallax CLI processes.
  const names = [...PASSING.map(([name]) => name), REQUEST_STATE]
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

  it(`passes every check of ${REQUEST_STATE}, and reports the result that has no resultType`, () => {
    const run = runs.get(REQUEST_STATE)!
    expect(verdict(run).failed, run.output).toEqual([])
    expect(run.checks.map((check) => check.id).sort(), run.output).toEqual([
      'sep-2322-client-jsonrpc-id-different',
      'sep-2322-client-no-state-omitted',
      'sep-2322-client-parallel-isolation',
      'sep-2322-client-request-state-echoed',
      'sep-2322-default-result-type-complete',
    ])
    expect(run.output).toMatch(/1 finding\(s\):\n\s+- Invalid result for tools\/call: missing required resultType/)
    expect(run.code).toBe(1)
  })
})
