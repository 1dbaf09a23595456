// Lint rules of the library. The layering contract of docs/architecture.md is checked by dependency-cruiser
// (.dependency-cruiser.cjs) in the same `npm run lint`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';


// Heavy or optional third-party modules: each may be imported only by its own adapter.
const heavy = [
  { name: 'dockerode', message: 'dockerode is imported only by lib/sandbox/docker/ (optional peer dependency).' },
  { name: 'chokidar', message: 'chokidar is imported only by lib/skills/ watcher code (optional peer dependency).' },
  { name: '@modelcontextprotocol/sdk', message: 'The MCP SDK is imported only by lib/mcp/ (optional peer dependency, loaded by agenttoolkit/mcp).' },
  { name: '@modelcontextprotocol/server', message: 'The MCP SDK v2 is imported only by lib/mcp/ (optional peer dependency, loaded by agenttoolkit/mcp).' },
  { name: '@modelcontextprotocol/client', message: 'The MCP SDK v2 is imported only by lib/mcp/ (optional peer dependency, loaded by agenttoolkit/mcp).' },
  { name: '@modelcontextprotocol/node', message: 'The MCP SDK v2 is imported only by lib/mcp/ (optional peer dependency, loaded by agenttoolkit/mcp).' },
  { name: 'ai', message: 'The Vercel AI SDK is imported only by lib/ai-sdk/ (optional peer dependency, loaded by agenttoolkit/ai-sdk).' },
  { name: '@openai/agents', message: 'The OpenAI Agents SDK is imported only by lib/openai-agents/ (optional peer dependency, loaded by agenttoolkit/openai-agents).' },
  { name: '@openai/agents-core', message: 'The OpenAI Agents SDK is imported only by lib/openai-agents/ (optional peer dependency, loaded by agenttoolkit/openai-agents).' },
  { name: 'minisearch', message: 'MiniSearch is imported only by lib/search/ (and there lazily, on the first search).' },
  { name: 'web-tree-sitter', message: 'The bash parser is imported only by lib/builtins/shell/ (and there lazily, on first analysis).' },
  { name: '@nestjs/common', message: 'NestJS is imported only by lib/nestjs/ (optional peer dependency, loaded by agenttoolkit/nestjs).' },
  { name: '@nestjs/core', message: 'NestJS is imported only by lib/nestjs/ (optional peer dependency, loaded by agenttoolkit/nestjs).' },
  { name: '@sinclair/typebox', message: 'TypeBox is imported only by lib/typebox/ (the agenttoolkit/typebox entry, whose build bundles it): the library reads schemas by their markers and builds plain JSON Schema itself.' },
  { name: 'quickjs-emscripten', message: 'quickjs-emscripten is loaded only by lib/code-mode/ (optional peer dependency, loaded by agenttoolkit/code-mode), and there only inside its worker thread.' },
  { name: 'typebox', message: 'TypeBox is imported only by lib/typebox/ (the agenttoolkit/typebox entry, whose build bundles it): the library reads schemas by their markers and builds plain JSON Schema itself.' },
  { name: '@opentelemetry/api', message: 'OpenTelemetry is imported only by lib/otel/ (optional peer dependency, loaded by agenttoolkit/otel); the core reports calls through its ToolTelemetry port.' },
];

// The MCP SDK is imported through subpaths (`@modelcontextprotocol/sdk/server/mcp.js`), which `paths` does not match.
const heavyPatterns = [
  { group: ['@modelcontextprotocol/sdk/*', '@modelcontextprotocol/server/*', '@modelcontextprotocol/client/*'], message: 'The MCP SDK is imported only by lib/mcp/ (optional peer dependency, loaded by agenttoolkit/mcp).' },
  { group: ['ai/*', '@ai-sdk/*'], message: 'The Vercel AI SDK is imported only by lib/ai-sdk/ (optional peer dependency, loaded by agenttoolkit/ai-sdk).' },
  { group: ['@openai/agents/*', '@openai/agents-*'], message: 'The OpenAI Agents SDK is imported only by lib/openai-agents/ (optional peer dependency, loaded by agenttoolkit/openai-agents).' },
];
const typeboxPatterns = [
  { group: ['@sinclair/typebox/*', 'typebox/*'], message: 'TypeBox is imported only by lib/typebox/ (the agenttoolkit/typebox entry, whose build bundles it).' },
];
const otelPatterns = [
  { group: ['@opentelemetry/*'], message: 'OpenTelemetry is imported only by lib/otel/ (optional peer dependency, loaded by agenttoolkit/otel).' },
];
const nestPatterns = [
  { group: ['@nestjs/*'], message: 'NestJS is imported only by lib/nestjs/ (optional peer dependency, loaded by agenttoolkit/nestjs).' },
];

