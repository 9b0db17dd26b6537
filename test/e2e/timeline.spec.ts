import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import type { TimelineSpan } from '../../shared/contract'
import { openApprovedTarget, openUiClient } from '../../web/client'
import { expect, ROOT, test, type RunningWebHost } from './webHostProcess'
import { DEMO_BUY, openDemo } from './flows'

// The Timeline on real sessions: the built-in demo servers (an MCP server over stdio, an A2A agent), what
// the engine answers drawn on one canvas; zoom, pan, brush and click through, and the views it links to.

const require = createRequire(import.meta.url)
const EVERYTHING = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js')

/** What the Timeline's canvas drew, as it says on itself: the range, how many spans, the frame marked. */
async function drawn(canvas: Locator): Promise<{ from: number; to: number; spans: number; frameTs: number | undefined }> {
  const data = await canvas.evaluate((c: HTMLCanvasElement) => ({ ...c.dataset }))
  return {
    from: Number(data.from),
    to: Number(data.to),
    spans: Number(data.spans),
    frameTs: data.frameTs ? Number(data.frameTs) : undefined,
  }
}

/** The spans of a lane the engine has for the connection the Timeline shows (what a click there should find). */
async function spansOf(host: RunningWebHost, connectionId: string, lane: string): Promise<TimelineSpan[]> {
  const client = await openUiClient(host)
  try {
    const view = await client.invoke('timeline.view', { connectionId, bins: 1000 })
    return view.lanes.find((l) => l.id === lane)?.spans ?? []
  } finally {
    await client.close()
  }
}

/** The page x of a time on the canvas, from the range it drew. */
async function xOf(canvas: Locator, ts: number): Promise<number> {
  const box = (await canvas.boundingBox())!
  const { from, to } = await drawn(canvas)
  return box.x + ((ts - from) / (to - from)) * box.width
}

/** The page y of a lane's middle. */
async function yOf(page: Page, lane: string): Promise<number> {
  const box = (await page.getByTestId('time-axis').locator(`[data-lane="${lane}"]`).boundingBox())!
  return box.y + box.height / 2
}

