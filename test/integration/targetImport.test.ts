import { afterEach, expect, it } from 'vitest'
import type { CommandOutputs, SavedTarget } from '../../shared/contract'
import { builtInDemos } from '../../shared/demo/builtIns'
import { Engine } from '../../shared/engine/engine'

let engine: Engine | undefined
afterEach(async () => {
  await engine?.dispose()
  engine = undefined
})

const config = JSON.stringify({
  mcpServers: {
    files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'], env: { ROOT: '/tmp' } },
    remote: { url: 'http://127.0.0.1:3001/mcp', type: 'sse' },
    broken: { args: [] },
  },
  a2aAgents: { sales: { url: 'http://127.0.0.1:4000' } },
})

it('previews a config entry by entry without adding anything, then adds only the entries picked', async () => {
  engine = new Engine({ host: 'web', builtIns: builtInDemos() })
  const preview = (await engine.execute('targets.previewImport', {
    text: config,
    fileName: 'mcp.json',
  })) as CommandOutputs['targets.previewImport']
  expect(preview.entries.map((e) => [e.id, e.section, e.spec.kind])).toEqual([
    ['import:sales', 'a2aAgents', 'a2a'],
    ['import:files', 'mcpServers', 'mcp-stdio'],
    ['import:remote', 'mcpServers', 'mcp-http'],
  ])
  expect(preview.entries[1].spec).toMatchObject({
    command: 'npx',
    args: ['-y', '@modelcontextprotocol/server-filesystem', '.'],
    env: { ROOT: '/tmp' },
  })
  expect(preview.errors).toEqual(['mcpServers.broken: needs either "command" (stdio) or "url" (HTTP)'])
  const saved = () =>
    engine!.execute('targets.list', {}).then((t) => (t as SavedTarget[]).filter((x) => x.origin === 'import').map((x) => x.id))
  expect(await saved()).toEqual([])

  const result = (await engine.execute('targets.import', {
    text: config,
    only: ['import:files', 'import:sales'],
  })) as CommandOutputs['targets.import']
  expect(result.imported.map((t) => t.id)).toEqual(['import:sales', 'import:files'])
  expect(await saved()).toEqual(['import:sales', 'import:files'])

  // Imported again, the entries already saved say what they would replace.
  const again = (await engine.execute('targets.previewImport', { text: config })) as CommandOutputs['targets.previewImport']
  expect(again.entries.map((e) => e.replaces)).toEqual(['sales', 'files', undefined])
  // Without `only`, every usable entry is added, as before.
  expect(((await engine.execute('targets.import', { text: config })) as CommandOutputs['targets.import']).imported).toHaveLength(3)
})