// Wall-clock time in an assertion of a spec: a check a busy machine can fail. An `expect(...)` call or a matcher call
// (`.toBeLessThan(...)`) may not hold a clock reading or an elapsed-time figure; specs count the work, wait for a state
// or use fake timers, and speed is measured by `npm run bench`. The one exception, for bounds far beyond anything load
// causes (proof that a kill or a timeout happened), is spec/support/generous-bound.ts.
const ASSERTION = ":matches(CallExpression[callee.name='expect'], CallExpression[callee.property.name=/^to[A-Z]/])";
const CLOCK = [
  "CallExpression[callee.object.name='Date'][callee.property.name='now']",
  "CallExpression[callee.object.name='performance'][callee.property.name='now']",
  "MemberExpression[object.name='process'][property.name='hrtime']",
  "NewExpression[callee.name='Date'][arguments.length=0]",
].join(', ');
const ELAPSED = '/^(elapsed|duration|took)|(Elapsed|Duration|Took)(Ms|Ns|Seconds)?$/';
const START = '/^(start|started|startedAt|begin|t0)$/';
export const WALL_CLOCK_MESSAGE = 'No wall-clock time in an assertion: count the work, wait for the state (spec/support/wait-for.ts) or use fake timers, and measure speed in bench/. A bound that proves a kill or a timeout goes through expectWithinGenerousBound (spec/support/generous-bound.ts).';
export const WALL_CLOCK_SELECTORS = [
  `${ASSERTION} :matches(${CLOCK})`,
  `${ASSERTION} BinaryExpression[operator='-'] > Identifier[name=${START}]`,
  // An elapsed-time figure held against a ceiling: `expect(elapsedMs).toBeLessThan(...)`, `expect(r.durationMs)...`.
  `CallExpression[callee.property.name=/^toBeLessThan/][callee.object.callee.name='expect'][callee.object.arguments.0.name=${ELAPSED}]`,
  `CallExpression[callee.property.name=/^toBeLessThan/][callee.object.callee.name='expect'][callee.object.arguments.0.property.name=${ELAPSED}]`,
];

// Built-in error classes the library must not throw (a thrown `new TypeError(...)` or `throw RangeError(...)`).
const BUILTIN_ERRORS = '/^(Error|TypeError|RangeError|SyntaxError|ReferenceError|EvalError|URIError|AggregateError)$/';

