import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliRunner } from '../fixtures/cli'

// Skills over MCP (SEP-2640, draft) against a real SDK server offering the extension over stdio
// (test/fixtures/servers/skills.ts): inspect lists them without reading a file; --skill loads one.

const parallax = cliRunner(mkdtempSync(join(tmpdir(), 'parallax-skills-')))
const server = `stdio:${process.execPath} --import tsx test/fixtures/servers/skills.ts`

interface Frame {
  direction: string
  method?: string
  payload?: { params?: { uri?: string } }
}

describe('skills over MCP, with the CLI', () => {
  it('inspect lists each skill with what activates it, and reads none of their files', { timeout: 30_000 }, async () => {
    const run = await parallax('inspect', server, '--json', '--frames', '--probes', '0')
    const report = JSON.parse(run.stdout)
    expect(report.findings).toEqual([])
    expect(report.skills).toMatchObject([
      {
        uri: 'skill://pdf-processing/SKILL.md',
        frontmatter: { name: 'pdf-processing', description: 'Use when the user asks to fill or merge PDF forms' },
      },
      { uri: 'skill://tampered/SKILL.md' },
    ])
    const sent = (report.frames as Frame[]).filter((f) => f.direction === 'out').map((f) => f.method)
    expect(sent).toContain('skills/list')
    expect(sent).not.toContain('resources/read')
    expect(run.code).toBe(0)
  })

  it(
    '--skill loads one: every file read and matching its entry; a SKILL.md that does not match is refused, a finding (exit 1)',
    { timeout: 30_000 },
    async () => {
      const run = await parallax(
        'inspect',
        server,
        '--json',
        '--frames',
        '--probes',
        '0',
        '--skill',
        'pdf-processing',
        '--skill',
        'tampered',
      )
      const report = JSON.parse(run.stdout)
      expect(report.skillLoads).toMatchObject([
        {
          uri: 'skill://pdf-processing/SKILL.md',
          verified: true,
          files: [
            { uri: 'skill://pdf-processing/SKILL.md', verified: true, text: expect.stringContaining('# PDF processing') },
            { uri: 'skill://pdf-processing/references/FORMS.md', verified: true },
          ],
        },
        {
          uri: 'skill://tampered/SKILL.md',
          verified: false,
          problem: expect.stringMatching(/its digest is sha256:\w+ where the entry says sha256:\w+/),
        },
      ])
      expect(report.findings).toEqual([expect.stringContaining('skill skill://tampered/SKILL.md not loaded')])
      const read = (report.frames as Frame[])
        .filter((f) => f.direction === 'out' && f.method === 'resources/read')
        .map((f) => f.payload?.params?.uri)
      expect(read).toEqual(['skill://pdf-processing/SKILL.md', 'skill://pdf-processing/references/FORMS.md', 'skill://tampered/SKILL.md'])
      expect(run.code).toBe(1)
    },
  )

  it('under a profile that does not offer the extension, skills are not listed, and discovery says why', { timeout: 30_000 }, async () => {
    const run = await parallax('inspect', server, '--json', '--frames', '--probes', '0', '--profile', 'minimal')
    const report = JSON.parse(run.stdout)
    expect(report.discovery.find((d: { method: string }) => d.method === 'skills/list')).toMatchObject({
      status: 'skipped',
      reason: expect.stringContaining('this client profile does not (the extension is not negotiated)'),
    })
    expect(report.skills).toEqual([])
    expect((report.frames as Frame[]).filter((f) => f.direction === 'out').map((f) => f.method)).not.toContain('skills/list')
  })
})
