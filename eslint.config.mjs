// Lint, and the layering contract of docs/architecture.md, enforced with `no-restricted-imports`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const area = (name) => [`**/${name}`, `**/${name}/**`];
const forbid = (message, ...names) => ({ group: names.flatMap(area), message });

// Heavy or optional third-party modules: each may be imported only by its own adapter.
const heavy = [
  { name: 'dockerode', message: 'dockerode is imported only by lib/sandbox/docker/ (optional peer dependency).' },
  { name: 'chokidar', message: 'chokidar is imported only by lib/skills/ watcher code (optional peer dependency).' },
  { name: '@modelcontextprotocol/sdk', message: 'The MCP SDK is a dev dependency: used by tests and type checks only.' },
];

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
  // Core (definition model, context, pipeline, results, permissions): knows nothing of providers, ports, adapters,
  // built-ins or skills.
  {
    files: ['lib/*.ts', 'lib/metadata/**', 'lib/decorators/**', 'lib/schema/**', 'lib/context/**', 'lib/pipeline/**', 'lib/permissions/**', 'lib/tool/**', 'lib/streaming/**'],
    ignores: ['lib/index.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: heavy,
        patterns: [forbid('The core must not import providers, ports/adapters, built-ins or skills (docs/architecture.md).', 'providers', 'workspace', 'sandbox', 'builtins', 'skills')],
      }],
    },
  },
  // Provider formats: core only.
  {
    files: ['lib/providers/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: heavy,
        patterns: [forbid('Provider formats depend on the core only (docs/architecture.md).', 'workspace', 'sandbox', 'builtins', 'skills')],
      }],
    },
  },
  // Ports and their adapters: independent of each other and of providers and skills.
  {
    files: ['lib/workspace/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: heavy,
        patterns: [forbid('The workspace port and its adapters depend on lib/errors only (docs/architecture.md).', 'providers', 'sandbox', 'builtins', 'skills')],
      }],
    },
  },
  {
    files: ['lib/sandbox/**'],
    ignores: ['lib/sandbox/docker/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: heavy,
        patterns: [forbid('The sandbox port and its adapters depend on lib/errors only (docs/architecture.md).', 'providers', 'workspace', 'builtins', 'skills')],
      }],
    },
  },
  {
    files: ['lib/sandbox/docker/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: heavy.filter((h) => h.name !== 'dockerode'),
        patterns: [forbid('The sandbox port and its adapters depend on lib/errors only (docs/architecture.md).', 'providers', 'workspace', 'builtins', 'skills')],
      }],
    },
  },
  // Skills: the core (context, middleware, tools) and nothing else.
  {
    files: ['lib/skills/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: heavy.filter((h) => h.name !== 'chokidar'),
        patterns: [forbid('Skills depend on the core only (docs/architecture.md).', 'providers', 'workspace', 'sandbox', 'builtins')],
      }],
    },
  },
  {
    files: ['spec/**', 'examples/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
