import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, ROOT, test } from './webHostProcess'
import { addAndConnect, openDemo } from './flows'

// @modelcontextprotocol/server-everything over stdio: long instructions, hyphenated tool names. Its tools are never called here.
const EVERYTHING = `${process.execPath} ${join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')} stdio`
const LONG_NAME = 'server-everything, the reference MCP server that exercises every feature of the protocol'

/** Where each name in the catalog wrapped: the character before each line break. */
function lineBreaks(page: Page): Promise<{ name: string; breaksAfter: string[]; overflows: boolean }[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-testid="catalog"] .item-name')].map((el) => {
      const chars: { ch: string; top: number }[] = []
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
        for (let i = 0; i < node.data.length; i++) {
          const range = document.createRange()
          range.setStart(node, i)
          range.setEnd(node, i + 1)
          const rect = range.getClientRects()[0]
          if (rect) chars.push({ ch: node.data[i], top: Math.round(rect.top) })
        }
      }
      const breaksAfter = chars.filter((c, i) => i + 1 < chars.length && chars[i + 1].top > c.top).map((c) => c.ch)
      return { name: el.textContent ?? '', breaksAfter, overflows: el.scrollWidth > el.clientWidth + 1 }
    }),
  )
}

test('everyday glitches: names wrap where words meet, sidebar names have tooltips, long instructions fold, the keepalive chart keeps its shape and the interval its unit', async ({
  page,
  host,
}) => {
  await page.goto(host.url)
  await addAndConnect(page, { name: LONG_NAME, command: EVERYTHING })

  await test.step('a long name is cut short in the sidebar and the page title, and shown whole on hover', async () => {
    const row = page.locator('.target.selected')
    const name = row.locator('.target-name')
    await expect(name).toHaveAttribute('title', LONG_NAME)
    expect(await name.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
    await expect(row.locator('.target-sub')).toHaveAttribute('title', 'connected · stdio')
    await expect(page.locator('.page-title')).toHaveAttribute('title', LONG_NAME)
    const title = await page
      .locator('.page-title')
      .evaluate((el) => ({ lines: Math.round(el.clientHeight / 20), cut: el.scrollWidth > el.clientWidth }))
    expect(title).toEqual({ lines: 1, cut: true })
  })

  await test.step('long server instructions fold, and open whole on request', async () => {
    const box = page.getByTestId('instructions')
    await expect(box.locator('.instructions.collapsed')).toHaveCount(1)
    expect(await box.locator('.instructions').evaluate((el) => el.scrollHeight > el.clientHeight + 20)).toBe(true)
    await box.getByRole('button', { name: /^Show all \([\d,]+ characters\)$/ }).click()
    await expect(box.locator('.instructions.collapsed')).toHaveCount(0)
    await box.getByRole('button', { name: 'Show less' }).click()
    await expect(box.locator('.instructions.collapsed')).toHaveCount(1)
  })

  await test.step('hyphenated tool names wrap at their hyphens, never mid-word', async () => {
    await page.getByRole('tab', { name: /Catalog/ }).click()
    await page.locator('[data-testid="catalog"]').evaluate((el) => (el.style.width = '250px'))
    const names = await lineBreaks(page)
    const wrapped = names.filter((n) => n.breaksAfter.length > 0)
    expect(wrapped.map((n) => n.name)).toContain('trigger-long-running-operation')
    for (const n of names) {
      // Tools break at hyphens; resource URIs also after a slash, a dot or a colon.
      expect(
        n.breaksAfter.every((ch) => '-_/.:'.includes(ch)),
        `${n.name} broke after ${n.breaksAfter.join(', ')}`,
      ).toBe(true)
      expect(n.overflows, `${n.name} overflows its box`).toBe(false)
    }
    await page.screenshot({ path: 'test-results/catalog-hyphens.png' })
  })

  await test.step('the keepalive interval reads as the user set it, and the chart is drawn at its size (labels not stretched)', async () => {
    await page.getByRole('tab', { name: /Keepalive/ }).click()
    const set = async (seconds: string, shown: string) => {
      await page.getByLabel('New interval in seconds').fill(seconds)
      await page.getByRole('button', { name: 'Set' }).click()
      await expect(page.getByTestId('keepalive-interval')).toHaveText(shown)
    }
    await set('90', '1 min 30 s')
    await set('2', '2 s')
    await set('0.3', '300 ms')
    await expect.poll(() => page.locator('[data-testid="probes"] tbody tr').count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(3)
    await set('2', '2 s')
    const chart = page.getByRole('img', { name: 'keepalive round trips' })
    const drawn = await chart.evaluate((svg) => {
      const box = svg.getBoundingClientRect()
      const view = (svg as SVGSVGElement).viewBox.baseVal
      const label = svg.querySelector('text')!.getBoundingClientRect()
      return { scaleX: box.width / view.width, scaleY: box.height / view.height, labelHeight: label.height }
    })
    expect(drawn.scaleX).toBeCloseTo(1, 2)
    expect(drawn.scaleY).toBeCloseTo(1, 2)
    expect(drawn.labelHeight).toBeLessThan(16)
    await page.setViewportSize({ width: 1000, height: 820 })
    await expect
      .poll(() => chart.evaluate((svg) => svg.getBoundingClientRect().width / (svg as SVGSVGElement).viewBox.baseVal.width))
      .toBeCloseTo(1, 2)
    await page.screenshot({ path: 'test-results/keepalive-chart.png' })
  })
})

test('underscored tool names wrap at their underscores', async ({ page, host }) => {
  await page.goto(host.url)
  await openDemo(page, 'Tools:')
  await page.getByRole('tab', { name: /Catalog/ }).click()
  await page.locator('[data-testid="catalog"]').evaluate((el) => (el.style.width = '200px'))
  const names = await lineBreaks(page)
  expect(names.filter((n) => n.breaksAfter.length > 0).length).toBeGreaterThan(0)
  for (const n of names)
    expect(
      n.breaksAfter.every((ch) => ch === '_'),
      `${n.name} broke after ${n.breaksAfter.join(', ')}`,
    ).toBe(true)
  await page.screenshot({ path: 'test-results/catalog-underscores.png' })
})
