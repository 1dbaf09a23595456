const { readdirSync } = require('node:fs');
const { join } = require('node:path');
const { isCI } = require('./scripts/ci-flag');

/** Least branch coverage, in percent, of the library as a whole and (in CI) of every folder of lib/ on its own. */
const BRANCHES = 90;

/**
 * Folders of lib/ (and spec/) whose peer dependency needs Node 22 or later (`ai` 7). On Node 22 and later (CI runs
 * Node 24) their specs run here with the rest and their folders are gated like any other. On Node 20 this run leaves
 * them out, and the last step of `npm test` (scripts/test-node22.sh) runs them on a Node 22 binary installed outside
 * the project, through jest.node22.config.js, with their own coverage gate.
 */
const NODE22 = ['ai-sdk']; // the same list as in jest.node22.config.js
const NODE22_HERE = Number(process.versions.node.split('.')[0]) >= 22;
/** The folders this run leaves out: the Node 22 ones on an older Node, none from Node 22 on. */
const LEFT_OUT = NODE22_HERE ? [] : NODE22;
/**
 * Packages that ship ES modules only, compiled to CommonJS for jest: typebox 1.x and arktype (every spec), and on
 * Node 22 and later also `ai`, its own dependencies and the `zod` files they import by path (the AI SDK specs).
 */
const ESM_ONLY = ['typebox', 'arktype', 'arkregex', '@ark/[^/]+', ...(NODE22_HERE ? ['ai', '@ai-sdk/[^/]+', '@workflow/serde', 'zod'] : [])].join('|');

/**
 * In CI the read-only oracle's spec runs in a step of its own (scripts/read-only-oracle.sh, 10,000 commands), which
 * runs the 300-command sample of this run too: the main run leaves it out there. Everywhere else `npm test` runs it.
 */
const ORACLE_ELSEWHERE = isCI() && process.env.READ_ONLY_ORACLE !== 'full' ? ['<rootDir>/spec/builtins/shell/read-only-oracle.spec.ts'] : [];

/** Every folder under lib/ that holds TypeScript files, as `lib/a/b/` (the folders this run leaves out, left out). */
function libFolders(dir = 'lib') {
  if (LEFT_OUT.some((folder) => dir === `lib/${folder}`)) return [];
  const entries = readdirSync(join(__dirname, dir), { withFileTypes: true });
  const here = entries.some((e) => e.isFile() && e.name.endsWith('.ts')) ? [`${dir}/`] : [];
  return here.concat(...entries.filter((e) => e.isDirectory()).map((e) => libFolders(`${dir}/${e.name}`)));
}

/**
 * The coverage gates. Locally: the library as a whole, so `npm test` passes on a machine without Docker or bwrap
 * (their suites are skipped there). In CI, where the engines run, also every folder on its own (a folder's figure
 * includes its subfolders, which have their own gate too), so one weak area cannot hide behind the others. The
 * files directly in lib/ are gated one by one (a path gate on lib/ itself would cover the whole library).
 */
function coverageThreshold() {
  const gates = { global: { branches: BRANCHES } };
  if (!isCI()) return gates;
  for (const folder of libFolders()) {
    if (folder === 'lib/') {
      for (const e of readdirSync(join(__dirname, 'lib'), { withFileTypes: true })) {
        if (e.isFile() && e.name.endsWith('.ts')) gates[`./lib/${e.name}`] = { branches: BRANCHES };
      }
    } else {
      gates[`./${folder}`] = { branches: BRANCHES };
    }
  }
  return gates;
}

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/spec'],
  testMatch: ['**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', ...LEFT_OUT.map((folder) => `<rootDir>/spec/${folder}/`), ...ORACLE_ELSEWHERE],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }],
    // typebox 1.x and arktype ship ES modules only, and jest runs CommonJS (its require(esm) needs Node 24.9+): their
    // files are compiled to CommonJS for the tests. Node 20.19+ itself loads them from a CommonJS program (require(esm)).
    [`^.+/node_modules/(${ESM_ONLY})/.+\\.m?js$`]: ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022', isolatedModules: true }, diagnostics: false }],
    // @nestjs/* 12 ship ES modules only too; one of their files reads `import.meta.url`, which this transform maps.
    '^.+/node_modules/@nestjs/[^/]+/.+\\.m?js$': '<rootDir>/spec/nestjs/support/esm-transform.cjs',
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY}|@nestjs/[^/]+)/)`],
  collectCoverageFrom: ['lib/**/*.ts', ...LEFT_OUT.map((folder) => `!lib/${folder}/**`)],
  coverageReporters: ['text-summary', 'lcov'],
  coverageThreshold: coverageThreshold(),
  testTimeout: 30000,
  // Two workers however many cores (jest's default is one fewer than the cores: one on a 2-core CI machine). Most of
  // the slow suites wait on an engine (dockerd, bwrap, npm), so two files at a time cut the run by about a third there.
  maxWorkers: 2,
  // Failures in full (jest's `summary` reporter), then one summary of what ran and what was skipped and why
  // (scripts/jest-run-summary.js), instead of a line per file: a green run prints little more than the summary.
  // `npx jest <files> --reporters default` shows each file and its console output.
  reporters: [['summary', { summaryThreshold: 0 }], '<rootDir>/scripts/jest-run-summary.js'],
};
