import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * Lints each sample as if it were the file named, through ESLint's API with the project's eslint.config.mjs, in one
 * child process (jest cannot load an ES-module config file): the `no-restricted-syntax` messages of each sample.
 */
function lint(samples: ReadonlyArray<{ code: string; filePath: string }>): string[][] {
  const script = `
    import { ESLint } from 'eslint';
    const samples = JSON.parse(process.argv[1]);
    const eslint = new ESLint({ cwd: process.cwd() });
    const out = [];
    for (const { code, filePath } of samples) {
      const [result] = await eslint.lintText(code + '\\n', { filePath });
      out.push(result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message));
    }
    process.stdout.write(JSON.stringify(out));`;
  const input = samples.map(({ code, filePath }) => ({ code, filePath: join(ROOT, filePath) }));
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(input)], { cwd: ROOT, encoding: 'utf8' })) as string[][];
}

const SAMPLE = 'spec/sample/sample.spec.ts';

/** The lint rule of eslint.config.mjs that keeps wall-clock time out of the specs' assertions (nothing is written). */
describe('the lint rule against wall-clock assertions in spec/', () => {
  const fires: Array<[string, string]> = [
    ['Date.now() - start in expect', 'const start = Date.now();\nexpect(Date.now() - start).toBeLessThan(2000);'],
    ['performance.now() in expect', 'const t0 = performance.now();\nexpect(performance.now() - t0).toBeLessThan(500);'],
    ['process.hrtime in expect', 'const s = process.hrtime.bigint();\nexpect(Number(process.hrtime.bigint() - s) / 1e6).toBeLessThan(2000);'],
    ['a clock reading in the matcher', 'const deadline = 5;\nexpect(deadline).toBeGreaterThan(Date.now());'],
    ['a difference with new Date()', 'const when = new Date(0);\nexpect(new Date().getTime() - when.getTime()).toBeLessThan(60_000);'],
    ['an elapsed variable held against a ceiling', 'const elapsedMs = 3;\nexpect(elapsedMs).toBeLessThan(1000);'],
    ['a measured duration held against a ceiling', 'const result = { durationMs: 3 };\nexpect(result.durationMs).toBeLessThanOrEqual(6000);'],
    ['a started variable subtracted in expect', 'const started = 1;\nconst now = 2;\nexpect(now - started).toBeLessThan(10);'],
  ];
  const passes: Array<[string, string]> = [
    ['a clock reading outside any assertion (a unique name, a polling deadline)', 'const name = `x-${Date.now()}`;\nconst end = Date.now() + 1000;\nexpect(name).toMatch(/x/);\nexpect(end).toBeDefined();'],
    ['a duration checked for being set', 'const result = { durationMs: 3 };\nexpect(result.durationMs).toBeGreaterThan(0);'],
    ['a count of work done', 'const calls = [1, 2];\nexpect(calls.length).toBeLessThan(1000);'],
  ];
  const timed = 'const started = performance.now();\nexpect(performance.now() - started).toBeLessThan(10);';
  let found: string[][];
  beforeAll(() => {
    found = lint([
      ...[...fires, ...passes].map(([, code]) => ({ code, filePath: SAMPLE })),
      { code: timed, filePath: 'spec/support/generous-bound.ts' },
      { code: timed, filePath: 'spec/support/other-helper.ts' },
    ]);
  }, 120_000);

  it.each(fires.map(([name], i) => [name, i] as const))('fires on %s', (_name, i) => {
    expect([...new Set(found[i])]).toEqual([expect.stringMatching(/^No wall-clock time in an assertion: .*expectWithinGenerousBound/)]);
  });

  it.each(passes.map(([name], i) => [name, fires.length + i] as const))('lets %s pass', (_name, i) => {
    expect(found[i]).toEqual([]);
  });

  it('lets the one helper measure time, and no other file', () => {
    expect(found.at(-2)).toEqual([]);
    expect(found.at(-1)!.length).toBeGreaterThan(0);
  });
});
