import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './webHostProcess'

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
const HOSTILE = fileURLToPath(new URL('../fixtures/servers/hostileNames.ts', import.meta.url))

// A config entry named to read as "invoice…exe.pdf", a zero-width space at its end, whose server calls itself
// something else again: a right-to-left override and a zero-width joiner.
const TARGET = 'invoice\u202Efdp.exe\u200B'
const SERVER = 'mail\u202Etxt.exe\u200Dhelper'
const TARGET_SHOWN = 'invoice⟨U+202E⟩fdp.exe⟨U+200B⟩'
const SERVER_SHOWN = 'mail⟨U+202E⟩txt.exe⟨U+200D⟩helper'

/** Characters that change how text reads without showing themselves (bidirectional controls, zero-width characters). */
const RAW_HIDDEN = /[\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/u

/** Where `scope` shows a hidden character as it is: in its text, its options, a tooltip or an accessible name. */
function shownRaw(scope: Locator): Promise<string[]> {
  return scope.evaluate((root, pattern) => {
    const raw = new RegExp(pattern, 'u')
    const found: string[] = []
    const texts = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
      const parent = node.parentElement!
      if (raw.test(node.textContent ?? '') && parent.checkVisibility())
        found.push(`text of <${parent.tagName.toLowerCase()} class="${parent.className}">: ${node.textContent}`)
    }
    for (const el of [root, ...root.querySelectorAll('*')]) {
      if (el.tagName === 'OPTION' && raw.test(el.textContent ?? '')) found.push(`option: ${el.textContent}`)
      for (const attr of ['title', 'aria-label']) {
        const value = el.getAttribute(attr)
        if (value && raw.test(value)) found.push(`${attr} of <${el.tagName.toLowerCase()}>: ${value}`)
      }
    }
    return found
  }, RAW_HIDDEN.source)
}

async function expectNothingRaw(page: Page): Promise<void> {
  expect(await shownRaw(page.locator('body'))).toEqual([])
}

test('a name from an imported file or an agent is shown with its hidden characters marked: approval, heading, compare, frames drawer, toast', async ({
  page,
  host,
}) => {
  test.setTimeout(90_000)
  const dir = mkdtempSync(join(tmpdir(), 'parallax-hidden-'))
  const config = join(dir, 'mcp.json')
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { [TARGET]: { command: process.execPath, args: ['--import', TSX, HOSTILE, SERVER] } } }),
  )
  try {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(host.url)
    await page.locator('input[type="file"]').setInputFiles(config)
    await page.getByRole('button', { name: 'Add 1 entry' }).click()
    await page.locator('.target', { hasText: TARGET_SHOWN }).click()

    await test.step('the approval dialog: title, name and command line, marked', async () => {
      await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
      const dialog = page.getByRole('alertdialog')
      await expect(dialog.locator('.dialog-head')).toContainText(`Run the command of "${TARGET_SHOWN}"?`)
      await expect(dialog.locator('.dialog-head mark.hidden-char')).toHaveText(['⟨U+202E⟩', '⟨U+200B⟩'])
      await expect(dialog.getByTestId('approval')).toContainText(`${TARGET_SHOWN} starts this program`)
      await expect(dialog.getByTestId('spawn-command')).toContainText(SERVER_SHOWN)
      await expect(dialog.getByTestId('spawn-command').locator('mark.hidden-char')).toHaveText(['⟨U+202E⟩', '⟨U+200D⟩'])
      await expectNothingRaw(page)
      await page.screenshot({ path: 'test-results/hidden-approval.png' })
      await page.getByTestId('approve').click()
    })

    await test.step('the connection page: its heading, and the server’s own name in the handshake', async () => {
      await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 20_000 })
      const title = page.locator('.page-title')
      await expect(title).toHaveText(TARGET_SHOWN)
      await expect(title.locator('mark.hidden-char')).toHaveCount(2)
      await expect(title).toHaveAttribute('title', TARGET_SHOWN)
      await expect(page.locator('.page-sub')).toContainText(SERVER_SHOWN)
      await expect(page.locator('main, .main').first()).toContainText(SERVER_SHOWN)
      await expectNothingRaw(page)
      await page.screenshot({ path: 'test-results/hidden-heading.png' })
    })

    await test.step('a recording of it: the toast that says it was saved', async () => {
      await page.getByRole('button', { name: '● Record' }).click()
      await page.getByRole('button', { name: '■ Stop recording' }).click()
      await expect(page.getByRole('status')).toContainText('Saved')
      await expectNothingRaw(page)
      await page.getByRole('status').getByRole('button', { name: 'Dismiss' }).click()
    })

    await test.step('Compare: the pickers, both headings, and the frames drawer a frame link opens', async () => {
      await page
        .getByRole('button', { name: /Compare/ })
        .first()
        .click()
      await page.getByLabel('Target A').selectOption({ label: TARGET_SHOWN })
      await page.getByLabel('Profile A').selectOption('')
      await page.getByLabel('Target B').selectOption('demo:tools')
      await page.getByLabel('Profile B').selectOption('')
      await page.getByRole('button', { name: 'Compare', exact: true }).click()
      const heads = page.locator('.compare-heads')
      await expect(heads).toContainText(TARGET_SHOWN, { timeout: 30_000 })
      await expect(heads.locator('mark.hidden-char')).toHaveCount(2)
      await expectNothingRaw(page)
      await page.screenshot({ path: 'test-results/hidden-compare.png' })
      await page
        .getByTestId('compare-catalog')
        .getByRole('button', { name: /^A #\d+$/ })
        .first()
        .click()
      const drawer = page.getByTestId('frames-drawer')
      await expect(drawer.locator('.page-sub')).toContainText(`${TARGET_SHOWN} · compare`)
      await expect(drawer.locator('.page-sub mark.hidden-char')).toHaveCount(2)
      await expectNothingRaw(page)
      await page.screenshot({ path: 'test-results/hidden-drawer.png' })
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
