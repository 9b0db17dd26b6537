/// <reference types="vitest/config" />
import { builtinModules } from 'node:module'
import { basename } from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'

const r = (p: string) => fileURLToPath(new URL(p, import.meta.url))
const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)])
/**
 * Every Node-side bundle carries its packages: one file loads several times faster than hundreds, and
 * the installed package depends on nothing. tsx stays outside (where it is installed, it loads a user's
 * TypeScript hooks), and so do ws's optional native add-ons.
 */
const standaloneExternal = (id: string) => nodeBuiltins.has(id) || /^(tsx|bufferutil|utf-8-validate)(\/|$)/.test(id)
/** The same for electron/ code, which gets Electron from the running app (a sandboxed preload can require nothing else). */
const electronExternal = (id: string) => id === 'electron' || standaloneExternal(id)

/**
 * A Node entry's bundle. `split`: each lazy import() becomes a chunk in `chunks/` beside the entry, loaded
 * only when that code first runs (a protocol's SDK, sign-ins, the demo A2A agent), so a command starts with
 * what it uses; otherwise one file, lazy imports included (a sandboxed preload can load nothing else).
 */
const nodeEnvironment = (
  entry: string,
  outDir: string,
  format: 'es' | 'cjs',
  external = electronExternal,
  split = false,
  minify = false,
) => ({
  consumer: 'server' as const,
  resolve: { noExternal: true as const },
  build: {
    outDir: r(outDir),
    emptyOutDir: true,
    target: 'node22',
    minify,
    sourcemap: true,
    rolldownOptions: {
      input: { [basename(entry, '.ts')]: r(entry) },
      external,
      output: {
        format,
        entryFileNames: format === 'cjs' ? '[name].cjs' : '[name].js',
        codeSplitting: split,
        chunkFileNames: 'chunks/[name]-[hash].js',
      },
    },
  },
})

/** The renderer is browser code: fail the build if a Node built-in ever reaches its bundle. */
function rendererStaysOffNode(): Plugin {
  return {
    name: 'parallax:renderer-stays-off-node',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    resolveId(id, importer) {
      if (nodeBuiltins.has(id)) this.error(`Node built-in "${id}" imported by ${importer}: the renderer must stay browser-only`)
      return null
    },
  }
}

export default defineConfig({
  root: r('renderer'),
  base: './', // the desktop host loads dist/renderer over file://
  plugins: [react(), rendererStaysOffNode()],
  environments: {
    client: { build: { outDir: r('dist/renderer'), emptyOutDir: true } },
    main: nodeEnvironment('electron/main/index.ts', 'dist/electron/main', 'es'),
    preload: nodeEnvironment('electron/preload/index.ts', 'dist/electron/preload', 'cjs'), // sandboxed preloads must be CJS
    cli: nodeEnvironment('cli/main.ts', 'dist/cli', 'es', standaloneExternal, true),
    demo: nodeEnvironment('shared/demo/stdio.ts', 'dist/demo', 'es', standaloneExternal, true),
    // The tap's reader thread: one file (a worker loads no chunks of the CLI's), made small, as the package ships it too.
    tap: nodeEnvironment('shared/tap/tapWorker.ts', 'dist/tap', 'es', standaloneExternal, false, true),
  },
  builder: {
    async buildApp(builder) {
      for (const environment of Object.values(builder.environments)) await builder.build(environment)
    },
  },
  test: {
    root: r('.'),
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/faults/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration tests spawn real servers and mostly wait on them: three files at a time keep two cores busy
    // (measured: 177 s with two, 129 s with three, 117 s with four, where contention starts to show).
    maxWorkers: 3,
    // `npm run coverage`: what the tests run in their own process (the engine, the CLI's commands, the web host's
    // pieces); code that runs only in a process a test starts (a real `parallax web`, the CLI, a demo server) is
    // exercised there but not counted here.
    coverage: {
      provider: 'v8',
      include: ['shared/**/*.ts', 'cli/**/*.ts', 'web/**/*.ts', 'electron/**/*.ts'],
      reporter: ['text-summary', 'json-summary', 'json'],
      reportsDirectory: r('test-results/coverage'),
    },
  },
})
