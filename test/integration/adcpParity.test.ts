import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { SavedTarget, TurnParity } from '../../shared/contract'
import { Engine } from '../../shared/engine/engine'
import { startA2aSeller, type RunningSeller } from '../fixtures/adcp/a2aSeller'
import { EventRecorder } from '../fixtures/events'
import { a2aTarget, approveAll, fixtureTarget } from '../fixtures/targets'

const MCP_SELLER: SavedTarget = { ...fixtureTarget('adcpSeller', ['conformant']), id: 'adcp-mcp', name: 'AdCP seller (MCP)' }
const TURNS = [
  { tool: 'list_creative_formats', arguments: {} },
  { tool: 'create_media_buy', arguments: { brand: { domain: 'acme.example' } } },
]

let engine: Engine | undefined
let seller: RunningSeller | undefined
let dir: string | undefined
afterEach(async () => {
  await engine?.dispose()
  engine = undefined
  await seller?.close()
  seller = undefined
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = undefined
})

/** A session with the seller over MCP, recorded: the formats listed, a buy refused (isError). */
async function recordOverMcp(): Promise<{ e: Engine; recorder: EventRecorder; name: string; a2a: SavedTarget }> {
  dir = mkdtempSync(join(tmpdir(), 'parallax-adcp-parity-'))
  seller = await startA2aSeller('conformant')
  const a2a: SavedTarget = { ...a2aTarget(seller.url), id: 'adcp-a2a', name: 'AdCP seller (A2A)' }
  const e = (engine = new Engine({
    host: 'cli',
    approver: approveAll,
    recordingsDir: join(dir, 'recordings'),
    defaults: { keepaliveIntervalMs: 60_000, reconnectAttempts: 0 },
  }))
  const recorder = new EventRecorder(e)
  const { connectionId } = await e.invoke('connections.open', { target: { ...MCP_SELLER, origin: 'user' } })
  await recorder.waitFor((ev) => ev.type === 'discovery' && ev.connectionId === connectionId && ev.status === 'called', 20_000)
  const { name } = await e.invoke('recordings.start', { connectionId, name: 'adcp session' })
  for (const turn of TURNS) await e.invoke('conversation.send', { connectionId, turn, stream: false, newContext: false })
  await e.invoke('recordings.stop', { connectionId })
  return { e, recorder, name, a2a }
}

const turnsOf = (recorder: EventRecorder, replayId: string): TurnParity[] =>
  recorder
    .of('replay')
    .filter((ev) => ev.replayId === replayId && ev.phase === 'turn')
    .map((ev) => ev.turn!)

describe("parity in AdCP's task-status vocabulary, across MCP and A2A", () => {
  it('MCP vs A2A: the same formats are the same; a buy failed over MCP and rejected over A2A differs, in AdCP’s words', async () => {
    const { e, recorder, name, a2a } = await recordOverMcp()
    const { replayId } = await e.invoke('replay.start', {
      recording: name,
      targets: [{ target: { ...MCP_SELLER, origin: 'user' } }, { target: { ...a2a, origin: 'user' } }],
    })
    const summary = await e.invoke('replay.run', { replayId })
    expect(summary).toMatchObject({ total: 2, same: 1, differs: 1 })
    const [formats, buy] = turnsOf(recorder, replayId)
    expect(formats).toMatchObject({ status: 'same', a: { adcpStatus: 'completed', state: 'completed' }, b: { adcpStatus: 'completed' } })
    // The one vocabulary says "failed" for both; AdCP tells the task the agent would not start from one that failed.
    expect(buy).toMatchObject({
      status: 'differs',
      a: { outcome: 'failed', adcpStatus: 'failed', state: 'error' },
      b: { outcome: 'failed', adcpStatus: 'rejected', state: 'rejected' },
    })
    expect(buy.diff).toEqual([{ path: '/adcpStatus', op: 'replace', a: 'failed', b: 'rejected' }])

    const { html } = await e.invoke('replay.report', { replayId })
    expect(html).toContain('AdCP task status: A completed · B completed')
    expect(html).toContain('AdCP task status: A failed · B rejected')
  })

  it('the recorded MCP session against the A2A seller: the recording is said in AdCP’s words too', async () => {
    const { e, recorder, name, a2a } = await recordOverMcp()
    const { replayId } = await e.invoke('replay.start', { recording: name, targets: [{ target: { ...a2a, origin: 'user' } }] })
    await e.invoke('replay.run', { replayId })
    const [formats, buy] = turnsOf(recorder, replayId)
    expect(formats).toMatchObject({ status: 'same', a: { adcpStatus: 'completed' }, b: { adcpStatus: 'completed' } })
    expect(buy).toMatchObject({ status: 'differs', a: { adcpStatus: 'failed', state: 'error' }, b: { adcpStatus: 'rejected' } })
  })
})
