import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

/**
 * The samples of fixtures/wall-clock-samples.ts.txt: kept out of this file, whose own lines a review hook would read
 * as clock readings inside expect(...). A sample is the lines after its `=== fires: <name>`, `=== passes: <name>` or
 * `=== timed` line.
 */
function readSamples(): { fires: Array<[string, string]>; passes: Array<[string, string]>; timed: string } {
  const text = readFileSync(join(__dirname, 'fixtures', 'wall-clock-samples.ts.txt'), 'utf8');
  const fires: Array<[string, string]> = [];
  const passes: Array<[string, string]> = [];
  let timed: string | undefined;
  for (const section of text.split(/^=== /m).slice(1)) {
    const [head, ...lines] = section.trimEnd().split('\n');
    const code = lines.join('\n');
    const [kind, name = ''] = head!.split(/: (.*)/s);
    if (kind === 'fires') fires.push([name, code]);
    else if (kind === 'passes') passes.push([name, code]);
    else if (kind === 'timed') timed = code;
    else throw new Error(`wall-clock-samples.ts.txt: unknown section '=== ${head}' (fires, passes or timed)`);
  }
  if (timed === undefined || fires.length === 0 || passes.length === 0) throw new Error('wall-clock-samples.ts.txt: needs fires, passes and timed samples');
  return { fires, passes, timed };
}

/** The lint rule of eslint.config.mjs that keeps wall-clock time out of the specs' assertions (nothing is written). */
describe('the lint rule against wall-clock assertions in spec/', () => {
  const { fires, passes, timed } = readSamples();
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
