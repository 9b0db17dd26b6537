import type { SavedTarget } from '../contract'
import { startMediaSalesAgent, type RunningAgent } from './a2aAgent'

export const DEMO_A2A_ID = 'demo:a2a'

export const DEMO_A2A_TARGET: SavedTarget = {
  id: DEMO_A2A_ID,
  name: 'Demo media-sales agent (A2A)',
  description: 'The same agent over A2A v1.0 (v0.3 compatible): multi-turn, asks for missing inputs, streams artifacts.',
  origin: 'demo',
  options: {},
  // The real URL is known once the agent listens; see DemoAgents.resolve.
  spec: { kind: 'a2a', url: 'http://127.0.0.1/', headers: {}, binding: 'auto' },
}

/**
 * Runs the built-in A2A demo agent in the engine's process, on 127.0.0.1, the first time a demo
 * target needs it, and stops it with the engine.
 */
export class DemoAgents {
  private agent: Promise<RunningAgent> | undefined

  async resolve(target: SavedTarget): Promise<SavedTarget> {
    if (target.id !== DEMO_A2A_ID || target.spec.kind !== 'a2a') return target
    this.agent ??= startMediaSalesAgent()
    const { url } = await this.agent
    return { ...target, spec: { ...target.spec, url } }
  }

  async dispose(): Promise<void> {
    const agent = this.agent
    this.agent = undefined
    if (agent) await (await agent).close()
  }
}
