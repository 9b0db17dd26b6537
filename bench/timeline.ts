/// <reference lib="dom" /> // the functions under "run inside the page" are evaluated in Chromium
import { chromium, type Browser } from '@playwright/test'
import { CHROMIUM_LAUNCH } from './chromium'
import { startWebHostProcess, type RunningWebHost } from '../web/launch'
import { floodTarget, isFloodFrame } from './eventDelivery'
import { figure, median, percentile, round, type BenchOptions, type Figure } from './harness'
import { openApprovedTarget } from '../web/client'
import { connectToHost } from './hostClient'

interface TimelineFigures {
  /** Page load to the Frames view listing every frame (backlog fetched and folded). */
  openMs: number
  /** Switching to the Frames tab until its rows are painted (median of several). */
  readyMs: number
  readyMaxMs: number
  /** Per scrolled frame: the main thread's work (scroll handling, render, style, layout). */
  scrollWorkP95: number
  filterMs: number
  heapMb: number
}

/** A web host whose one connection holds `count` flood frames (plus its handshake). */
async function hostWithFrames(count: number): Promise<{ host: RunningWebHost; targetId: string }> {
  const host = await startWebHostProcess()
  const client = await connectToHost(host)
  try {
    let seen = 0
    const flooded = new Promise<void>((resolve) =>
      client.onEvents((events) => {
        for (const e of events) if (isFloodFrame(e)) seen++
        if (seen >= count) resolve()
      }),
    )
    const { targetId } = await openApprovedTarget(client, floodTarget(count, 0))
    await flooded
    return { host, targetId }
  } catch (error) {
    await host.stop()
    throw error
  } finally {
    void client.close()
  }
}

async function measure(browser: Browser, count: number): Promise<TimelineFigures> {
  const { host, targetId } = await hostWithFrames(count)
  const page = await browser.newPage({ viewport: { width: 1360, height: 820 } })
  try {
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    // The in-page functions below come through tsx, which wraps named functions in a `__name` helper.
    await page.addInitScript('globalThis.__name = (f) => f')

    const opening = performance.now()
    await page.goto(host.url)
    await page.locator(`button[data-target="${targetId}"]`).click()
    await page.getByRole('tab', { name: /Frames/ }).click()
    await page.waitForFunction(
      (n) =>
        document.querySelector('[data-testid="frame-count"]') !== null &&
        Number(document.querySelector('[data-testid="frame-count"]')!.textContent!.replace(/\D/g, '')) >= n,
      count,
    )
    const openMs = performance.now() - opening

    const ready: number[] = []
    for (let i = 0; i < 5; i++) {
      await page.getByRole('tab', { name: /Handshake/ }).click()
      ready.push(await page.evaluate(switchToFrames))
    }

    await page.locator('[aria-label="Frames"]').hover()
    await page.mouse.wheel(0, -200) // a user's wheel stops following the tail
    const work = await page.evaluate(scrollThrough, 240)
    const filterMs = await page.evaluate(filterBy, 'tools/list')
    if (!(await page.getByTestId('frame-count').textContent())?.startsWith('2 of'))
      throw new Error('the filter did not find the one tools/list exchange')

    const cdp = await page.context().newCDPSession(page)
    await cdp.send('HeapProfiler.collectGarbage')
    const { usedSize } = await cdp.send('Runtime.getHeapUsage')
    if (errors.length) throw new Error(`the page failed: ${errors.join('; ')}`)
    return {
      openMs,
      readyMs: median(ready),
      readyMaxMs: Math.max(...ready),
      scrollWorkP95: percentile(work, 95),
      filterMs,
      heapMb: usedSize / 1024 / 1024,
    }
  } finally {
    await page.close()
    await host.stop()
  }
}

// ── run inside the page ──

