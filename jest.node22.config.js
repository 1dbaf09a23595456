// The specs of adapters whose peer dependency needs Node 22 or later (`ai` 7 declares `engines.node >= 22`), for a
// developer on Node 20: `npm test` runs them last on a Node 22 binary installed outside the project
// (scripts/test-node22.sh), with their own coverage gate, since the main run (jest.config.js) on Node 20 leaves these
// specs and their lib/ folder out. On Node 22 and later the main run takes them and this config is not used.
const base = require('./jest.config.js');

/**
 * Packages that ship ES modules only (`ai` and its own dependencies, the `zod` files they import by path, and the
 * ones jest.config.js compiles too: typebox, arktype): compiled to CommonJS for jest.
 */
const ESM_ONLY = '(ai|@ai-sdk/[^/]+|@workflow/serde|zod|typebox|arktype|arkregex|@ark/[^/]+)';

/** The spec folders and lib/ folders that run here. */
const NODE22 = ['ai-sdk']; // the same list as in jest.config.js

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: NODE22.map((folder) => `<rootDir>/spec/${folder}`),
  testMatch: ['**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': base.transform['^.+\\.ts$'],
    [`^.+/node_modules/${ESM_ONLY}/.+\\.m?js$`]: ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022', isolatedModules: true }, diagnostics: false }],
  },
  transformIgnorePatterns: [`/node_modules/(?!${ESM_ONLY}/)`],
  collectCoverageFrom: NODE22.map((folder) => `lib/${folder}/**/*.ts`),
  coverageReporters: ['text-summary', 'lcov'],
  coverageDirectory: 'coverage/node22',
  coverageThreshold: Object.fromEntries(NODE22.map((folder) => [`./lib/${folder}/`, { branches: 90 }])),
  testTimeout: 30000,
};
