import { afterEach, describe, expect, it } from 'vitest'
import type { AcpPromptAnswer } from '../../shared/contract'
import { MAX_WAITING } from '../../shared/acp/clientRole'
import { acpTarget } from '../fixtures/acp/targets'
import { openApproved, openApprovedTarget, openUiClient, waitConnected, type UiClient } from '../../web/client'
import { startWebHostProcess, type RunningWebHost } from '../../web/launch'

// A misbehaving ACP agent under the real `parallax web`, with a UI client attached (a person can be asked),
// beside a healthy neighbour: after the fault the host still runs and answers, and so does the agent.

let host: RunningWebHost | undefined
let ui: UiClient | undefined

afterEach(async () => {
  await ui?.close()
  await host?.stop()
  host = undefined
  ui = undefined
})

describe('misbehaving ACP agents, with a UI attached to the real web host', () => {
  it('a flood of permission requests: a bounded number wait for a person, the rest are refused at once, and it is a finding', async () => {
    host = await startWebHostProcess()
    ui = await openUiClient(host)
    const neighbour = await openApproved(ui, 'demo:prompts')
    const { origin: _origin, id: _id, ...draft } = acpTarget('stableAgent', 'flood')
    const { connectionId } = await openApprovedTarget(ui, { ...draft, name: 'flooding agent' })
    await waitConnected(ui, connectionId)

    const asked = 3_000
    const turn = ui.invoke('conversation.send', { connectionId, turn: { text: `flood ${asked}` } })
    turn.catch(() => {}) // awaited below; a failure before then is the test's, not an unhandled one
    const finding = await ui.waitFor((e) => e.type === 'log' && e.connectionId === connectionId && e.oddity === true, 60_000)
    expect(finding).toMatchObject({
      level: 'warn',
      text: expect.stringMatching(new RegExp(`floods Parallax with requests that wait for a person .*${MAX_WAITING} are waiting`)),
    })
    // Every request is a frame; only the first MAX_WAITING were kept for a person.
    await ui.waitForCount(
      (e) => e.type === 'frame' && e.connectionId === connectionId && e.direction === 'in' && e.method === 'session/request_permission',
      asked,
      60_000,
    )
    const pending = () => ui!.of('serverRequest', connectionId).filter((r) => r.state === 'pending')
    expect(pending()).toHaveLength(MAX_WAITING)

    // The person stops the turn: what waited is answered cancelled, and the agent says how each request ended.
    expect(await ui.invoke('connections.cancel', { connectionId, requestId: 'prompt' })).toEqual({ cancelled: true })
    const result = await turn
    expect((result.response as AcpPromptAnswer).text).toBe(
      `flood: ${JSON.stringify({ cancelled: MAX_WAITING, refused: asked - MAX_WAITING })}`,
    )

    expect(host.alive()).toBe(true)
    expect((await ui.invoke('app.info', {})).name).toBe('Parallax')
    expect(await ui.invoke('connections.probe', { connectionId: neighbour })).toEqual({ ok: true })
    // Once nothing waits, the agent's requests wait for the person again, who answers them.
    const again = ui.invoke('conversation.send', { connectionId, turn: { text: 'flood 3' } })
    again.catch(() => {})
    await ui.waitForCount((e) => e.type === 'serverRequest' && e.connectionId === connectionId && e.state === 'pending', MAX_WAITING + 3)
    for (const request of pending().slice(MAX_WAITING))
      await ui.invoke('serverRequests.answer', { connectionId, id: request.id, answer: { result: { optionId: 'yes' } } })
    expect(((await again).response as AcpPromptAnswer).text).toBe(`flood: ${JSON.stringify({ selected: 3 })}`)
  }, 120_000)
})