/** Clicks the Frames tab and resolves once its first rows have been painted. */
function switchToFrames(): Promise<number> {
  return new Promise((resolve) => {
    const start = performance.now()
    const painted = () => requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0))
    const hasRows = () => document.querySelector('[aria-label="Frames"] [role="option"]') !== null
    ;(document.querySelector('button[role="tab"][title^="Frames"]') as HTMLButtonElement).click()
    if (hasRows()) return painted()
    const observer = new MutationObserver(() => {
      if (!hasRows()) return
      observer.disconnect()
      painted()
    })
    observer.observe(document.body, { childList: true, subtree: true })
  })
}

/**
 * Scrolls the frame list for `frames` animation frames, mostly steadily (a fast fling, 240 px a frame) and now and
 * then by a jump (a dragged scrollbar), and times each frame's main-thread work: the list's scroll
 * handling, React's render and the browser's style and layout, forced synchronously so that nothing
 * else (such as how often headless Chromium composites) is counted. Rasterizing happens off this thread.
 */
function scrollThrough(frames: number): Promise<number[]> {
  const scroller = document.querySelector('[aria-label="Frames"]') as HTMLElement
  const work: number[] = []
  scroller.scrollTop = 0
  return new Promise((resolve) => {
    const step = () => {
      if (work.length === frames) return resolve(work)
      const start = performance.now()
      if (work.length % 40 === 39) scroller.scrollTop = Math.random() * (scroller.scrollHeight - scroller.clientHeight)
      else scroller.scrollTop = (scroller.scrollTop + 240) % (scroller.scrollHeight - scroller.clientHeight)
      scroller.dispatchEvent(new Event('scroll'))
      void (scroller.lastElementChild as HTMLElement | null)?.offsetHeight
      void document.body.getBoundingClientRect()
      work.push(performance.now() - start)
      requestAnimationFrame(step)
    }
    requestAnimationFrame(step)
  })
}

/** Types a method filter and resolves when the frame count shows the answer. */
function filterBy(needle: string): Promise<number> {
  return new Promise((resolve) => {
    const input = document.querySelector('input[aria-label="Filter frames by method"]') as HTMLInputElement
    const count = document.querySelector('[data-testid="frame-count"]')!
    const before = count.textContent
    const observer = new MutationObserver(() => {
      // A long session's filter runs in the engine: "filtering N frames…" until it has answered.
      if (count.textContent === before || count.textContent!.startsWith('filtering')) return
      observer.disconnect()
      resolve(performance.now() - start)
    })
    observer.observe(count, { childList: true, characterData: true, subtree: true })
    const start = performance.now()
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, needle)
    input.dispatchEvent(new Event('input', { bubbles: true }))
  })
}

/** The Frames view at 100,000 frames in Chromium, each figure against the same view at 1,000. */
export async function timeline({ quick }: BenchOptions): Promise<Figure[]> {
  const [small, large] = quick ? [200, 2_000] : [1_000, 100_000]
  const browser = await chromium.launch(CHROMIUM_LAUNCH)
  try {
    const base = await measure(browser, small)
    const big = await measure(browser, large)
    const at = `${large.toLocaleString('en-US')} frames vs ${small.toLocaleString('en-US')}`
    return [
      figure('timeline-open', big.openMs, base.openMs, 'ms', `${at}: page load, backlog fetched, Frames view listing them all`),
      figure(
        'timeline-ready',
        big.readyMs,
        base.readyMs,
        'ms',
        `${at}: Frames tab to painted rows, median of 5 (max ${round(big.readyMaxMs)} ms)`,
      ),
      figure(
        'timeline-scroll',
        big.scrollWorkP95,
        base.scrollWorkP95,
        'ms p95 frame time',
        `${at}: main-thread work per frame (scroll, render, style, layout) over 240 frames of fast scrolling with jumps`,
      ),
      figure('timeline-filter', big.filterMs, base.filterMs, 'ms', `${at}: filter by method to the count answered`),
      figure('timeline-heap', big.heapMb, base.heapMb, 'MB JS heap', `${at}: renderer heap after GC`),
    ]
  } finally {
    await browser.close()
  }
}
