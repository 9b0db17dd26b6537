import type { SavedTarget } from '../contract'
import type { RunningAgent } from './a2aAgent'

export const DEMO_A2A_ID = 'demo:a2a'

export const DEMO_A2A_TARGET: SavedTarget = {
  id: DEMO_A2A_ID,
  name: 'Demo media-sales agent (A2A)',
  description:
    'The same AdCP seller over A2A v1.0 (v0.3 compatible), its card declaring AdCP: multi-turn, asks for missing inputs, streams artifacts.',
  origin: 'demo',
  options: {},
  // The real URL is known once the agent listens; see DemoAgents.resolve.
  spec: { kind: 'a2a', url: 'http://127.0.0.1/', headers: {}, binding: 'auto' },
}

export const DEMO_A2A_GRPC_ID = 'demo:a2a-grpc'

/** The same agent, talked to over its card's gRPC interface (on a port of its own). */
export const DEMO_A2A_GRPC_TARGET: SavedTarget = {
  ...DEMO_A2A_TARGET,
  id: DEMO_A2A_GRPC_ID,
  name: 'Demo media-sales agent (A2A over gRPC)',
  description: 'The demo agent over A2A’s gRPC binding: every gRPC message a frame, with its metadata and status.',
  spec: { kind: 'a2a', url: 'http://127.0.0.1/', headers: {}, binding: 'GRPC' },
}

const DEMO_A2A_IDS = new Set([DEMO_A2A_ID, DEMO_A2A_GRPC_ID])

/**
 * Runs the built-in A2A demo agent in the engine's process, on 127.0.0.1, the first time a demo
 * target needs it (its module and the A2A server SDK are loaded only then), and stops it with the engine.
 */
export class DemoAgents {
  private agent: Promise<RunningAgent> | undefined

  async resolve(target: SavedTarget): Promise<SavedTarget> {
    if (!DEMO_A2A_IDS.has(target.id) || target.spec.kind !== 'a2a') return target
    this.agent ??= import('./a2aAgent').then(({ startMediaSalesAgent }) => startMediaSalesAgent())
    const { url } = await this.agent
    return { ...target, spec: { ...target.spec, url } }
  }

  async dispose(): Promise<void> {
    const agent = this.agent
    this.agent = undefined
    if (agent) await (await agent).close()
  }
}
