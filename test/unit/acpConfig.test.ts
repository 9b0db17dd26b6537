import { describe, expect, it } from 'vitest'
import { parseTargetsConfig } from '../../shared/engine/configFile'

describe('an acpAgents section in a config file', () => {
  it('reads ACP agents as stdio MCP servers are read, with their workspace and the MCP servers of the same file they use', () => {
    const { drafts, errors } = parseTargetsConfig(
      JSON.stringify({
        mcpServers: { files: { command: 'npx', args: ['server-filesystem', '.'] } },
        acpAgents: {
          coder: {
            command: 'npx',
            args: ['my-agent', '--acp'],
            env: { MODE: 'ci' },
            workspace: '/work/app',
            mcpServers: ['files', 't_saved'],
          },
          broken: { url: 'http://127.0.0.1:1/' },
        },
      }),
      'agents.json',
    )
    expect(errors).toEqual(['acpAgents.broken: needs "command" (an ACP agent runs over stdio)'])
    const coder = drafts.find((d) => d.name === 'coder')
    expect(coder).toMatchObject({
      id: 'import:coder',
      spec: {
        kind: 'acp',
        command: 'npx',
        args: ['my-agent', '--acp'],
        env: { MODE: 'ci' },
        workspace: '/work/app',
        mcpServers: ['import:files', 't_saved'],
      },
    })
    expect(drafts.map((d) => d.name).sort()).toEqual(['coder', 'files'])
  })

  it('is enough on its own: a file with only acpAgents imports', () => {
    const { drafts, errors } = parseTargetsConfig(JSON.stringify({ acpAgents: { a: { command: 'agent' } } }))
    expect(errors).toEqual([])
    expect(drafts[0].spec).toMatchObject({ kind: 'acp', command: 'agent', args: [], mcpServers: [] })
  })
})