test('an MCP session on the Timeline: spans by outcome, zoom, pan, a brush that filters Frames, Log and Conversation, click-through', async ({
  page,
  host,
}) => {
  test.setTimeout(120_000)
  await page.goto(host.url)
  await openDemo(page, 'Tools:')

  await test.step('five calls, a moment apart', async () => {
    await page.getByRole('tab', { name: /Calls/ }).click()
    for (let i = 0; i < 5; i++) {
      await page.getByRole('button', { name: 'Call', exact: true }).click()
      await expect(page.getByTestId('call-result')).toBeVisible()
      await page.waitForTimeout(150)
    }
  })

  const canvas = page.getByTestId('timeline-canvas')
  let connectionId = ''
  let calls: TimelineSpan[] = []
  await test.step('the Timeline draws the session on its lanes, with latency per method beside it', async () => {
    await page.getByRole('tab', { name: /Timeline/ }).click()
    const axis = page.getByTestId('time-axis')
    await expect(axis.locator('[data-lane="requests"]')).toContainText('Requests')
    connectionId = (await axis.getAttribute('data-connection'))!
    calls = (await spansOf(host, connectionId, 'requests')).filter((s) => s.label.startsWith('tools/call'))
    expect(calls).toHaveLength(5)
    await expect.poll(async () => (await drawn(canvas)).spans).toBeGreaterThanOrEqual(8)
    // Fitted: the whole session in sight.
    const { from, to } = await drawn(canvas)
    expect(from).toBeLessThanOrEqual(calls[0].start)
    expect(to).toBeGreaterThanOrEqual(calls[4].end!)
    const latency = page.getByTestId('latency-panel').locator('.latency-row[data-method="tools/call"]')
    await expect(latency).toContainText('×5')
    await expect(latency).toContainText(/p50 \d/)
    await page.screenshot({ path: 'test-results/timeline-mcp-light.png' })
    await page.keyboard.press('t')
    await page.screenshot({ path: 'test-results/timeline-mcp-dark.png' })
  })

  await test.step('the wheel zooms in at the pointer, keeping the time under it in place; a drag pans', async () => {
    // The session's last events (a keepalive's, the calls' log lines) may still widen the fitted range: wait until it holds.
    await expect
      .poll(async () => {
        const first = await drawn(canvas)
        await page.waitForTimeout(300)
        const second = await drawn(canvas)
        return first.from === second.from && first.to === second.to
      })
      .toBe(true)
    const before = await drawn(canvas)
    const at = calls[2].start
    const x = await xOf(canvas, at)
    const y = await yOf(page, 'requests')
    await page.mouse.move(x, y)
    await page.mouse.wheel(0, -600)
    await expect.poll(async () => (await drawn(canvas)).to - (await drawn(canvas)).from).toBeLessThan((before.to - before.from) / 2)
    const zoomed = await drawn(canvas)
    // The time under the pointer stays under it (to within a few pixels: a live session's range may still grow).
    expect(Math.abs((await xOf(canvas, at)) - x)).toBeLessThan(4)
    await expect(page.getByTestId('timeline-range')).not.toHaveText('')
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x + 100, y, { steps: 5 })
    await page.mouse.up()
    const panned = await drawn(canvas)
    expect(panned.from).toBeLessThan(zoomed.from)
    expect(panned.to - panned.from).toBeCloseTo(zoomed.to - zoomed.from, 3)
    await page.screenshot({ path: 'test-results/timeline-mcp-zoomed.png' })
  })

  await test.step('the keyboard: 0 fits, + zooms in, ↓ steps onto a span and says what it is', async () => {
    const lanes = page.getByTestId('time-axis').locator('.lanes')
    await lanes.focus()
    await page.keyboard.press('0')
    await expect(page.getByRole('button', { name: 'Fit' })).toBeDisabled()
    const fitted = await drawn(canvas)
    await page.keyboard.press('+')
    await expect.poll(async () => (await drawn(canvas)).to - (await drawn(canvas)).from).toBeLessThan((fitted.to - fitted.from) * 0.6)
    await page.keyboard.press('0')
    await expect.poll(async () => (await drawn(canvas)).spans).toBe(fitted.spans)
    await page.keyboard.press('ArrowDown')
    // The first span in time: the session's first request (server/discover, refused, before initialize).
    const [first] = await spansOf(host, connectionId, 'requests')
    const said = page.getByTestId('focused-span')
    await expect(said).toContainText(
      new RegExp(`^Requests: ${first.label}, at \\d\\d:\\d\\d:\\d\\d\\.\\d{3} \\(\\+\\d+ ms since the start\\), took \\d`),
    )
    if (first.outcome === 'error') await expect(said).toContainText(/failed$/)
    const before = await said.textContent()
    await page.keyboard.press('ArrowDown')
    await expect(said).not.toHaveText(before!)
  })

  await test.step('a click on a span opens its frames: the request, paired with its answer', async () => {
    const third = calls[2]
    await page.mouse.click(await xOf(canvas, (third.start + third.end!) / 2), await yOf(page, 'requests'))
    const drawer = page.getByTestId('frames-drawer')
    await expect(drawer).toBeVisible()
    const selected = drawer.locator('.row.selected')
    await expect(selected).toHaveAttribute('data-method', 'tools/call')
    await expect(selected).toHaveAttribute('data-direction', 'out')
    await expect(drawer.locator('.row.paired')).toHaveCount(1)
    await page.screenshot({ path: 'test-results/timeline-click-through.png' })
    await page.keyboard.press('Escape')
    await expect(drawer).toHaveCount(0)
  })

  await test.step('shift-drag brushes the 2nd to 4th calls: Frames, Log and Conversation show only that range', async () => {
    const y = await yOf(page, 'requests')
    const left = await xOf(canvas, calls[1].start - 2)
    const right = await xOf(canvas, calls[3].end! + 2)
    await page.keyboard.down('Shift')
    await page.mouse.move(left, y)
    await page.mouse.down()
    await page.mouse.move(right, y, { steps: 6 })
    await page.mouse.up()
    await page.keyboard.up('Shift')
    await expect(page.getByTestId('timeline-brush')).toBeVisible()
    await page.screenshot({ path: 'test-results/timeline-brushed.png' })

    await page.getByRole('tab', { name: /Frames/ }).click()
    await expect(page.getByTestId('time-range-chip')).toBeVisible()
    await expect(page.getByTestId('frame-count')).toHaveText(/^\d+ of \d+ frames$/)
    const rows = page.locator('.frames-list .row[data-method]')
    const methods = await rows.evaluateAll((els) => els.map((e) => `${e.getAttribute('data-direction')} ${e.getAttribute('data-method')}`))
    expect(methods.filter((m) => m === 'out tools/call')).toHaveLength(3)
    expect(methods).not.toContain('out initialize')
    await page.screenshot({ path: 'test-results/timeline-frames-brushed.png' })

    await page.getByRole('tab', { name: /Conversation/ }).click()
    await expect(page.getByText(/^\d+ of \d+ message\(s\)$/)).toBeVisible()
    await page.getByRole('tab', { name: /Log/ }).click()
    await expect(page.getByTestId('time-range-chip')).toBeVisible()

    // Cleared from any of them, every view shows everything again.
    await page.getByRole('button', { name: 'Show every time again' }).click()
    await page.getByRole('tab', { name: /Frames/ }).click()
    await expect(page.getByTestId('frame-count')).toHaveText(/^\d+ frames$/)
  })

  await test.step('a frame selected in Frames is marked on the axis', async () => {
    const row = page.locator('.frames-list .row[data-method="tools/call"][data-direction="out"]').nth(3)
    await row.click()
    await page.getByRole('tab', { name: /Timeline/ }).click()
    await expect.poll(async () => (await drawn(canvas)).frameTs).toBeDefined()
    const marked = (await drawn(canvas)).frameTs!
    expect(marked).toBeGreaterThanOrEqual(calls[3].start - 1)
    expect(marked).toBeLessThanOrEqual(calls[3].end! + 1)
  })

  await test.step('Copy as image: the range shown, lane labels and all, as a PNG on the clipboard', async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: host.url })
    await page.getByRole('button', { name: 'Copy as image' }).click()
    // The browser re-encodes an image it puts on the clipboard: on a busy machine that takes seconds.
    await expect(page.getByText('Copied the timeline as an image.')).toBeVisible({ timeout: 20_000 })
    const image = await page.evaluate(async () => {
      const [item] = await navigator.clipboard.read()
      const blob = await item.getType('image/png')
      const bitmap = await createImageBitmap(blob)
      return { type: blob.type, width: bitmap.width, height: bitmap.height }
    })
    const axis = (await page.getByTestId('time-axis').boundingBox())!
    expect(image.type).toBe('image/png')
    // The labels' column and the canvas, at the screen's pixel ratio.
    expect(image.width).toBeGreaterThanOrEqual(Math.floor(axis.width) - 4)
    expect(image.height).toBeGreaterThanOrEqual(Math.floor(axis.height) - 4)
  })

  await test.step('a latency bucket picks out its spans; the strip above every tab jumps the Timeline', async () => {
    const bucket = page.getByTestId('latency-panel').locator('.latency-row[data-method="tools/call"] .bucket:not([disabled])').first()
    await bucket.click()
    await expect(bucket).toHaveAttribute('aria-pressed', 'true')
    await page.screenshot({ path: 'test-results/timeline-latency-pick.png' })
    await page.getByRole('tab', { name: /Frames/ }).click()
    const strip = page.getByTestId('time-strip')
    const box = (await strip.boundingBox())!
    await strip.click({ position: { x: box.width / 2, y: box.height / 2 } })
    await expect(page.getByRole('tab', { name: /Timeline/ })).toHaveAttribute('aria-selected', 'true')
    await expect(page.getByRole('button', { name: 'Fit' })).toBeEnabled()
  })
})

