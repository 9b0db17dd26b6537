import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AgentCard } from '@a2a-js/sdk'
import { afterAll, describe, expect, it } from 'vitest'
import { MediaSalesExecutor } from '../../shared/demo/a2aAgent'
import { startA2aAgent } from '../fixtures/a2aAgents'
import { cliRunner } from '../fixtures/cli'

const dir = mkdtempSync(join(tmpdir(), 'parallax-cli-push-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const parallax = cliRunner(join(dir, 'data'))

const BUY = ['--turn', 'buy prod_mobile_run 2000', '--turn', 'acmeoutdoor.example']

describe('parallax converse --push', () => {
  it('gives the unfinished task a webhook and reports the pushes that arrived (the demo agent pushes)', async () => {
    const { code, stdout, stderr } = await parallax('converse', 'demo:a2a', ...BUY, '--push', '--json')
    expect(code).toBe(0)
    const report = JSON.parse(stdout)
    expect(report.push.configs).toEqual([
      { id: expect.any(String), taskId: report.turns[0].taskId, url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/a2a\/push\//) },
    ])
    expect(report.push.received.map((p: { state?: string }) => p.state)).toContain('completed')
    expect(report.push.findings).toEqual([])
    expect(stderr).toBe('') // with --json, progress is not written
  })

  it('is a finding (exit 1) when the agent advertises pushes and never sends one', async () => {
    const withPush = (card: AgentCard): AgentCard => ({ ...card, capabilities: { ...card.capabilities!, pushNotifications: true } })
    const agent = await startA2aAgent(new MediaSalesExecutor(), withPush, undefined, { send: async () => {} })
    try {
      const json = await parallax('converse', `a2a:${agent.url}`, ...BUY, '--push', '--push-within', '300', '--json')
      expect(json.code).toBe(1)
      const report = JSON.parse(json.stdout)
      expect(report.push.received).toEqual([])
      expect(report.push.findings).toEqual([
        expect.stringMatching(/no push notification .* within 300 ms of its change input-required → completed/),
      ])
      const human = await parallax('converse', `a2a:${agent.url}`, ...BUY, '--push', '--push-within', '300')
      expect(human.code).toBe(1)
      expect(human.stdout).toMatch(/^push finding: the agent sent no push notification/m)
      expect(human.stderr).toMatch(/push notifications for task \S+ go to http:\/\/127\.0\.0\.1/)
    } finally {
      await agent.close()
    }
  })

  it('is refused for MCP targets', async () => {
    const { code, stdout } = await parallax('converse', 'demo:tools', '--turn', '{"tool":"list_creative_formats"}', '--push', '--json')
    expect(code).toBe(2)
    expect(JSON.parse(stdout).error.message).toMatch(/--push is for A2A agents/)
  })
})
