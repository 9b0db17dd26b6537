/// <reference lib="dom" /> // the functions under "run inside the page" are evaluated in Chromium
/**
 * A session on the time axis, in Chromium against the built web host: one connection that took a flood of log
 * notifications (two events each: the frame and the log line), its timeline asked for by a page as a Timeline
 * view asks for it. `time-axis-open`: a page's first `timeline.view` of the whole session (1,000 bins, the
 * width of a drawing) to its answer, on 1,000,000 events against 1,000. `time-axis-zoom`: p95 of the steps of a
 * zoom from the whole session down to a few milliseconds and a pan across, each a `timeline.view` of the new range.
 *
 * Each step is measured in the page from the ask to the answer drawn: the round trip through the web host's
 * socket, then the Timeline's own drawing of the answer (renderer/src/views/connection/timeline/drawTimeline.ts,
 * bundled for the page as it is) on a canvas the size of the view's. The drawing alone, the page's main-thread
 * work beside the parsing of the answer, is said in the notes.
 */
import { chromium, type Page } from '@playwright/test'
import { build } from 'vite'
import type { TimelineView } from '../shared/contract'
import type * as Drawing from '../renderer/src/views/connection/timeline/drawTimeline'
import { CHROMIUM_LAUNCH } from './chromium'
import { figure, percentile, type BenchOptions, type Figure } from './harness'
import { floodedHost } from './longSessionUi'

/** Bins asked for: about the width of a drawing in pixels. */
const BINS = 1_000
/** Zoom steps (each ×1.25 nearer the middle), then pan steps (each a tenth of the width across). */
const ZOOM_STEPS = 40
const PAN_STEPS = 40

/** The Timeline's drawing, bundled for a page as a script that sets `window.timeAxisDraw`. */
async function drawingScript(): Promise<string> {
  const built = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: {
        entry: new URL('../renderer/src/views/connection/timeline/drawTimeline.ts', import.meta.url).pathname,
        formats: ['iife'],
        name: 'timeAxisDraw',
      },
    },
  })
  const output = (Array.isArray(built) ? built[0] : built) as { output: { type: string; code?: string }[] }
  return output.output.find((o) => o.type === 'chunk')!.code!
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

/**
 * Times one `timeline.view` of a range from the page, from the ask to the answer drawn as the Timeline draws it
 * (its lanes open, on a canvas of the view's size at the screen's pixel ratio); `drawMs`: the drawing alone.
 */
async function timeView(input: {
  connectionId: string
  from?: number
  to?: number
  bins: number
}): Promise<{ ms: number; drawMs: number; view: unknown }> {
  const page = window as unknown as {
    invoke: (command: string, input: unknown) => Promise<unknown>
    timeAxisDraw: typeof Drawing
    axisCanvas?: HTMLCanvasElement
  }
  const started = performance.now()
  const view = (await page.invoke('timeline.view', input)) as TimelineView
  const drawing = performance.now()
  const { drawTimeline, laneLayout, readPalette, AXIS_HEIGHT, LANE_HEIGHT } = page.timeAxisDraw
  const width = 1_100
  const height = AXIS_HEIGHT + view.lanes.length * LANE_HEIGHT
  let canvas = page.axisCanvas
  if (!canvas) {
    canvas = page.axisCanvas = document.createElement('canvas')
    document.body.append(canvas)
  }
  canvas.width = width * devicePixelRatio
  canvas.height = height * devicePixelRatio
  const ctx = canvas.getContext('2d')!
  ctx.setTransform(devicePixelRatio, 0, 0, devicePixelRatio, 0, 0)
  const shown = { from: input.from ?? view.range.from, to: input.to ?? view.range.to }
  const layout = laneLayout(
    view.lanes.map((l) => l.id),
    new Set(),
  )
  drawTimeline(ctx, { width, height }, view, shown, layout, readPalette(document.documentElement), {})
  // What is drawn is on the canvas once its pixels can be read: the drawing's whole cost, not only its queuing.
  ctx.getImageData(0, 0, 1, 1)
  const done = performance.now()
  return { ms: done - started, drawMs: done - drawing, view }
}
// ─────────────────────────────────────────────────────────────────────────────────────────────────────

async function measure(
  notifications: number,
  script: string,
): Promise<{ openMs: number; zoomP95: number; drawP95: number; openDrawMs: number; events: number; densest: string }> {
  const { host, connectionId, events } = await floodedHost(notifications)
  const browser = await chromium.launch({ ...CHROMIUM_LAUNCH, args: [...CHROMIUM_LAUNCH.args, '--headless'] })
  try {
    const page: Page = await browser.newPage({ viewport: { width: 1360, height: 820 } })
    // A page of the host's origin without the app (its own catching up would share the socket's time): the engine's part alone.
    await page.goto(new URL('/time-axis-bench', host.url).href)
    await page.evaluate(openSocket, host.token)
    await page.addScriptTag({ content: script })
    const open = await page.evaluate(timeView, { connectionId, bins: BINS })
    const whole = open.view as TimelineView
    const { start, end } = whole.extent
    const steps: number[] = []
    const draws: number[] = []
    let from = start
    let to = end
    const middle = (start + end) / 2
    for (let i = 0; i < ZOOM_STEPS; i++) {
      const width = (to - from) / 1.25
      from = middle - width / 2
      to = middle + width / 2
      const step = await page.evaluate(timeView, { connectionId, from, to, bins: BINS })
      steps.push(step.ms)
      draws.push(step.drawMs)
    }
    for (let i = 0; i < PAN_STEPS; i++) {
      const shift = (to - from) / 10
      from += shift
      to += shift
      const step = await page.evaluate(timeView, { connectionId, from, to, bins: BINS })
      steps.push(step.ms)
      draws.push(step.drawMs)
    }
    const dense = whole.lanes.find((l) => l.density)
    return {
      openMs: open.ms,
      zoomP95: percentile(steps, 95),
      drawP95: percentile(draws, 95),
      openDrawMs: open.drawMs,
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
  const script = await drawingScript()
  const small = await measure(500, script)
  const long = await measure(events / 2, script)
  const label = (n: number) => n.toLocaleString('en-US')
  return [
    figure(
      'time-axis-open',
      long.openMs,
      small.openMs,
      'ms',
      `a page's first timeline.view of the whole session (${BINS} bins) through the web host to its first complete drawing, on ${label(long.events)} events (${long.densest}) vs ${label(small.events)}; the drawing alone ${long.openDrawMs.toFixed(1)} ms vs ${small.openDrawMs.toFixed(1)} ms`,
    ),
    figure(
      'time-axis-zoom',
      long.zoomP95,
      small.zoomP95,
      'ms',
      `p95 of ${ZOOM_STEPS} zoom steps (×1.25, whole session to a few ms) and ${PAN_STEPS} pan steps, each a timeline.view from the page drawn, on ${label(long.events)} events vs ${label(small.events)}; the page's main-thread drawing p95 ${long.drawP95.toFixed(1)} ms vs ${small.drawP95.toFixed(1)} ms`,
    ),
  ]
}