/** A lane's spans as the engine has them, the lanes the Timeline shows, and that it drew them. */
async function expectLanes(page: Page, host: RunningWebHost, lanes: string[]): Promise<string> {
  const axis = page.getByTestId('time-axis').first()
  const connectionId = (await axis.getAttribute('data-connection'))!
  for (const lane of lanes) {
    await expect(axis.locator(`[data-lane="${lane}"]`)).toBeVisible()
    expect((await spansOf(host, connectionId, lane)).length, `spans in ${lane}`).toBeGreaterThan(0)
  }
  return connectionId
}

test('an A2A conversation on the Timeline (its task and stream), then beside an MCP session on one axis, aligned by turn', async ({
  page,
  host,
}) => {
  test.setTimeout(120_000)
  await page.goto(host.url)
  await openDemo(page, '(A2A)')

  await test.step('two turns with the A2A demo agent: a task that asks for input, then completes', async () => {
    await page.getByRole('tab', { name: /Conversation/ }).click()
    const message = page.getByLabel('Message')
    await message.fill('buy prod_mobile_run 2000')
    await message.press('Enter')
    await expect(page.locator('[data-kind="status"][data-state="input-required"]')).toContainText('Which brand')
    await message.fill('acmeoutdoor.example')
    await message.press('Enter')
    await expect(page.locator('[data-kind="status"][data-state="completed"]')).toContainText('Created mb_0001')
  })

  await test.step('the Timeline: the requests, the task for its life with its states marked, the streams', async () => {
    await page.getByRole('tab', { name: /Timeline/ }).click()
    const connectionId = await expectLanes(page, host, ['requests', 'tasks', 'streams'])
    const [task] = await spansOf(host, connectionId, 'tasks')
    expect(task.marks?.map((m) => m.label)).toEqual(expect.arrayContaining(['input-required', 'completed']))
    await expect.poll(async () => (await drawn(page.getByTestId('timeline-canvas'))).spans).toBeGreaterThan(2)
    await page.screenshot({ path: 'test-results/timeline-a2a.png' })
  })

  await test.step('the same agent over MCP: two tool calls as turns', async () => {
    await page.locator('[data-target="demo:tools"]').click()
    await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
    await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 20_000 })
    await page.getByRole('tab', { name: /Conversation/ }).click()
    await page.getByLabel('Tool').selectOption('create_media_buy')
    const args = page.getByLabel('Arguments (JSON)')
    await args.fill(DEMO_BUY)
    await page.getByRole('button', { name: 'Call' }).click()
    await expect(page.locator('[data-kind="result"]')).toContainText('mb_0001')
    await page.getByLabel('Tool').selectOption('get_media_buy_delivery')
    await args.fill('{"media_buy_ids": ["mb_0001"]}')
    await page.getByRole('button', { name: 'Call' }).click()
    await expect(page.locator('[data-kind="result"]')).toHaveCount(2)
  })

  await test.step('Side by side, on one time axis: by time the A2A session lies earlier; aligned by turn 1, both begin it together', async () => {
    await page
      .getByRole('button', { name: /Side by side/ })
      .first()
      .click()
    const labels = await page.getByLabel('Left connection').locator('option').allTextContents()
    await page.getByLabel('Left connection').selectOption({ label: labels.find((l) => l.includes('· MCP ·'))! })
    await page.getByLabel('Right connection').selectOption({ label: labels.find((l) => l.includes('· A2A ·'))! })
    await page.getByRole('tab', { name: 'On one time axis' }).click()
    const shared = page.getByTestId('shared-timeline')
    const canvases = shared.getByTestId('timeline-canvas')
    await expect(canvases).toHaveCount(2)
    await expect.poll(async () => (await drawn(canvases.nth(1))).spans).toBeGreaterThan(2)
    // By time: one range of the clock for both.
    const [mcpByTime, a2aByTime] = [await drawn(canvases.nth(0)), await drawn(canvases.nth(1))]
    expect(a2aByTime.from).toBeCloseTo(mcpByTime.from, 3)
    await page.screenshot({ path: 'test-results/timeline-side-by-side-time.png' })

    await shared.getByRole('radio', { name: 'turn' }).click()
    await expect(shared.getByLabel('Turn to align')).toHaveValue('1')
    // Each drawn from its own turn 1: the A2A side's range is shifted back by how much earlier its turn 1 came
    // (the whole A2A conversation and the MCP connect came between the two).
    await expect.poll(async () => (await drawn(canvases.nth(0))).from - (await drawn(canvases.nth(1))).from).toBeGreaterThan(50)
    await page.screenshot({ path: 'test-results/timeline-side-by-side-turn.png' })
  })
})

