import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliRunner, type CliRun } from '../fixtures/cli'

// Parity where teams work: a library of recordings replayed in CI (several files, a folder, shards of a
// matrix), JUnit per recording, one HTML report; compare's vocabulary and renames on the command line.
// Against the real demo targets, with recordings made by `parallax record` and the shipped demo session.

const DEMO = fileURLToPath(new URL('../../shared/demo/recordings/media-buying.jsonl', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'parallax-parity-'))
const library = join(dir, 'library')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const parallax = cliRunner(join(dir, 'data'))

/** The one JSON object a --json run prints: exactly one line on stdout. */
function oneObject(run: CliRun) {
  const lines = run.stdout.trim().split('\n')
  expect(lines, run.stdout + run.stderr).toHaveLength(1)
  return JSON.parse(lines[0])
}

interface Report {
  format: string
  targets: string[]
  shard?: { index: number; count: number }
  recordings: { recording: string; problems: unknown[]; turns: { index: number; status: string }[]; summary: Record<string, number> }[]
  summary: Record<string, number>
}

const TARGETS = ['--target', 'demo:tools', '--target', 'demo:a2a']

beforeAll(async () => {
  // The library: the shipped demo session, a session recorded over MCP and one recorded over A2A.
  mkdirSync(library)
  copyFileSync(DEMO, join(library, 'b-media-buying.jsonl'))
  const recorded = await Promise.all([
    parallax(
      'record',
      'demo:tools',
      '--turn',
      '{"tool":"list_creative_formats","arguments":{"name_search":"pre-roll"}}',
      '--turn',
      '{"tool":"get_products","arguments":{"buying_mode":"brief","brief":"podcast"}}',
      '--out',
      join(library, 'a-formats-over-mcp.jsonl'),
    ),
    parallax(
      'record',
      'demo:a2a',
      '--turn',
      '{"skill":"get_products","input":{"buying_mode":"brief","brief":"sports"}}',
      '--out',
      join(library, 'c-search-over-a2a.jsonl'),
    ),
  ])
  for (const run of recorded) expect(run.code, run.stderr).toBe(0)
}, 60_000)

