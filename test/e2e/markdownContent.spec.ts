import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from './webHostProcess'
import { addAndConnect } from './flows'

/**
 * Markdown in a tool's result, a prompt's messages and a text/markdown resource renders, and nothing in it
 * runs or loads: test/fixtures/servers/markdownContent.ts answers with raw HTML, a script, an image and
 * links pointing at a server this test watches.
 */
test('markdown renders in results, prompts and resources; its HTML is shown as code, nothing runs, nothing is fetched', async ({
  page,
  host,
}) => {
  const fetched: string[] = []
  const watched = createServer((req, res) => (fetched.push(req.url ?? ''), res.writeHead(200).end('x')))
  await new Promise<void>((resolve) => watched.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(watched.address() as AddressInfo).port}`
  const elsewhere: string[] = []
  page.on('request', (request) => {
    if (!request.url().startsWith(new URL(host.url).origin)) elsewhere.push(request.url())
  })
  try {
    await page.goto(host.url)
    await addAndConnect(page, {
      name: 'markdown',
      command: `${process.execPath} --import tsx test/fixtures/servers/markdownContent.ts ${base}`,
    })
    await page.getByRole('tab', { name: /Calls/ }).click()
    const surface = page.getByTestId('call-surface')

    await test.step('a tool result in markdown: a heading, a list, bold', async () => {
      await page.getByLabel('Tool to call').selectOption('report')
      await page.getByRole('button', { name: 'Call', exact: true }).click()
      const markdown = page.getByTestId('tool-result').getByTestId('markdown')
      await expect(markdown.getByRole('heading', { level: 1 })).toHaveText('Weekly report')
      await expect(markdown.locator('li')).toHaveText(['North: +12%', 'South: +8%'])
      await expect(markdown.locator('strong')).toHaveText(['rose', '⟨U+202E⟩trats'])
      await expect(markdown.locator('strong mark.hidden-char')).toHaveText('⟨U+202E⟩')
    })

    const markdown = page.getByTestId('tool-result').getByTestId('markdown')
    await test.step('links show their address; only an http(s) one is a control, a javascript: one is text', async () => {
      const dashboard = markdown.locator('.markdown-link', { hasText: 'the dashboard' })
      await expect(dashboard).toHaveText(`the dashboard (${base}/dashboard)`)
      await expect(dashboard.getByRole('button', { name: 'the dashboard' })).toBeVisible()
      const script = markdown.locator('.markdown-link', { hasText: 'run this' })
      await expect(script).toHaveText('run this (javascript:window.__markdownRan=1)')
      await expect(script.getByRole('button')).toHaveCount(0)
      await script.locator('.markdown-link-text').click()
    })

    await test.step('an image is not loaded: its address is said', async () => {
      await expect(markdown.locator('.markdown-image')).toHaveText(`image: sales chart (${base}/chart.png, not loaded)`)
      await expect(markdown.locator('img')).toHaveCount(0)
    })

    await test.step('raw HTML is shown as code: no element made of it, nothing ran', async () => {
      await expect(markdown.locator('code')).toHaveText([
        '<img src=x onerror="window.__markdownRan=2">',
        '<script>window.__markdownRan=3</script>',
        '<b onmouseover="window.__markdownRan=4">',
        '</b>',
      ])
      await expect(markdown.locator('script, b, [onerror], [onmouseover]')).toHaveCount(0)
      await markdown.getByText('bold in HTML').hover()
      expect(await page.evaluate(() => (window as { __markdownRan?: unknown }).__markdownRan)).toBeUndefined()
      await page.screenshot({ path: 'test-results/markdown-tool-result.png' })
    })

    await test.step('Raw shows the text as the server sent it; Rendered again', async () => {
      const result = page.getByTestId('tool-result')
      await result.getByRole('button', { name: 'Raw' }).click()
      await expect(result.getByTestId('markdown')).toHaveCount(0)
      await expect(result.getByText('# Weekly report', { exact: false })).toBeVisible()
      await result.getByRole('button', { name: 'Rendered' }).click()
      await expect(result.getByRole('heading', { name: 'Weekly report' })).toBeVisible()
    })

    await test.step('text that is not markdown stays text, with no switch', async () => {
      await page.getByLabel('Tool to call').selectOption('plain')
      await page.getByRole('button', { name: 'Call', exact: true }).click()
      const result = page.getByTestId('tool-result')
      await expect(result).toContainText('Totals: 3 - 1 = 2 *approximately*')
      await expect(result.getByTestId('markdown')).toHaveCount(0)
      await expect(result.getByRole('button', { name: 'Rendered' })).toHaveCount(0)
    })

    await test.step('a prompt’s message in markdown', async () => {
      await surface.getByRole('tab', { name: /Prompts/ }).click()
      await surface.getByRole('button', { name: 'Get', exact: true }).click()
      const message = page.getByTestId('prompt-messages').getByTestId('markdown')
      await expect(message.getByRole('heading', { level: 2 })).toHaveText('Brief')
      await expect(message.locator('ol > li')).toHaveText(['Read the report', 'Answer in three lines'])
      await page.screenshot({ path: 'test-results/markdown-prompt.png' })
    })

    await test.step('a text/markdown resource', async () => {
      await surface.getByRole('tab', { name: /Resources/ }).click()
      await surface.getByRole('button', { name: 'Read', exact: true }).click()
      const content = page.getByTestId('resource-content')
      await expect(content.getByTestId('markdown').getByRole('heading', { level: 3 })).toHaveText('Read me')
      await expect(content.getByTestId('markdown').locator('blockquote')).toHaveText('Quoted')
      await page.screenshot({ path: 'test-results/markdown-resource.png' })
      await content.getByRole('button', { name: 'Raw' }).click()
      await expect(content.locator('.resource-text')).toContainText('### Read me')
    })

    expect(fetched, 'requests the watched server got').toEqual([])
    expect(elsewhere, 'requests the page made to other origins').toEqual([])
  } finally {
    await new Promise((resolve) => watched.close(resolve))
  }
})
