import { join } from 'node:path'
import { APP_ROOT } from '../bundles.mjs'
import type { BuiltIns } from '../runtime/builtIns'
import { DemoAgents } from './demoAgents'
import { demoRecordings, demoTargets } from './targets'

/** The demos every host opens on: three MCP servers, the A2A agent, a recording, example hooks. */
export function builtInDemos(appRoot = APP_ROOT): BuiltIns {
  const agents = new DemoAgents()
  return {
    targets: demoTargets(appRoot),
    recordings: demoRecordings(appRoot),
    hooksDir: join(appRoot, 'shared', 'demo', 'hooks'),
    resolve: (target) => agents.resolve(target),
    dispose: () => agents.dispose(),
  }
}
