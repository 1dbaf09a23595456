/**
 * The packed package in fresh TypeScript projects, on each TypeScript major a user may install today: 5.9, 6.0 and
 * 7.0 (`npm i -D typescript` gives 7). Each compiler comes from the npm registry into a cache outside the project
 * ($AGENTTOOLKIT_CACHE/typescript/<version>, default ~/.cache/agenttoolkit) and runs as its `tsc` command line only:
 * TypeScript 7 has no JavaScript compiler API.
 *
 * A CommonJS and an ES module project each import every entry point of package.json's `exports` and declare
 * decorated tools, compiled with the tsconfig the README documents (read from the README, so the two cannot drift),
 * then run: the emitted JavaScript carries `design:paramtypes`, which `@Param` reads. The README's statements about
 * `"module": "commonjs"` and about leaving out `"types": ["node"]` are checked on each major too.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVERY_PEER, installPacked } from '../support/packed-package';

/** The last release of each TypeScript major on the npm registry (`npm view typescript versions`). */
const TYPESCRIPT = ['5.9.3', '6.0.3', '7.0.2'] as const;
type Version = (typeof TYPESCRIPT)[number];

const root = join(__dirname, '..', '..');
const cache = join(process.env.AGENTTOOLKIT_CACHE ?? join(process.env.HOME ?? tmpdir(), '.cache', 'agenttoolkit'), 'typescript');
const versionOf = (name: string) => (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
const run = (command: string, args: string[], cwd: string) => execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** The `tsc` of `version`, installed into the cache on first use. */
function compiler(version: Version): string {
  const dir = join(cache, version);
  const manifest = join(dir, 'node_modules', 'typescript', 'package.json');
  if (!existsSync(manifest) || (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version !== version) {
    mkdirSync(dir, { recursive: true });
    run('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `typescript@${version}`], dir);
  }
  return join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
}

/** The compiler options of the README's tsconfig block (section Installation). */
function readmeCompilerOptions(): Record<string, unknown> {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const block = /```json\n(\{[^`]*"experimentalDecorators"[^`]*\})\n```/.exec(readme);
  if (block === null) throw new Error('README.md has no ```json block with the tsconfig (experimentalDecorators)');
  return (JSON.parse(block[1]!) as { compilerOptions: Record<string, unknown> }).compilerOptions;
}

interface Compiled {
  status: number;
  /** `error TSnnnn` lines, with the consumer folder cut off the paths. */
  errors: string[];
}

/** Runs `tsc -p .` in `dir` (asynchronously, so the compilers of several cases share the cores). */
function compile(version: Version, dir: string): Promise<Compiled> {
  return new Promise((resolve) => {
    execFile(process.execPath, [compiler(version), '-p', '.', '--pretty', 'false'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20 }, (error, stdout) => {
      const errors = stdout.split('\n').filter((line) => /error TS\d+/.test(line)).map((line) => line.replace(/^.*?node_modules\//, 'node_modules/'));
      resolve({ status: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, errors });
    });
  });
}

/** Runs `jobs` with at most `limit` at once; the promises settle with the jobs. */
function pool<T>(jobs: Array<() => Promise<T>>, limit: number): Array<Promise<T>> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return jobs.map(async (job) => {
    if (running >= limit) await new Promise<void>((go) => waiting.push(go));
    running += 1;
    try {
      return await job();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  });
}

/**
 * ai's own @ai-sdk/provider declarations import 'json-schema' without depending on @types/json-schema (TS7016 under
 * skipLibCheck false): a defect of that peer, not of this package, and the only diagnostic let through.
 */
const ours = (line: string) => !line.startsWith('node_modules/@ai-sdk/provider/');

/**
 * A test waits for its compile, which waits its turn in the pool: the budget covers the whole pool on a busy machine
 * (the 12 compiles take about 10 CPU minutes), not one compile.
 */
const WAIT_MS = 1_800_000;

describe('the packed package in TypeScript 5.9, 6.0 and 7.0 projects', () => {
  let dir: string;
  let entries: string[];
  const results = new Map<string, Promise<Compiled>>();

  /** A consumer folder `name` with `source` as its one file, `type` in package.json and `options` as tsconfig. */
  const project = (name: string, kind: 'cjs' | 'esm', source: string, options: Record<string, unknown>): string => {
    const path = join(dir, name);
    mkdirSync(path);
    writeFileSync(join(path, 'package.json'), JSON.stringify({ type: kind === 'esm' ? 'module' : 'commonjs' }));
    writeFileSync(join(path, kind === 'esm' ? 'main.mts' : 'main.ts'), source);
    writeFileSync(join(path, 'tsconfig.json'), JSON.stringify({ compilerOptions: options }));
    return path;
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'agenttoolkit-typescript-'));
    // The optional peers whose types the declarations name, and Node's types (one install with published-package's).
    installPacked(dir, EVERY_PEER.map((peer) => `${peer}@${versionOf(peer)}`));
    for (const version of TYPESCRIPT) compiler(version);

    const exports = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports;
    entries = Object.keys(exports).filter((key) => key !== './package.json').map((key) => `agenttoolkit${key.slice(1)}`);
    const every = `${entries.map((entry, i) => `import * as entry${i} from '${entry}';`).join('\n')}
import { Action, Inject, Param, ToolContext, Tools } from 'agenttoolkit';
class Greeter { greet(name: string): string { return 'hello ' + name; } }
export class Demo {
  @Action('Add two numbers.')
  add(@Param('a') a: number, @Param('b') b: number): number { return a + b; }
  @Action('Greet.')
  greet(@Param('name') name: string, @Inject(Greeter) greeter: Greeter): string { return greeter.greet(name); }
}
const entries = [${entries.map((_, i) => `entry${i}`).join(', ')}];
const tools = new Tools({ context: new ToolContext(new Greeter()) }).register(new Demo());
void Promise.all([tools.execute('add', { a: 2, b: 3 }), tools.execute('greet', { name: 'ada' })]).then(([sum, greeting]) => {
  console.log(JSON.stringify({ entries: entries.filter((entry) => Object.keys(entry).length > 0).length, sum: sum.result, greeting: greeting.result, add: tools.get('add')!.parameters.properties }));
});
`;
    // Fewer entries for the README's statements about other settings: the root, and subpaths whose declarations
    // name Node's types.
    const few = `import { Tools } from 'agenttoolkit';
import { SandboxPolicy } from 'agenttoolkit/sandbox';
import { Skills } from 'agenttoolkit/skills';
import { analyzeCommand } from 'agenttoolkit/builtins';
export const used = [Tools, SandboxPolicy, Skills, analyzeCommand];
`;
    const readme = readmeCompilerOptions();
    const { types: _types, ...withoutTypes } = readme;
    const jobs: Array<[string, () => Promise<Compiled>]> = [];
    for (const version of TYPESCRIPT) {
      for (const kind of ['cjs', 'esm'] as const) {
        const path = project(`readme-${kind}-${version}`, kind, every, readme);
        jobs.push([`readme-${kind}-${version}`, () => compile(version, path)]);
      }
      const commonjs = project(`commonjs-${version}`, 'cjs', few, { ...readme, module: 'commonjs' });
      jobs.push([`commonjs-${version}`, () => compile(version, commonjs)]);
      const untyped = project(`untyped-${version}`, 'cjs', few, withoutTypes);
      jobs.push([`untyped-${version}`, () => compile(version, untyped)]);
    }
    const started = pool(jobs.map(([, job]) => job), Math.max(1, Math.min(2, availableParallelism())));
    jobs.forEach(([name], i) => results.set(name, started[i]!));
  }, 600_000);

  afterAll(async () => {
    await Promise.allSettled(results.values());
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reads the README tsconfig: decorators with their metadata, module node20, and Node types', () => {
    expect(readmeCompilerOptions()).toEqual({ experimentalDecorators: true, emitDecoratorMetadata: true, module: 'node20', types: ['node'] });
  });

  describe.each(TYPESCRIPT)('TypeScript %s', (version) => {
    it.each(['cjs', 'esm'] as const)('compiles a %s project importing every entry point, emits decorator metadata, and runs it', async (kind) => {
      const compiled = await results.get(`readme-${kind}-${version}`)!;
      expect({ version, kind, errors: compiled.errors.filter(ours) }).toEqual({ version, kind, errors: [] });
      const path = join(dir, `readme-${kind}-${version}`);
      const output = kind === 'esm' ? 'main.mjs' : 'main.js';
      const emitted = readFileSync(join(path, output), 'utf8');
      expect(emitted).toContain('design:paramtypes');
      expect(emitted).toMatch(kind === 'esm' ? /^import \* as entry\d+ from ['"]agenttoolkit\/mcp['"]/m : /require\(['"]agenttoolkit\/mcp['"]\)/);
      expect(JSON.parse(run(process.execPath, [output], path))).toEqual({
        entries: entries.length,
        sum: 5,
        greeting: 'hello ada',
        add: { a: { type: 'number' }, b: { type: 'number' } },
      });
    }, WAIT_MS);

    const classic = version.startsWith('5.');
    it(classic
      ? 'does not resolve the subpaths under "module": "commonjs" (moduleResolution node10): TS2307 for each'
      : 'resolves the subpaths under "module": "commonjs" (moduleResolution defaults to bundler)', async () => {
      const { errors, status } = await results.get(`commonjs-${version}`)!;
      if (classic) {
        expect(errors.map((line) => /error (TS\d+): Cannot find module '([^']+)'/.exec(line)?.slice(1, 3).join(' '))).toEqual([
          'TS2307 agenttoolkit/sandbox',
          'TS2307 agenttoolkit/skills',
          'TS2307 agenttoolkit/builtins',
        ]);
      } else {
        expect({ errors, status }).toEqual({ errors: [], status: 0 });
      }
    }, WAIT_MS);

    it(classic
      ? 'compiles without "types": ["node"] (every installed @types package is visible by default)'
      : 'needs "types": ["node"]: without it the declarations that name Node types fail (types defaults to [])', async () => {
      const { errors } = await results.get(`untyped-${version}`)!;
      if (classic) {
        expect(errors).toEqual([]);
      } else {
        const codes = errors.map((line) => /^node_modules\/agenttoolkit\/dist\/[^(]+\(\d+,\d+\): error (TS\d+)/.exec(line)?.[1] ?? line);
        expect(new Set(codes)).toEqual(new Set(['TS2304', 'TS2550', 'TS2591']));
        expect(errors.join('\n')).toMatch(/Cannot find name 'AsyncDisposable'/);
      }
    }, WAIT_MS);
  });
});
