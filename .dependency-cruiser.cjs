// The layering contract of docs/architecture.md and the ban on import cycles, checked on resolved module paths
// (so `../tools` and `../../tools` are the same file) and including type-only imports (`tsPreCompilationDeps`):
// `import type` is erased from the JavaScript, but a type-only cycle still ties the layers together. Run by
// `npm run lint`.

const CORE = '^lib/(errors|result|tools)\\.ts$|^lib/(metadata|decorators|context|schema|tool|pipeline|permissions|streaming|budget)/';
const LOW = '^lib/(fs|text)/';
const ERRORS = '^lib/errors\\.ts$';
const ENTRY = '^lib/index\\.ts$|^lib/[^/]+/index\\.ts$';
const DOCKER_WORKSPACE = '^lib/sandbox/docker/docker-workspace\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'Import cycles (type-only ones included) are forbidden: move the shared types down a layer.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'low-layer',
      severity: 'error',
      comment: 'lib/fs and lib/text are the lowest layer: they may import lib/errors.ts and each other only.',
      from: { path: LOW },
      to: { path: '^lib/', pathNot: [ERRORS, LOW] },
    },
    {
      name: 'core-independent',
      severity: 'error',
      comment: 'The core never imports providers, ports and their adapters, skills, the built-in tools or an entry point.',
      from: { path: CORE },
      to: { path: ['^lib/(providers|workspace|sandbox|skills|builtins|mcp|ai-sdk|openai-agents|search|code-mode)/', ENTRY] },
    },
    {
      name: 'providers-core-only',
      severity: 'error',
      comment: 'Provider formats depend on the core (and the low layer) only.',
      from: { path: '^lib/providers/' },
      to: { path: ['^lib/(workspace|sandbox|skills|builtins|mcp|ai-sdk|openai-agents|search)/', ENTRY] },
    },
    {
      name: 'workspace-port',
      severity: 'error',
      comment: 'The workspace port and its adapters depend on lib/errors.ts and the low layer only.',
      from: { path: '^lib/workspace/' },
      to: { path: '^lib/', pathNot: [ERRORS, LOW, '^lib/workspace/'] },
    },
    {
      name: 'sandbox-port',
      severity: 'error',
      comment: 'The sandbox port and its adapters depend on lib/errors.ts and the low layer only.',
      from: { path: '^lib/sandbox/', pathNot: DOCKER_WORKSPACE },
      to: { path: '^lib/', pathNot: [ERRORS, LOW, '^lib/sandbox/'] },
    },
    {
      name: 'docker-workspace',
      severity: 'error',
      comment: 'The one bridge between the ports: the Workspace adapter over a Docker container may also import the Workspace port types and errors (never LocalWorkspace).',
      from: { path: DOCKER_WORKSPACE },
      to: { path: '^lib/', pathNot: [ERRORS, LOW, '^lib/sandbox/', '^lib/workspace/(workspace|errors|entry)\\.ts$'] },
    },
    {
      name: 'port-without-adapter',
      severity: 'error',
      comment: 'A port never imports its adapters (only its entry point re-exports them).',
      from: { path: ['^lib/workspace/[^/]+\\.ts$', '^lib/sandbox/[^/]+\\.ts$'], pathNot: ENTRY },
      to: { path: ['^lib/workspace/local/', '^lib/sandbox/docker/'] },
    },
    {
      name: 'skills-core-only',
      severity: 'error',
      comment: 'Skills depend on the core (and the low layer) only.',
      from: { path: '^lib/skills/' },
      to: { path: ['^lib/(providers|workspace|sandbox|builtins|mcp)/', ENTRY] },
    },
    {
      name: 'builtins-layer',
      severity: 'error',
      comment: 'The built-in tools depend on the core, the ports (lib/workspace, lib/sandbox) and the low layer; never on providers, skills or the Docker adapters (Grep reaches a DockerWorkspace through its methods alone, so dockerode never loads through the built-ins).',
      from: { path: '^lib/builtins/' },
      to: { path: ['^lib/(providers|skills|mcp)/', '^lib/sandbox/docker/', ENTRY] },
    },
    {
      name: 'mcp-client-layer',
      severity: 'error',
      comment: 'The MCP client adapter (lib/mcp/client) depends on the core and the low layer only: never on providers, ports, skills, built-in tools or the MCP server side.',
      from: { path: '^lib/mcp/client/' },
      to: { path: ['^lib/(providers|workspace|sandbox|skills|builtins)/', '^lib/mcp/server/', ENTRY] },
    },
    {
      name: 'mcp-sdk-in-lib-mcp',
      severity: 'error',
      comment: 'The MCP SDK (optional peer dependency) is imported only under lib/mcp, loaded by the agenttoolkit/mcp entry point.',
      from: { path: '^lib/', pathNot: '^lib/mcp/' },
      to: { path: '(^|/)@modelcontextprotocol/(sdk|server|client|node|core)(/|$)' },
    },
    {
      name: 'mcp-layer',
      severity: 'error',
      comment: 'The MCP adapter depends on the core, the provider formats, skills and the low layer; never on the ports or built-in tools.',
      from: { path: '^lib/mcp/' },
      to: { path: ['^lib/(workspace|sandbox|builtins)/'] },
    },
    {
      name: 'ai-sdk-in-lib-ai-sdk',
      severity: 'error',
      comment: 'The Vercel AI SDK (optional peer dependency) is imported only under lib/ai-sdk, loaded by the agenttoolkit/ai-sdk entry point.',
      from: { path: '^lib/', pathNot: '^lib/ai-sdk/' },
      to: { path: '(^|/)node_modules/(ai|@ai-sdk)/' },
    },
    {
      name: 'openai-agents-in-lib-openai-agents',
      severity: 'error',
      comment: 'The OpenAI Agents SDK (optional peer dependency) is imported only under lib/openai-agents, loaded by the agenttoolkit/openai-agents entry point.',
      from: { path: '^lib/', pathNot: '^lib/openai-agents/' },
      to: { path: '(^|/)node_modules/@openai/agents[-/]' },
    },
    {
      name: 'minisearch-in-lib-search',
      severity: 'error',
      comment: 'MiniSearch backs the tool search only: it is imported under lib/search alone (lazily, on the first search), loaded by the agenttoolkit/search entry point.',
      from: { path: '^lib/', pathNot: '^lib/search/' },
      to: { path: '(^|/)node_modules/minisearch/' },
    },
    {
      name: 'typebox-in-lib-typebox',
      severity: 'error',
      comment: 'TypeBox (an optional peer dependency) is imported only under lib/typebox, the agenttoolkit/typebox entry, whose build bundles it: the rest of the library reads schemas by their markers.',
      from: { path: '^lib/', pathNot: '^lib/typebox/' },
      to: { path: '(^|/)node_modules/(@sinclair/typebox|typebox)/' },
    },
    {
      name: 'typebox-entry-serves-1x',
      severity: 'error',
      comment: 'agenttoolkit/typebox serves TypeBox 1.x, the `typebox` package the docs recommend: lib/typebox does not import TypeBox 0.34 (@sinclair/typebox).',
      from: { path: '^lib/typebox/' },
      to: { path: '(^|/)node_modules/@sinclair/typebox/' },
    },
    {
      name: 'typebox-entry-alone',
      severity: 'error',
      comment: 'lib/typebox imports TypeBox and nothing of the library: its build is a bundle, and a library module inside it would be a second copy.',
      from: { path: '^lib/typebox/' },
      to: { path: '^lib/' },
    },
    {
      name: 'framework-adapters-layer',
      severity: 'error',
      comment: 'The framework adapters (lib/ai-sdk, lib/openai-agents) depend on the core, the provider formats and the low layer; never on each other, the ports, skills, built-in tools or MCP.',
      from: { path: '^lib/(ai-sdk|openai-agents)/' },
      to: { path: ['^lib/(workspace|sandbox|skills|builtins|mcp)/', '^lib/(ai-sdk|openai-agents)/'], pathNot: '^lib/$1/' },
    },
    {
      name: 'quickjs-in-lib-code-mode',
      severity: 'error',
      comment: 'quickjs-emscripten (optional peer dependency) is loaded only under lib/code-mode, by the agenttoolkit/code-mode entry point.',
      from: { path: '^lib/', pathNot: '^lib/code-mode/' },
      to: { path: '(^|/)node_modules/(quickjs-emscripten|@jitl/)' },
    },
    {
      name: 'code-mode-layer',
      severity: 'error',
      comment: 'Code mode depends on the core, the provider-neutral call runner (lib/providers) and the low layer; never on the ports, skills, built-in tools, MCP or the framework adapters.',
      from: { path: '^lib/code-mode/' },
      to: { path: ['^lib/(workspace|sandbox|skills|builtins|mcp|ai-sdk|openai-agents|nestjs|search)/', ENTRY] },
    },
    {
      name: 'nestjs-in-lib-nestjs',
      severity: 'error',
      comment: 'NestJS (optional peer dependency) is imported only under lib/nestjs, loaded by the agenttoolkit/nestjs entry point.',
      from: { path: '^lib/', pathNot: '^lib/nestjs/' },
      to: { path: '(^|/)@nestjs/' },
    },
    {
      name: 'nestjs-unimported',
      severity: 'error',
      comment: 'The NestJS module is an adapter on top: no other library module (the core included) imports lib/nestjs.',
      from: { path: '^lib/', pathNot: '^lib/nestjs/' },
      to: { path: '^lib/nestjs/' },
    },
    {
      name: 'nestjs-layer',
      severity: 'error',
      comment: 'The NestJS module depends on the core and the low layer only; sandboxes and skills reach it as values with a close() method.',
      from: { path: '^lib/nestjs/' },
      to: { path: ['^lib/(providers|workspace|sandbox|skills|builtins|mcp)/', ENTRY] },
    },
    {
      name: 'otel-in-lib-otel',
      severity: 'error',
      comment: 'OpenTelemetry (the optional peer @opentelemetry/api) is imported only under lib/otel, loaded by the agenttoolkit/otel entry point; the core reports calls through its ToolTelemetry port.',
      from: { path: '^lib/', pathNot: '^lib/otel/' },
      to: { path: '(^|/)@opentelemetry/' },
    },
    {
      name: 'otel-unimported',
      severity: 'error',
      comment: 'The OpenTelemetry adapter is on top: no other library module (the core included) imports lib/otel.',
      from: { path: '^lib/', pathNot: '^lib/otel/' },
      to: { path: '^lib/otel/' },
    },
    {
      name: 'otel-layer',
      severity: 'error',
      comment: 'The OpenTelemetry adapter depends on the core, the ports it implements (the Sandbox interface it wraps, the MCP client\'s telemetry port) and the low layer; never on providers, adapters, skills, built-in tools or the rest of MCP.',
      from: { path: '^lib/otel/' },
      to: { path: ['^lib/(providers|workspace|skills|builtins|ai-sdk|openai-agents|nestjs|search)/', '^lib/mcp/(?!client/mcp-telemetry\\.ts$)', '^lib/sandbox/(?!sandbox\\.ts$)', ENTRY] },
    },
    {
      name: 'entry-points-unimported',
      severity: 'error',
      comment: 'Entry points are for users: no library module imports one.',
      from: { path: '^lib/' },
      to: { path: ENTRY },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|build|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6', 'cjs'],
  },
};
