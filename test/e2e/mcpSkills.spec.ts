import { addAndConnect } from './flows'
import { expect, test } from './webHostProcess'

// Skills over MCP (SEP-2640, draft) in the Catalog, against a real SDK server offering the extension:
// listed with what activates them, nothing read until Load; a skill that does not match its entry is refused.

test('the Catalog lists the server’s skills; Load reads and checks one and previews it, and refuses one that does not match', async ({
  page,
  host,
}) => {
  await page.goto(host.url)
  await addAndConnect(page, { name: 'skills', command: `${process.execPath} --import tsx test/fixtures/servers/skills.ts` })
  await page.getByRole('tab', { name: /Catalog/ }).click()
  const skill = (name: string) => page.locator('details.item', { has: page.locator('.item-name', { hasText: new RegExp(`^${name}$`) }) })

  await test.step('listed: what activates each, its files, none read', async () => {
    await expect(page.getByTestId('mcp-skills')).toContainText('Skills')
    const pdf = skill('pdf-processing')
    await pdf.locator('summary').click()
    await expect(pdf.getByTestId('skill-activates')).toContainText('Use when the user asks to fill or merge PDF forms')
    await expect(pdf.locator('.skill-files tr')).toHaveCount(2)
    await expect(pdf.locator('.skill-files')).toContainText('not read')
    await page.getByRole('tab', { name: /Frames/ }).click()
    await expect(page.locator('[role="option"][data-method="skills/list"]').first()).toBeVisible()
    await expect(page.locator('[role="option"][data-method="resources/read"]')).toHaveCount(0)
    await page.getByRole('tab', { name: /Catalog/ }).click()
  })

  await test.step('Load: each file read and matching its entry; SKILL.md previewed', async () => {
    const pdf = skill('pdf-processing')
    await pdf.getByRole('button', { name: 'Load' }).click()
    await expect(pdf.getByTestId('skill-preview')).toBeVisible()
    await expect(pdf.getByTestId('skill-preview')).toContainText('# PDF processing')
    await expect(pdf.locator('.skill-files .badge.ok')).toHaveCount(2)
    await page.screenshot({ path: 'test-results/e2e-artifacts/mcp-skills-loaded.png', fullPage: true })
  })

  await test.step('a skill whose SKILL.md does not match its digest: refused, saying why', async () => {
    const tampered = skill('tampered')
    await tampered.locator('summary').click()
    await tampered.getByRole('button', { name: 'Load' }).click()
    await expect(tampered.getByTestId('skill-refused')).toBeVisible()
    await expect(tampered.getByTestId('skill-refused')).toContainText('its digest is sha256:')
    await expect(tampered.getByTestId('skill-preview')).toHaveCount(0)
    await page.screenshot({ path: 'test-results/e2e-artifacts/mcp-skills.png', fullPage: true })
  })
})
