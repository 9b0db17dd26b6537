// The layers of Parallax and what may import what (docs/architecture.md explains them). `npm run lint`
// checks every rule; a violation names the two files and the rule.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Files and folders import one way: a cycle means two things that should be one, or a missing layer.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'renderer-knows-only-the-contract',
      severity: 'error',
      comment: 'The UI talks to the engine only through shared/contract (commands, events, schemas).',
      from: { path: '^renderer/' },
      to: { path: '^(shared|cli|web|electron|bench|test)/', pathNot: '^shared/contract/' },
    },
    {
      name: 'contract-is-the-bottom',
      severity: 'error',
      comment: 'The contract depends on nothing of Parallax: every other layer builds on it.',
      from: { path: '^shared/contract/' },
      to: { path: '^(shared|cli|web|electron|renderer)/', pathNot: '^shared/contract/' },
    },
    {
      name: 'runtime-below-protocols',
      severity: 'error',
      comment: 'The runtime (clock, errors, event log, taps, supervised connection) serves every protocol and knows none.',
      from: { path: '^shared/runtime/' },
      to: { path: '^shared/(mcp|a2a|hooks|session|compare|engine|demo)/' },
    },
    {
      name: 'protocols-below-features',
      severity: 'error',
      comment: 'A protocol module never imports the orchestrator or a feature; features and the engine build on protocols.',
      from: { path: '^shared/(mcp|a2a)/' },
      to: { path: '^shared/(engine|hooks|session|compare|demo)/' },
    },
    {
      name: 'protocols-apart',
      severity: 'error',
      comment: 'MCP and A2A share only the contract and the runtime.',
      from: { path: '^shared/(mcp|a2a)/' },
      to: { path: '^shared/(mcp|a2a)/', pathNot: '^shared/$1/' },
    },
    {
      name: 'features-below-the-engine',
      severity: 'error',
      comment: 'Hooks, sessions and compare are used by the engine, not the other way round; none knows the demos.',
      from: { path: '^shared/(hooks|session|compare)/' },
      to: { path: '^shared/(engine|demo)/' },
    },
    {
      name: 'engine-without-demos',
      severity: 'error',
      comment: 'The engine gets the built-in demos from its host (EngineOptions.builtIns).',
      from: { path: '^shared/engine/' },
      to: { path: '^shared/demo/' },
    },
    {
      name: 'shared-knows-no-host',
      severity: 'error',
      comment: 'shared/ is the engine every host drives; it never imports a host, the tests or the benchmarks.',
      from: { path: '^shared/' },
      to: { path: '^(cli|web|electron|renderer|test|bench)/' },
    },
    {
      name: 'hosts-apart',
      severity: 'error',
      comment: 'Each host stands on shared/ alone (the CLI may start the web host: `parallax web`).',
      from: { path: '^(web|electron)/' },
      to: { path: '^(cli|web|electron|renderer)/', pathNot: '^$1/' },
    },
    {
      name: 'bench-not-test',
      severity: 'error',
      comment: 'Benchmarks drive Parallax from outside, as a user would; they do not borrow test fixtures.',
      from: { path: '^bench/' },
      to: { path: '^test/' },
    },
    {
      name: 'node-only-on-node',
      severity: 'error',
      comment: 'Node built-ins only where the code runs on Node: not in the UI, the contract (the UI imports it) or the sandboxed preload.',
      from: { path: '^(renderer|shared/contract|electron/preload)/' },
      to: { dependencyTypes: ['core'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
}
