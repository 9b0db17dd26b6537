/// <reference lib="dom" /> // the functions under "run inside the page" are evaluated in Chromium
/**
 * A UI opening on a long session: a web host whose one connection took a flood of log notifications, then the
 * page loads in Chromium. `long-session-open`: page load to the Frames view showing the whole count and the
 * newest row, against the same on 1,000 notifications. `long-session-seek`: the slowest of scrolling to the
 * first frame, going to a frame number in the middle and filtering by method, until what was asked is shown.
 */
import { chromium, type Page } from '@playwright/test'
import { CHROMIUM_LAUNCH } from './chromium'
import { startWebHostProcess, type RunningWebHost } from '../web/launch'
import { openApprovedTarget } from '../web/client'
import { floodTarget } from './eventDelivery'
import { figure, median, type BenchOptions, type Figure } from './harness'
import { connectToHost } from './hostClient'

/** A web host whose one connection took `count` notifications, kept in its session (a client-less wait: the store's count). */
export async function floodedHost(
  count: number,
): Promise<{ host: RunningWebHost; targetId: string; connectionId: string; frames: number; events: number }> {
  const host = await startWebHostProcess()
  const ui = await connectToHost(host)
  try {
    const { targetId, connectionId } = await openApprovedTarget(ui, floodTarget(count, 0))
    for (;;) {
      const session = (await ui.invoke('sessions.list', {})).find((s) => s.connectionId === connectionId)
      if (session && session.logs >= count) return { host, targetId, connectionId, frames: session.frames, events: session.events }
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  } catch (error) {
    await host.stop()
    throw error
  } finally {
    void ui.close()
  }
}

const rowOf = (page: Page, n: number) => page.getByRole('listbox', { name: 'Frames' }).locator(`[role="option"][data-number="${n}"]`)
const countText = (frames: number, of?: number) =>
  of === undefined
    ? `${frames.toLocaleString('en-US')} frames`
    : `${frames.toLocaleString('en-US')} of ${of.toLocaleString('en-US')} frames`

async function measure(count: number): Promise<{ openMs: number; seekMs: number; steps: string }> {
  const { host, targetId, frames } = await floodedHost(count)
  const browser = await chromium.launch({ ...CHROMIUM_LAUNCH, args: [...CHROMIUM_LAUNCH.args, '--headless'] })
  try {
    const opens: number[] = []
    let page: Page | undefined
    for (let i = 0; i < 3; i++) {
      await page?.close()
      page = await browser.newPage({ viewport: { width: 1360, height: 820 } })
      const started = performance.now()
      await page.goto(host.url)
      await page.locator(`button[data-target="${targetId}"]`).click()
      await page.getByRole('tab', { name: /Frames/ }).click()
      await page
        .getByTestId('frame-count')
        .filter({ hasText: countText(frames) })
        .waitFor({ timeout: 30_000 })
      await rowOf(page, frames).waitFor({ timeout: 30_000 })
      opens.push(performance.now() - started)
    }
    const timed = async (work: () => Promise<void>) => {
      const started = performance.now()
      await work()
      return performance.now() - started
    }
    const top = await timed(async () => {
      await page!.getByRole('listbox', { name: 'Frames' }).evaluate((el) => (el.scrollTop = 0))
      await rowOf(page!, 1).waitFor({ timeout: 30_000 })
    })
    const middle = Math.floor(frames / 2)
    const goTo = await timed(async () => {
      await page!.getByLabel('Go to frame number').fill(String(middle))
      await page!.getByLabel('Go to frame number').press('Enter')
      await rowOf(page!, middle).waitFor({ timeout: 30_000 })
    })
    const filter = await timed(async () => {
      await page!.getByLabel('Filter frames by method').fill('notifications/message')
      await page!
        .getByTestId('frame-count')
        .filter({ hasText: countText(count, frames) })
        .waitFor({ timeout: 30_000 })
    })
    await page!.close()
    return {
      openMs: median(opens),
      seekMs: Math.max(top, goTo, filter),
      steps: `to the first frame ${top.toFixed(0)} ms, to #${middle} ${goTo.toFixed(0)} ms, filter by method ${filter.toFixed(0)} ms`,
    }
  } finally {
    await browser.close()
    await host.stop()
  }
}

export async function longSessionUi({ quick }: BenchOptions): Promise<Figure[]> {
  const asked = Number(process.env.PARALLAX_BENCH_NOTIFICATIONS)
  const count = asked || (quick ? 20_000 : 1_000_000)
  const small = await measure(1_000)
  const long = await measure(count)
  const label = count >= 1_000_000 ? `${count / 1_000_000} M` : `${count / 1000} k`
  return [
    figure(
      'long-session-open',
      long.openMs,
      small.openMs,
      'ms',
      `page load to the Frames view (whole count, newest row) on ${label} log notifications (${2 * count} events) vs 1,000, median of 3`,
    ),
    figure('long-session-seek', long.seekMs, small.seekMs, 'ms', `the slowest of: ${long.steps} (on 1,000: ${small.steps})`),
  ]
}
