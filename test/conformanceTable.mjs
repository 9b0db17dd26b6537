// Prints the conformance table of the MCP conformance suite's 0.2 release (conformance-next): every client scenario
// run with Parallax's CLI as the client and, given a checkout of modelcontextprotocol/conformance with its
// node_modules (the suite's npm package ships no client), with the suite's reference client (the SDK's, its
// examples/clients/typescript/everything-client.ts) on the same run, as a markdown table.
//
//   node test/conformanceTable.mjs [--reference <conformance checkout>] [--only <scenario>…]
//
// A scenario passes when the runner passes it and at least one of its checks succeeded (one that checks nothing
// passes nothing). Runs three scenarios at a time.
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PARALLAX_CLIENT, clientScenarios, inBatches, runScenario, verdict } from './conformanceRun.mjs'

const argv = process.argv.slice(2)
const option = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined)
const referenceRoot = option('--reference')
const only = argv.flatMap((arg, index) => (argv[index - 1] === '--only' ? [arg] : []))
const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url))
const clients = [['Parallax', PARALLAX_CLIENT]]
if (referenceRoot) clients.push(['reference', `${tsx} ${join(referenceRoot, 'examples/clients/typescript/everything-client.ts')}`])

/** Why a run did not pass, in a table cell: the failed checks and the first one's message, or that nothing was checked. */
function whyNot(run, { failed, succeeded }) {
  const cell = (text) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').slice(0, 160)
  if (failed.length > 0) {
    const ids = [...new Set(failed.map((check) => check.id))]
    const message = failed.find((check) => check.errorMessage)?.errorMessage
    return cell(`${ids.slice(0, 4).join(', ')}${ids.length > 4 ? ` (+${ids.length - 4})` : ''}${message ? `: ${message}` : ''}`)
  }
  if (run.checks.length === 0) return cell(`no checks (exit ${run.code}): ${run.output.trim().split('\n').at(-1) ?? ''}`)
  if (succeeded === 0) return 'checks nothing (0 checks succeed)'
  return cell(`runner exit ${run.code}`)
}

const scenarios = only.length > 0 ? only : clientScenarios()
const jobs = scenarios.flatMap((scenario) => clients.map(([client, command]) => ({ scenario, client, command })))
const results = await inBatches(jobs, 3, async (job) => {
  const run = await runScenario(job.scenario, { command: job.command })
  const judged = verdict(run)
  process.stderr.write(`${job.scenario} (${job.client}): ${judged.passed ? 'pass' : 'FAIL'}\n`)
  return { ...job, run, judged }
})

const cellFor = ({ run, judged }) =>
  `${judged.passed ? '✅' : '❌'} ${judged.succeeded}/${run.checks.filter((c) => c.status !== 'INFO' && c.status !== 'SKIPPED').length}`
const rows = scenarios.map((scenario) => {
  const mine = results.filter((result) => result.scenario === scenario)
  const why = mine
    .filter((result) => !result.judged.passed)
    .map((result) => `${clients.length > 1 ? `${result.client}: ` : ''}${whyNot(result.run, result.judged)}`)
  return `| ${scenario} | ${mine.map(cellFor).join(' | ')} | ${why.join('; ')} |`
})
const totals = clients.map(([client]) => results.filter((result) => result.client === client && result.judged.passed).length)
process.stdout.write(
  [
    `| scenario | ${clients.map(([client]) => client).join(' | ')} | why not |`,
    `| --- | ${clients.map(() => '---').join(' | ')} | --- |`,
    ...rows,
    `| **passed** | ${totals.map((total) => `**${total}/${scenarios.length}**`).join(' | ')} | |`,
  ].join('\n') + '\n',
)