test('Compare MCP vs A2A: both sides on one time axis', async ({ page, host }) => {
  test.setTimeout(120_000)
  await page.goto(host.url)
  await page
    .getByRole('button', { name: /Compare/ })
    .first()
    .click()
  await page.getByLabel('Target A').selectOption('demo:tools')
  await page.getByLabel('Profile A').selectOption('')
  await page.getByLabel('Target B').selectOption('demo:a2a')
  await page.getByLabel('Profile B').selectOption('')
  await page.getByRole('button', { name: 'Compare', exact: true }).click()
  await expect(page.getByTestId('compare-result')).toBeVisible({ timeout: 30_000 })
  const shared = page.getByTestId('shared-timeline')
  const canvases = shared.getByTestId('timeline-canvas')
  await expect(canvases).toHaveCount(2)
  await expect(shared.getByTestId('time-axis').nth(0)).toContainText('A · Demo media-sales agent')
  await expect(shared.getByTestId('time-axis').nth(1)).toContainText('B · Demo media-sales agent (A2A)')
  await expect.poll(async () => (await drawn(canvases.nth(0))).spans).toBeGreaterThan(1)
  await expect.poll(async () => (await drawn(canvases.nth(1))).spans).toBeGreaterThan(0)
  await shared.scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/timeline-compare-light.png' })
  await page.keyboard.press('t')
  await page.waitForTimeout(100)
  await page.screenshot({ path: 'test-results/timeline-compare-dark.png' })
  // Aligned by start: each side from its own beginning, so B's range is shifted by how much later it began.
  const [aByTime, bByTime] = [await drawn(canvases.nth(0)), await drawn(canvases.nth(1))]
  expect(bByTime.from).toBeCloseTo(aByTime.from, 3)
  await shared.getByRole('radio', { name: 'start' }).click()
  await expect(shared.getByRole('radio', { name: 'start' })).toHaveAttribute('aria-checked', 'true')
  await expect.poll(async () => (await drawn(canvases.nth(1))).from).not.toBeCloseTo(aByTime.from, 3)
})

