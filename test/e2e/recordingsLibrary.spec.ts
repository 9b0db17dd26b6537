import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, ROOT, test } from './webHostProcess'
import type { Dialog } from '@playwright/test'

test('the library shows a damaged recording with why and deletes it; a taken name is refused on rename and a free one offered', async ({
  page,
  host,
}) => {
  const dialogs: string[] = []
  const answers: ((dialog: Dialog) => Promise<void>)[] = []
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`)
    void (answers.shift() ?? ((d) => d.dismiss()))(dialog)
  })
  const folder = join(host.dataDir, 'recordings')
  const demo = readFileSync(join(ROOT, 'shared', 'demo', 'recordings', 'media-buying.jsonl'), 'utf8')

  await page.goto(host.url)
  await page
    .getByRole('button', { name: /Replay/ })
    .first()
    .click()
  await expect(page.locator('[data-recording]')).toHaveCount(1) // the seeded demo recording

  await test.step('a recording nested 10,000 levels deep is listed as damaged, beside the others', async () => {
    writeFileSync(join(folder, 'deep.jsonl'), `${'['.repeat(10_000)}${']'.repeat(10_000)}\n`)
    await page
      .getByRole('region', { name: 'Replay' })
      .locator('input[type=file]')
      .setInputFiles({ name: 'copy.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(demo) })
    await expect(page.locator('[data-recording]')).toHaveCount(3)
    const deep = page.locator('.recording', { has: page.locator('[data-recording="deep"]') })
    await expect(deep).toHaveAttribute('data-damaged', 'true')
    await expect(deep).toContainText('Damaged: the first line is nested more than 64 levels deep, not a Parallax header')
    await expect(page.locator('[data-recording="deep"]')).toBeDisabled()
    await expect(page.locator('[data-recording="media-buying"]')).toBeEnabled()
    await page.screenshot({ path: 'test-results/recordings-damaged.png' })
  })

  await test.step('renaming onto a taken name is refused, both are kept, and a free name is offered', async () => {
    answers.push((d) => d.accept('media-buying'))
    answers.push(async (d) => {
      expect(d.defaultValue()).toBe('media-buying (2)')
      await d.accept(d.defaultValue())
    })
    await page
      .locator('.recording', { has: page.locator('[data-recording="copy"]') })
      .getByTitle('Rename')
      .click()
    await expect(page.locator('[data-recording="media-buying (2)"]')).toBeVisible()
    expect(dialogs[1]).toMatch(/A recording named "media-buying" exists already, and it is kept as it is/)
    expect(readFileSync(join(folder, 'media-buying.jsonl'), 'utf8')).toBe(demo)
    expect(readFileSync(join(folder, 'media-buying (2).jsonl'), 'utf8')).toBe(demo)
  })

  await test.step('the damaged recording can be deleted', async () => {
    answers.push((d) => d.accept())
    await page
      .locator('.recording', { has: page.locator('[data-recording="deep"]') })
      .getByTitle('Delete')
      .click()
    await expect(page.locator('[data-recording="deep"]')).toHaveCount(0)
    await expect(page.locator('[data-recording]')).toHaveCount(2)
    expect(existsSync(join(folder, 'deep.jsonl'))).toBe(false)
  })

  await test.step('a recording with a problem opens with it said, and its turns read as far as they can be', async () => {
    const [header, ...rest] = demo.split('\n')
    writeFileSync(join(folder, 'odd mapping.jsonl'), [JSON.stringify({ ...JSON.parse(header), mapping: null }), ...rest].join('\n'))
    await page.goto(host.url) // the app takes the token out of its address: a reload would have none
    await page
      .getByRole('button', { name: /Replay/ })
      .first()
      .click()
    await page.locator('[data-recording="odd mapping"]').click()
    await expect(page.getByTestId('recording-problems')).toHaveText(
      "One problem reading this recording (the rest is used): line 1: the header's mapping does not name a skill field and an input field: the defaults (skill, input) are used",
    )
    await expect(page.getByTestId('recording-date')).toContainText('4 turn(s)')
  })
})
