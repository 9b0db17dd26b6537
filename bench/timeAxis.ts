/// <reference lib="dom" /> // the functions under "run inside the page" are evaluated in Chromium
/**
 * A session on the time axis, in Chromium against the built web host: one connection that took a flood of log
 * notifications (two events each: the frame and the log line), its timeline asked for by a page as a Timeline
 * view asks for it. `time-axis-open`: a page's first `timeline.view` of the whole session (1,000 bins, the
 * width of a drawing) to its answer, on 1,000,000 events against 1,000. `time-axis-zoom`: p95 of the steps of a
 * zoom from the whole session down to a few milliseconds and a pan across, each a `timeline.view` of the new range.
 *
 * What is measured now is the engine's part, through the web host's socket from the page: the round trip.
 * The page's own part (drawing the answer on the canvas) is added where marked once the Timeline view is there.
 */
import { chromium, type Page } from '@playwright/test'
import type { TimelineView } from '../shared/contract'
import { openApprovedTarget } from '../web/client'
import { startWebHostProcess, type RunningWebHost } from '../web/launch'
import { CHROMIUM_LAUNCH } from './chromium'
import { floodTarget } from './eventDelivery'
import { figure, percentile, type BenchOptions, type Figure } from './harness'
import { connectToHost } from './hostClient'

/** Bins asked for: about the width of a drawing in pixels. */
const BINS = 1_000
/** Zoom steps (each ×1.25 nearer the middle), then pan steps (each a tenth of the width across). */
const ZOOM_STEPS = 40
const PAN_STEPS = 40

/** A web host whose one connection took `notifications` flood notifications, all of them kept in its session. */
async function floodedHost(notifications: number): Promise<{ host: RunningWebHost; connectionId: string; events: number }> {
  const host = await startWebHostProcess()
  const ui = await connectToHost(host)
  try {
    const { connectionId } = await openApprovedTarget(ui, floodTarget(notifications, 0))
    for (;;) {
      const session = (await ui.invoke('sessions.list', {})).find((s) => s.connectionId === connectionId)
      if (session && session.logs >= notifications) return { host, connectionId, events: session.events }
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  } catch (error) {
    await host.stop()
    throw error
  } finally {
    void ui.close()
  }
}

// ── run inside the page ──────────────────────────────────────────────────────────────────────────────
/** Opens a socket to the engine as the page's own client does (the launch token as a subprotocol) and keeps it on `window`. */
async function openSocket(token: string): Promise<void> {
  const url = new URL('ws', location.href)
  url.protocol = 'ws:'
  url.search = ''
  const ws = new WebSocket(url, ['parallax', `parallax.token.${token}`])
  await new Promise((resolve, reject) => {
    ws.onopen = resolve
    ws.onerror = reject
  })
  const pending = new Map<number, (message: { ok: boolean; result?: unknown; error?: { message: string } }) => void>()
  ws.onmessage = (m) => {
    const message = JSON.parse(m.data as string) as { id?: number; ok: boolean }
    if (message.id !== undefined) pending.get(message.id)?.(message)
  }
  let next = 1
  ;(window as unknown as { invoke: unknown }).invoke = (command: string, input: unknown) =>
    new Promise((resolve, reject) => {
      const id = next++
      pending.set(id, (message) => (message.ok ? resolve(message.result) : reject(new Error(message.error?.message))))
      ws.send(JSON.stringify({ id, command, input }))
    })
}

/** Times one `timeline.view` of a range from the page, from the ask to the answer parsed. */
async function timeView(input: { connectionId: string; from?: number; to?: number; bins: number }): Promise<{ ms: number; view: unknown }> {
  const invoke = (window as unknown as { invoke: (command: string, input: unknown) => Promise<unknown> }).invoke
  const started = performance.now()
  const view = await invoke('timeline.view', input)
  // PAGE-SIDE DRAWING: once the Timeline view exists, draw `view` here (the canvas the view uses, off-screen) so
  // that `ms` covers the ask, the answer and the drawing of it: the figure the issue defines.
  return { ms: performance.now() - started, view }
}
// ─────────────────────────────────────────────────────────────────────────────────────────────────────

async function measure(notifications: number): Promise<{ openMs: number; zoomP95: number; events: number; densest: string }> {
  const { host, connectionId, events } = await floodedHost(notifications)
  const browser = await chromium.launch({ ...CHROMIUM_LAUNCH, args: [...CHROMIUM_LAUNCH.args, '--headless'] })
  try {
    const page: Page = await browser.newPage({ viewport: { width: 1360, height: 820 } })
    // A page of the host's origin without the app (its own catching up would share the socket's time): the engine's part alone.
    await page.goto(new URL('/time-axis-bench', host.url).href)
    await page.evaluate(openSocket, host.token)
    const open = await page.evaluate(timeView, { connectionId, bins: BINS })
    const whole = open.view as TimelineView
    const { start, end } = whole.extent
    const steps: number[] = []
    let from = start
    let to = end
    const middle = (start + end) / 2
    for (let i = 0; i < ZOOM_STEPS; i++) {
      const width = (to - from) / 1.25
      from = middle - width / 2
      to = middle + width / 2
      steps.push((await page.evaluate(timeView, { connectionId, from, to, bins: BINS })).ms)
    }
    for (let i = 0; i < PAN_STEPS; i++) {
      const shift = (to - from) / 10
      from += shift
      to += shift
      steps.push((await page.evaluate(timeView, { connectionId, from, to, bins: BINS })).ms)
    }
    const dense = whole.lanes.find((l) => l.density)
    return {
      openMs: open.ms,
      zoomP95: percentile(steps, 95),
      events,
      densest: dense ? `${dense.id}: ${dense.total.toLocaleString('en-US')} in ${dense.density!.counts.length} bins` : 'no lane dense',
    }
  } finally {
    await browser.close()
    await host.stop()
  }
}

export async function timeAxis({ quick }: BenchOptions): Promise<Figure[]> {
  const asked = Number(process.env.PARALLAX_BENCH_TIME_AXIS_EVENTS)
  const events = asked || (quick ? 20_000 : 1_000_000)
  const small = await measure(500)
  const long = await measure(events / 2)
  const label = (n: number) => n.toLocaleString('en-US')
  return [
    figure(
      'time-axis-open',
      long.openMs,
      small.openMs,
      'ms',
      `a page's first timeline.view of the whole session (${BINS} bins) through the web host, on ${label(long.events)} events (${long.densest}) vs ${label(small.events)}; the engine's part (the drawing is not yet measured)`,
    ),
    figure(
      'time-axis-zoom',
      long.zoomP95,
      small.zoomP95,
      'ms',
      `p95 of ${ZOOM_STEPS} zoom steps (×1.25, whole session to a few ms) and ${PAN_STEPS} pan steps, each a timeline.view from the page, on ${label(long.events)} events vs ${label(small.events)}; the engine's part`,
    ),
  ]
}