test('server-everything on the Timeline: a task for its life, progress filling its call, an elicitation answered late', async ({
  page,
  host,
}) => {
  test.setTimeout(180_000)
  await page.goto(host.url)
  await page.getByRole('button', { name: '+ Add server' }).click()
  await page.locator('#t-name').fill('everything')
  await page.locator('#t-cmd').fill(`${process.execPath} ${EVERYTHING} stdio`)
  await page.getByRole('button', { name: 'Save and connect' }).click()
  await expect(page.getByTestId('connection-state')).toHaveText(/connected · healthy/, { timeout: 30_000 })
  const panel = page.getByTestId('server-request')
  const call = async (tool: string, args: Record<string, unknown>) => {
    await page.getByRole('tab', { name: /Calls/ }).click()
    await expect(page.getByLabel('Tool to call').locator(`option[value="${tool}"]`)).toHaveCount(1, { timeout: 30_000 })
    await page.getByLabel('Tool to call').selectOption(tool)
    await page.getByRole('button', { name: 'JSON', exact: true }).click()
    await page.getByLabel('Raw arguments (JSON)').fill(JSON.stringify(args))
    await page.getByRole('button', { name: 'Call', exact: true }).click()
  }

  await test.step('a tool run as a task, and a long operation reporting progress', async () => {
    await call('simulate-research-query', { topic: 'tide pools', ambiguous: false })
    await expect(page.getByTestId('call-result')).toContainText('Research Report: tide pools', { timeout: 30_000 })
    await call('trigger-long-running-operation', { duration: 2, steps: 4 })
    await expect(page.getByTestId('call-result')).toContainText(/completed/i, { timeout: 30_000 })
  })

  let connectionId = ''
  await test.step('an elicitation waits on the person: open on the axis while they think', async () => {
    await call('trigger-elicitation-request', {})
    await expect(panel).toContainText('Please provide inputs for the following fields')
    await page.getByRole('tab', { name: /Timeline/ }).click()
    connectionId = (await page.getByTestId('time-axis').getAttribute('data-connection'))!
    await expect(page.getByTestId('time-axis').locator('[data-lane="server-requests"]')).toBeVisible()
    const elicitation = async () => (await spansOf(host, connectionId, 'server-requests')).find((s) => s.label === 'elicitation/create')
    const asked = await elicitation()
    expect(asked).toMatchObject({ outcome: 'pending' })
    expect(asked!.end).toBeUndefined()
    await page.waitForTimeout(1500)
    await page.screenshot({ path: 'test-results/timeline-elicitation-waiting.png' })
    await page.locator('#elicit-name').fill('Ada Lovelace')
    await panel.getByRole('button', { name: 'Accept' }).click()
    await expect(panel).toHaveCount(0)
  })

  await test.step('the lanes: the task with its states, the call its progress filled, the elicitation as long as the person took', async () => {
    const elicitation = async () => (await spansOf(host, connectionId, 'server-requests')).find((s) => s.label === 'elicitation/create')
    await expect.poll(async () => (await elicitation())?.outcome, { timeout: 10_000 }).toBe('ok')
    const asked = (await elicitation())!
    expect(asked.end! - asked.start).toBeGreaterThan(1500)
    const tasks = await spansOf(host, connectionId, 'tasks')
    expect(tasks.some((t) => t.marks?.some((m) => m.label === 'completed'))).toBe(true)
    const requests = await spansOf(host, connectionId, 'requests')
    const slow = requests.find((s) => s.label === 'tools/call trigger-long-running-operation')!
    expect(slow.marks?.some((m) => m.fill !== undefined)).toBe(true)
    await expect(page.getByTestId('time-axis').locator('[data-lane="tasks"]')).toBeVisible()
    await expect.poll(async () => (await drawn(page.getByTestId('timeline-canvas'))).spans).toBeGreaterThan(8)
    await page.screenshot({ path: 'test-results/timeline-everything.png' })
    // Zoomed onto the elicitation: a span of its own, said as such.
    const lanes = page.getByTestId('time-axis').locator('.lanes')
    await lanes.focus()
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('ArrowDown')
      if ((await page.getByTestId('focused-span').textContent())?.startsWith('Server asks: elicitation/create')) break
    }
    await expect(page.getByTestId('focused-span')).toContainText(/^Server asks: elicitation\/create, at .*, took \d\.\d\d s$/)
  })
})

