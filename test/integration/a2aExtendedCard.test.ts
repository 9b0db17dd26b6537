import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { DiscoveryEvent, SavedTarget } from '../../shared/contract'
import { MediaSalesExecutor, startMediaSalesAgent } from '../../shared/demo/a2aAgent'
import { startExtendedCardAgent } from '../fixtures/a2aAgents'
import { cliRunner } from '../fixtures/cli'
import { a2aTarget } from '../fixtures/targets'
import { perTestEngine } from '../fixtures/testEngine'

const TOKEN = 'buyer-token-3f9a'
const px = perTestEngine()
const { serve } = px
const dir = mkdtempSync(join(tmpdir(), 'parallax-extended-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const parallax = cliRunner(join(dir, 'data'))

async function extendedStep(target: SavedTarget): Promise<{ step: DiscoveryEvent; connectionId: string }> {
  const connection = await px.connect(target)
  const step = px.recorder.of('discovery', connection.id).find((d) => d.method === 'extended-agent-card')!
  return { step, connectionId: connection.id }
}

describe('the authenticated extended agent card', () => {
  it('is fetched with the target’s credentials when the card offers it, and shown with how it differs from the public card', async () => {
    const agent = await serve(startExtendedCardAgent(TOKEN, new MediaSalesExecutor()))
    const { step, connectionId } = await extendedStep(a2aTarget(agent.url, 'auto', { Authorization: `Bearer ${TOKEN}` }))
    expect(step).toMatchObject({
      status: 'called',
      count: 7,
      reason: expect.stringMatching(/^GetExtendedAgentCard with this target's headers for http:\/\/127\.0\.0\.1:\d+: 2 difference\(s\)/),
    })
    const { card, differences } = step.extendedCard!
    expect((card as { skills: { id: string }[] }).skills.map((s) => s.id)).toContain('premium_inventory')
    expect(differences).toEqual(
      expect.arrayContaining([
        {
          path: '/description',
          op: 'replace',
          from: expect.stringMatching(/^An AdCP seller/),
          to: expect.stringMatching(/premium inventory/),
        },
        { path: '/skills/6', op: 'add', to: expect.objectContaining({ id: 'premium_inventory' }) },
      ]),
    )
    expect(differences).toHaveLength(2)
    // It went as A2A's own request, with the credentials (redacted in the frame).
    const sent = px.recorder.of('frame', connectionId).find((f) => f.method === 'GetExtendedAgentCard' && f.direction === 'out')!
    expect(sent.http?.headers).toMatchObject({ authorization: '[redacted]' })
  })

  it('is fetched over HTTP+JSON too', async () => {
    const agent = await serve(startExtendedCardAgent(TOKEN, new MediaSalesExecutor()))
    const { step, connectionId } = await extendedStep(a2aTarget(agent.url, 'HTTP+JSON', { Authorization: `Bearer ${TOKEN}` }))
    expect(step.status).toBe('called')
    expect(step.extendedCard!.differences).toHaveLength(2)
    expect(px.recorder.of('frame', connectionId).find((f) => f.method === 'GetExtendedAgentCard')?.http?.url).toMatch(
      /\/a2a\/rest\/extendedAgentCard$/,
    )
  })

  it('is not asked for without credentials for the agent’s origin, and says how to get it', async () => {
    const agent = await serve(startExtendedCardAgent(TOKEN, new MediaSalesExecutor()))
    const { step, connectionId } = await extendedStep(a2aTarget(agent.url))
    expect(step).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/no headers \(credentials\) for http:\/\/127\.0\.0\.1:\d+: add one/),
    })
    expect(px.recorder.of('frame', connectionId).some((f) => f.method === 'GetExtendedAgentCard')).toBe(false)
  })

  it('says so when the agent hands credentials it does not accept the public card', async () => {
    const agent = await serve(startExtendedCardAgent(TOKEN, new MediaSalesExecutor()))
    const { step } = await extendedStep(a2aTarget(agent.url, 'auto', { Authorization: 'Bearer wrong' }))
    expect(step).toMatchObject({
      status: 'called',
      reason: expect.stringMatching(/the same as the public card$/),
      extendedCard: { differences: [] },
    })
  })

  it('is skipped, with why, when the card offers none', async () => {
    const agent = await serve(startMediaSalesAgent())
    const { step } = await extendedStep(a2aTarget(agent.url, 'auto', { Authorization: `Bearer ${TOKEN}` }))
    expect(step).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/did not advertise an extended card/) })
  })

  it('is in parallax inspect --json, and in its report', async () => {
    const agent = await serve(startExtendedCardAgent(TOKEN, new MediaSalesExecutor()))
    const config = join(dir, 'agents.json')
    writeFileSync(config, JSON.stringify({ a2aAgents: { buyer: { url: agent.url, headers: { Authorization: `Bearer ${TOKEN}` } } } }))
    const json = await parallax('inspect', 'buyer', '--config', config, '--json', '--probes', '0')
    expect(json.code).toBe(0)
    const report = JSON.parse(json.stdout)
    expect(report.extendedCard).toMatchObject({
      status: 'called',
      card: { skills: expect.arrayContaining([expect.objectContaining({ id: 'premium_inventory' })]) },
      differences: expect.arrayContaining([expect.objectContaining({ path: '/skills/6', op: 'add' })]),
    })
    expect(json.stdout).not.toContain(TOKEN)
    const human = await parallax('inspect', 'buyer', '--config', config, '--probes', '0')
    expect(human.stdout).toMatch(/extended card: 2 difference\(s\) from the public card/)
    expect(human.stdout).toMatch(/^ {2}\+ \/skills\/6 /m)
  })
})