describe('parallax replay of several recordings', () => {
  it('replays each file given: one parallax.replay/1 object with every recording and the total, JUnit per recording, one HTML report', async () => {
    const junit = join(dir, 'two.xml')
    const html = join(dir, 'two.html')
    const files = [join(library, 'c-search-over-a2a.jsonl'), join(library, 'b-media-buying.jsonl')]
    const run = await parallax('replay', ...files, ...TARGETS, '--json', '--junit', junit, '--report', html)
    expect(run.code, run.stderr).toBe(1) // the demo session's delivery differs
    const report = oneObject(run) as Report
    expect(report.format).toBe('parallax.replay/1')
    expect(report.targets).toEqual(['demo:tools', 'demo:a2a'])
    // In the order of their paths, whatever the order given.
    expect(report.recordings.map((r) => r.recording)).toEqual([...files].sort())
    const [demo, search] = report.recordings
    expect(demo.summary).toEqual({ total: 4, same: 3, differs: 1, errors: 0 })
    expect(demo.turns[3]).toMatchObject({ index: 4, status: 'differs', diff: [{ path: '/data/media_buy_deliveries/0/pricing_model' }] })
    expect(search.summary).toEqual({ total: 1, same: 1, differs: 0, errors: 0 })
    expect(report.summary).toEqual({ total: 5, same: 4, differs: 1, errors: 0 })

    const xml = readFileSync(junit, 'utf8')
    const suites = [...xml.matchAll(/<testsuite name="([^"]*)" tests="(\d+)" failures="(\d+)"/g)].map((m) => [m[1], m[2], m[3]])
    expect(suites).toEqual([
      [`replay ${files[1]}: demo:tools vs demo:a2a`, '4', '1'],
      [`replay ${files[0]}: demo:tools vs demo:a2a`, '1', '0'],
    ])
    expect(xml.match(/<testcase /g)).toHaveLength(5)

    const page = readFileSync(html, 'utf8')
    expect(page).toContain('<h1>Parity of 2 recording(s)</h1>')
    expect(page).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`)
    expect(page).not.toMatch(/<script|<link|<img|\ssrc=|\shref=/i)
    for (const recording of report.recordings) {
      const section = page.slice(page.indexOf(`<section data-recording="${recording.recording}">`)).split('</section>')[0]
      for (const turn of recording.turns)
        expect(section).toContain(
          `<details${turn.status === 'differs' ? ' open' : ''} data-turn="${turn.index}" data-status="${turn.status}">\n<summary><span class="badge ${turn.status}">${turn.status}</span>`,
        )
    }
    expect(page).toContain('/data/media_buy_deliveries/0/pricing_model')
  }, 60_000)

  it('replays a folder’s *.jsonl in order of their names, saying which recording each turn belongs to', async () => {
    const run = await parallax('replay', library, ...TARGETS)
    expect(run.code).toBe(1)
    expect(run.stdout.match(/^\S+\.jsonl: demo:tools vs demo:a2a$/gm)).toEqual([
      `${join(library, 'a-formats-over-mcp.jsonl')}: demo:tools vs demo:a2a`,
      `${join(library, 'b-media-buying.jsonl')}: demo:tools vs demo:a2a`,
      `${join(library, 'c-search-over-a2a.jsonl')}: demo:tools vs demo:a2a`,
    ])
    expect(run.stdout).toMatch(/\n3 recording\(s\), 1 with a difference or error; 7 turn\(s\): 6 same, 1 differ, 0 error\(s\)\n$/)
    expect(run.stderr).toContain(`${join(library, 'b-media-buying.jsonl')}: turn 4: differs`)
  }, 60_000)

  it('--shard 1/2 and 2/2 split the folder between two machines: every recording exactly once, JUnit per recording in each', async () => {
    const shards = await Promise.all(
      ['1/2', '2/2'].map(async (shard, i) => {
        const junit = join(dir, `shard-${i + 1}.xml`)
        const run = await parallax('replay', library, '--target', 'demo:tools', '--shard', shard, '--json', '--junit', junit)
        return { run, report: oneObject(run) as Report, xml: readFileSync(junit, 'utf8') }
      }),
    )
    const names = shards.map(({ report }) => report.recordings.map((r) => r.recording))
    expect(names).toEqual([
      [join(library, 'a-formats-over-mcp.jsonl')],
      [join(library, 'b-media-buying.jsonl'), join(library, 'c-search-over-a2a.jsonl')],
    ])
    expect(shards.map(({ report }) => report.shard)).toEqual([
      { index: 1, count: 2 },
      { index: 2, count: 2 },
    ])
    for (const { run, report, xml } of shards) {
      // Against one target, each turn is compared with what was recorded: the demo answers the same.
      expect(run.code, run.stderr).toBe(0)
      expect(report.summary.differs + report.summary.errors).toBe(0)
      expect(xml.match(/<testsuite /g)).toHaveLength(report.recordings.length)
      for (const r of report.recordings)
        expect(xml).toContain(`<testsuite name="replay ${r.recording}: recording vs demo:tools" tests="${r.turns.length}"`)
    }
  }, 90_000)

  it('keeps the report of one recording as it was, and writes its HTML report', async () => {
    const html = join(dir, 'one.html')
    const run = await parallax('replay', DEMO, ...TARGETS, '--json', '--report', html)
    expect(run.code).toBe(1)
    const report = oneObject(run)
    expect(Object.keys(report)).toEqual(['format', 'recording', 'targets', 'problems', 'turns', 'summary'])
    const page = readFileSync(html, 'utf8')
    expect(page).toContain(`<h1>Parity of ${DEMO}</h1>`)
    expect(page.match(/<summary><span class="badge (same|differs)">/g)).toHaveLength(4)
  }, 60_000)

  it('exits 2 for a bad --shard or an empty folder (before connecting), and for a --report it cannot write', async () => {
    for (const shard of ['0/2', '3/2', 'half', '1/0']) {
      const run = await parallax('replay', library, '--target', 'demo:tools', '--shard', shard, '--json')
      expect(run.code).toBe(2)
      expect(oneObject(run).error).toMatchObject({ kind: 'usage', message: expect.stringMatching(/--shard is i\/n/) })
    }
    mkdirSync(join(dir, 'empty'))
    expect((await parallax('replay', join(dir, 'empty'), '--target', 'demo:tools')).stderr).toMatch(/holds no recordings \(\*\.jsonl\)/)
    const unwritable = await parallax('replay', DEMO, '--target', 'demo:tools', '--report', join(dir, 'no', 'such', 'folder.html'))
    expect(unwritable.code).toBe(2)
    expect(unwritable.stderr).toMatch(/--report: cannot write/)
  }, 60_000)
})

describe('parallax compare in one vocabulary', () => {
  it('says same, only in A, only in B and changed; --pair renames a tool to the skill it pairs with', async () => {
    const plain = await parallax('compare', 'demo:tools', 'demo:a2a')
    expect(plain.code).toBe(1)
    expect(plain.stdout).toContain(
      'catalog: 5 same, 0 only in A, 1 only in B, 0 changed\n  + operation get_media_buy_delivery  only in B\n',
    )

    const paired = await parallax('compare', 'demo:tools', 'demo:a2a', '--pair', 'get_media_buys=get_media_buy_delivery', '--json')
    expect(paired.code).toBe(1)
    const { catalog } = oneObject(paired)
    expect(catalog.same.map((x: { name: string }) => x.name).sort()).toEqual([
      'create_media_buy',
      'get_adcp_capabilities',
      'get_media_buy_delivery',
      'get_products',
      'list_creative_formats',
    ])
    expect(catalog.added.map((x: { name: string }) => x.name)).toEqual(['get_media_buys'])

    const bad = await parallax('compare', 'demo:tools', 'demo:a2a', '--pair', 'get_products')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--pair takes tool=skill/)
  }, 60_000)
})