test('a long session (100,000 notifications): density on the axis, and a brush Frames filters in the engine over every frame', async ({
  page,
  host,
}) => {
  test.setTimeout(180_000)
  const notifications = 100_000
  const frames = notifications + 7
  let ui = await openUiClient(host)
  const { targetId, connectionId } = await openApprovedTarget(ui, {
    name: 'flood',
    spec: {
      kind: 'mcp-stdio',
      command: process.execPath,
      args: ['--import', 'tsx', join(ROOT, 'bench', 'floodServer.ts'), String(notifications)],
      env: {},
    },
    options: { keepaliveIntervalMs: 3_600_000 },
  })
  await ui.close() // the test's own client keeps every event it gets: it leaves before the flood
  ui = await openUiClient(host)
  try {
    await expect
      .poll(async () => (await ui.invoke('sessions.list', {})).find((s) => s.connectionId === connectionId)?.frames ?? 0, {
        timeout: 90_000,
        intervals: [500],
      })
      .toBeGreaterThanOrEqual(frames)
    await page.goto(host.url)
    await page.locator(`[data-target="${targetId}"]`).click()
    await page.getByRole('tab', { name: /Timeline/ }).click()
    const canvas = page.getByTestId('timeline-canvas')
    await expect(page.getByTestId('time-axis').locator('[data-lane="notifications"]')).toContainText('100K')
    // Too many to draw one by one: counted per bin.
    const whole = await ui.invoke('timeline.view', { connectionId, bins: 500 })
    expect(whole.lanes.find((l) => l.id === 'notifications')?.density).toBeDefined()
    await expect.poll(async () => (await drawn(canvas)).from).toBeGreaterThan(0)
    await page.screenshot({ path: 'test-results/timeline-long-session.png' })

    const box = (await canvas.boundingBox())!
    const y = await yOf(page, 'notifications')
    await page.keyboard.down('Shift')
    await page.mouse.move(box.x + box.width * 0.4, y)
    await page.mouse.down()
    await page.mouse.move(box.x + box.width * 0.6, y, { steps: 5 })
    await page.mouse.up()
    await page.keyboard.up('Shift')
    await page.getByRole('tab', { name: /Frames/ }).click()
    const chip = page.getByTestId('time-range-chip')
    const range = { from: Number(await chip.getAttribute('data-from')), to: Number(await chip.getAttribute('data-to')) }
    const filter = { text: '', direction: '' as const, kind: '', hideProbes: false, wire: '' as const, ...range }
    const { total } = await ui.invoke('frames.find', { connectionId, filter, from: 0, count: 1 })
    expect(total).toBeGreaterThan(0)
    expect(total).toBeLessThan(frames)
    await expect(page.getByTestId('frame-count')).toHaveText(
      `${total.toLocaleString('en-US')} of ${frames.toLocaleString('en-US')} frames`,
      {
        timeout: 30_000,
      },
    )
    await page.screenshot({ path: 'test-results/timeline-long-session-frames.png' })
  } finally {
    await ui.close()
  }
})