export default tseslint.config(
  { ignores: ['dist/**', 'build/**', 'coverage/**', 'node_modules/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  // The layers themselves (which folder may import which) and the ban on import cycles are checked on resolved paths,
  // type-only imports included, by dependency-cruiser (.dependency-cruiser.cjs), also run by `npm run lint`.
  // Here: the heavy or optional third-party modules, each allowed in its own adapter only.
  {
    files: ['lib/**/*.ts'],
    ignores: ['lib/sandbox/docker/**', 'lib/skills/**', 'lib/builtins/shell/**', 'lib/search/**', 'lib/mcp/**', 'lib/ai-sdk/**', 'lib/openai-agents/**', 'lib/nestjs/**', 'lib/typebox/**', 'lib/otel/**'],
    rules: { 'no-restricted-imports': ['error', { paths: heavy, patterns: [...heavyPatterns, ...nestPatterns, ...typeboxPatterns, ...otelPatterns] }] },
  },
  {
    files: ['lib/otel/**'],
    rules: { 'no-restricted-imports': ['error', { paths: heavy.filter((h) => h.name !== '@opentelemetry/api'), patterns: [...heavyPatterns, ...nestPatterns, ...typeboxPatterns] }] },
  },
  {
    files: ['lib/builtins/shell/**'],
    rules: { 'no-restricted-imports': ['error', { paths: heavy.filter((h) => h.name !== 'web-tree-sitter'), patterns: [...heavyPatterns, ...nestPatterns, ...typeboxPatterns] }] },
  },
  {
    files: ['lib/search/**'],
    rules: { 'no-restricted-imports': ['error', { paths: heavy.filter((h) => h.name !== 'minisearch'), patterns: [...heavyPatterns, ...nestPatterns, ...typeboxPatterns] }] },
  },
  {
    files: ['lib/sandbox/docker/**'],
    rules: { 'no-restricted-imports': ['error', { paths: heavy.filter((h) => h.name !== 'dockerode'), patterns: [...heavyPatterns, ...nestPatterns, ...typeboxPatterns] }] },
  },
  {
    files: ['lib/skills/**'],
    rules: { 'no-restricted-imports': ['error', { paths: heavy.filter((h) => h.name !== 'chokidar'), patterns: [...heavyPatterns, ...nestPatterns, ...typeboxPatterns] }] },
  },
  {
    files: ['lib/mcp/**'],
    rules: { 'no-restricted-imports': ['error', { paths: heavy.filter((h) => !h.name.startsWith('@modelcontextprotocol/')), patterns: [...nestPatterns, ...typeboxPatterns] }] },
  },
  {
    files: ['lib/nestjs/**'],
    rules: { 'no-restricted-imports': ['error', { paths: heavy.filter((h) => !h.name.startsWith('@nestjs/')), patterns: [...heavyPatterns, ...typeboxPatterns] }] },
  },
  {
    // The entry serves TypeBox 1.x (the line the docs recommend): `typebox` itself, neither 0.34 nor a subpath.
    files: ['lib/typebox/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [...heavy.filter((h) => h.name !== 'typebox' && h.name !== '@sinclair/typebox'), { name: '@sinclair/typebox', message: 'agenttoolkit/typebox serves TypeBox 1.x: import `typebox`, not TypeBox 0.34.' }], patterns: [...heavyPatterns, ...nestPatterns, ...typeboxPatterns] }] },
  },
  {
    files: ['lib/ai-sdk/**'],
    rules: { 'no-restricted-imports': ['error', { paths: heavy.filter((h) => h.name !== 'ai'), patterns: [...heavyPatterns.filter((p) => !p.group.includes('ai/*')), ...nestPatterns, ...typeboxPatterns] }] },
  },
  {
    files: ['lib/openai-agents/**'],
    rules: { 'no-restricted-imports': ['error', { paths: heavy.filter((h) => !h.name.startsWith('@openai/agents')), patterns: [...heavyPatterns.filter((p) => !p.group.includes('@openai/agents/*')), ...nestPatterns, ...typeboxPatterns] }] },
  },
  // The library throws its own coded errors (AgentToolkitError subclasses, docs/errors.md), never a bare built-in
  // error class: callers match on `error.code`.
  {
    files: ['lib/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: `:matches(ThrowStatement, CallExpression[callee.property.name='reject'], CallExpression[callee.name='reject']) NewExpression[callee.name=${BUILTIN_ERRORS}]`,
        message: 'Throw a coded error of this library (an AgentToolkitError subclass, see docs/errors.md), not a built-in error class.',
      }, {
        selector: `ThrowStatement > CallExpression[callee.name=${BUILTIN_ERRORS}]`,
        message: 'Throw a coded error of this library (an AgentToolkitError subclass, see docs/errors.md), not a built-in error class.',
      }],
    },
  },
  {
    files: ['spec/**/*.ts'],
    ignores: ['spec/support/generous-bound.ts'],
    rules: { 'no-restricted-syntax': ['error', ...WALL_CLOCK_SELECTORS.map((selector) => ({ selector, message: WALL_CLOCK_MESSAGE }))] },
  },
  {
    files: ['spec/**', 'examples/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
