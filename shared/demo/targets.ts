import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { APP_ROOT, freshBundle } from '../bundles.mjs'
import type { SavedTarget } from '../contract'
import { DEMO_A2A_GRPC_TARGET, DEMO_A2A_TARGET } from './demoAgents'
import type { DemoServerName } from './mcpServers'

const DEMOS: Record<DemoServerName, { name: string; description: string }> = {
  tools: {
    name: 'Demo media-sales agent',
    description: 'Tools: get products, list creative formats, create a media buy, read its delivery (an AdCP 3.0.6 seller of media).',
  },
  prompts: {
    name: 'Demo prompt library',
    description: 'Prompt-only server: no tools, so tools/list is never called and keepalive uses ping.',
  },
  resources: { name: 'Demo inventory', description: 'Resource-only server: products and formats as resources and a template.' },
  'tools-changed-context': {
    name: 'Demo media-sales agent (echo bug)',
    description:
      'The tool server with a deliberate bug: it stamps the buyer’s context and echoes the stamped one, so the context-echo check fails.',
  },
}

export const DEMO_NAMES = Object.keys(DEMOS) as DemoServerName[]

/**
 * The built-in targets: each demo server spawned over stdio with the running Node (or Electron acting
 * as Node), from its prebuilt bundle when that is up to date, else from source through the tsx loader.
 * `appRoot` is where `shared/` and `node_modules/` live.
 */
export function demoTargets(appRoot = APP_ROOT): SavedTarget[] {
  const bundle = freshBundle('demo/stdio.js', ['shared'], appRoot)
  const start = bundle
    ? [bundle]
    : [
        '--import',
        pathToFileURL(createRequire(join(appRoot, 'package.json')).resolve('tsx')).href,
        join(appRoot, 'shared', 'demo', 'stdio.ts'),
      ]
  const env: Record<string, string> = process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}
  const mcp: SavedTarget[] = DEMO_NAMES.map((name) => ({
    id: `demo:${name}`,
    name: DEMOS[name].name,
    description: DEMOS[name].description,
    origin: 'demo',
    options: {},
    spec: { kind: 'mcp-stdio', command: process.execPath, args: [...start, name], env },
  }))
  const acp: SavedTarget = {
    id: DEMO_ACP_ID,
    name: 'Demo media-sales agent (ACP)',
    description:
      'The same agent over ACP: its tools are slash commands, a plain prompt is a plan it carries out (asking before it books), and it honours the requested tool categories hint.',
    origin: 'demo',
    options: {},
    spec: { kind: 'acp', command: process.execPath, args: [...start, 'acp'], env, mcpServers: [] },
  }
  return [...mcp, DEMO_A2A_TARGET, DEMO_A2A_GRPC_TARGET, acp]
}

export const DEMO_ACP_ID = 'demo:acp'

/** The recordings that ship with the app (a multi-turn media-buying session), for the library's first start. */
export function demoRecordings(appRoot = APP_ROOT): string[] {
  return [join(appRoot, 'shared', 'demo', 'recordings', 'media-buying.jsonl')]
}
