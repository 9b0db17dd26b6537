import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import type { CompareResult } from '../../shared/contract'
import { builtInDemos } from '../../shared/demo/builtIns'
import { Engine } from '../../shared/engine/engine'
import { approveAll } from '../fixtures/targets'

// The reports a UI downloads (Export report): made by the engine from what the user sees, through the
// same command API, redacted like every file Parallax writes.

const DEMO_RECORDING = fileURLToPath(new URL('../../shared/demo/recordings/media-buying.jsonl', import.meta.url))
let engine: Engine
afterEach(() => engine?.dispose())

function newEngine() {
  engine = new Engine({ host: 'web', builtIns: builtInDemos(), approver: approveAll, defaults: { keepaliveIntervalMs: 60_000 } })
  return engine
}

describe('replay.report and compare.report', () => {
  it('a replay of the demo session MCP vs A2A: its sides, every turn with its badge, the difference open', async () => {
    newEngine()
    const { replayId } = (await engine.execute('replay.start', {
      recording: { label: 'media-buying', text: readFileSync(DEMO_RECORDING, 'utf8') },
      targetIds: ['demo:tools', 'demo:a2a'],
    })) as { replayId: string }
    // Before any turn: the page says so (the sides, no turns), rather than failing.
    const before = (await engine.execute('replay.report', { replayId })) as { html: string }
    expect(before.html).toContain('A: Demo media-sales agent · B: Demo media-sales agent (A2A) · 0 turn(s)')
    await engine.execute('replay.run', { replayId })
    const { html } = (await engine.execute('replay.report', { replayId })) as { html: string }
    expect(html).toContain('<h1>Parity of media-buying</h1>')
    expect(html).toContain('<span class="badge same">3 same</span> <span class="badge differs">1 differs</span>')
    expect(html.match(/<details[^>]* data-turn="\d" data-status="same">/g)).toHaveLength(3)
    expect(html).toContain('<details open data-turn="4" data-status="differs">')
    await expect(engine.execute('replay.report', { replayId: 'r404' })).rejects.toMatchObject({ code: 'not-found' })
  }, 60_000)

  it('a compare the UI holds: every entry in the vocabulary of the view, and secrets taken out', async () => {
    newEngine()
    const result = (await engine.execute('compare.run', { a: { targetId: 'demo:tools' }, b: { targetId: 'demo:a2a' } })) as CompareResult
    const secret = 'sk-live-0123456789abcdef'
    result.handshake.push({ origin: 'agent', field: 'serverInfo', a: { name: 'x', apiKey: secret }, b: { name: 'x' }, frames: {} })
    const { html } = (await engine.execute('compare.report', { result })) as { html: string }
    expect(html).toContain(
      '<span class="badge same">5 same</span> <span class="badge removed">0 only in A</span> <span class="badge added">1 only in B</span>',
    )
    expect(html).toContain('<tr data-name="get_media_buy_delivery" data-status="only in B">')
    expect(html).not.toContain(secret)
    expect(html).toContain('[redacted]')
    // The engine validates what a UI hands back, as any input.
    await expect(engine.execute('compare.report', { result: { ...result, catalog: undefined } })).rejects.toMatchObject({
      code: 'invalid-input',
    })
  }, 60_000)
})
