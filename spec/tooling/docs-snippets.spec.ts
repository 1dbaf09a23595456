/**
 * Every TypeScript snippet of README.md and docs/: each type-checks as a complete file (imports included) against the
 * library's sources, in one compiler program, and each that can run offline runs as its own ES module in a fresh
 * folder and exits 0. "Offline": no network beyond this machine, no API key (the runs get no environment but PATH and
 * HOME), and it ends by itself. The markers a page uses for the others are listed in spec/support/markdown-snippets.ts
 * and documented in docs/README.md; the per-page specs (spec/<area>/docs-snippets.spec.ts) check what the snippets print.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { markdownPages, markdownSnippets, snippetFiles, type SnippetFile } from '../support/markdown-snippets';
import { SnippetRunRoot, type SnippetRun } from '../support/snippet-runner';

const ROOT = join(__dirname, '../..');
/** Packages the docs import under the name a user installs, provided here by another installed package. */
const ALIASES: Record<string, string> = { '@openai/agents': '@openai/agents-core' };
/** A run far slower than any snippet takes on a busy machine (the slowest, the shell parser's first load, takes about 30 s at a load of 19 on 2 cores). */
const RUN_TIMEOUT_MS = 180_000;
/** Snippet runs side by side (each a Node process). */
const RUNS_AT_ONCE = 3;

const files = snippetFiles(markdownPages().flatMap((page) => markdownSnippets(page)));
const label = (file: SnippetFile) => `${file.snippet.page}:${file.snippet.line}`;

/** `agenttoolkit` and each subpath of package.json's `exports`, mapped to its lib/ source. */
function entryPaths(): Record<string, string[]> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the package's own manifest
  const { exports } = require('../../package.json') as { exports: Record<string, string | { types?: string }> };
  const paths: Record<string, string[]> = {};
  for (const [key, target] of Object.entries(exports)) {
    if (typeof target !== 'object' || target.types === undefined) continue;
    paths[key === '.' ? 'agenttoolkit' : `agenttoolkit/${key.slice(2)}`] = [target.types.replace(/^\.\/dist\//, 'lib/').replace(/\.d\.ts$/, '.ts')];
  }
  for (const [name, target] of Object.entries(ALIASES)) {
    // An ES module resolves no folder: the alias points at the package's declarations.
    const manifest = JSON.parse(readFileSync(join(ROOT, 'node_modules', target, 'package.json'), 'utf8')) as { types?: string };
    paths[name] = [`node_modules/${target}/${manifest.types ?? 'index.d.ts'}`];
  }
  return paths;
}

/**
 * A snippet with a type error on line 5 of its page, compiled with the others: the check must report it, at that line.
 */
const CONTROL = snippetFiles(markdownSnippets('docs/control.md', "# Control\n\n```ts\nimport { Tools } from 'agenttoolkit';\nconst count: number = new Tools();\n```\n"))[0]!;

/** The type errors of every snippet file, from one program: `page:line: message`, the line the page's own. */
function typeErrors(files: readonly SnippetFile[]): Map<SnippetFile, string[]> {
  const names = files.map((file) => join(ROOT, 'spec', '.docs-snippets', `${label(file).replace(/[/.:]/g, '_')}.mts`));
  const byName = new Map(names.map((name, i) => [name, files[i]!]));
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
  const options: ts.CompilerOptions = { ...config.options, noEmit: true, types: ['node'], baseUrl: ROOT, paths: entryPaths() };
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile } = host;
  host.fileExists = (name) => byName.has(name) || fileExists.call(host, name);
  host.readFile = (name) => byName.get(name)?.source ?? readFile.call(host, name);
  const program = ts.createProgram(names, options, host);
  const errors = new Map(files.map((file) => [file, [] as string[]]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const file = d.file === undefined ? undefined : byName.get(d.file.fileName);
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (file === undefined) {
      // An error outside the snippets (a broken option, a library file) fails every snippet: it hides theirs.
      for (const list of errors.values()) list.push(`${d.file?.fileName ?? 'options'}: ${message}`);
      continue;
    }
    const line = d.start === undefined ? 0 : d.file!.getLineAndCharacterOfPosition(d.start).line;
    const at = file.lines[line] ?? file.snippet.line;
    errors.get(file)!.push(`${file.snippet.page}:${at}: ${message}`);
  }
  return errors;
}

/** Whether bwrap can start a sandbox here. */
function bwrapWorks(): boolean {
  try {
    execFileSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-all', 'true'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** Why a snippet does not run here, or undefined when it runs. */
function skipReason(file: SnippetFile, bwrap: boolean): string | undefined {
  const { kind, reason } = file.snippet;
  if (kind === 'no-run') return reason;
  if (kind === 'needs-bwrap' && !bwrap) return 'needs bwrap, which cannot start a sandbox here';
  // No Docker snippet is run: each names an image or an engine (a registry, a remote host) the test machine lacks.
  if (kind === 'needs-docker') return 'needs a Docker engine with the image it names';
  return undefined;
}

/**
 * The folder each run starts in: a `project/` with a file in it and a `skills/` holding the skill the pages load
 * (`git-helper`), as the pages assume a project of the user's.
 */
function fixtures(): string {
  const dir = mkdtempSync(join(tmpdir(), 'docs-snippet-fixtures-'));
  mkdirSync(join(dir, 'project', 'src'), { recursive: true });
  writeFileSync(join(dir, 'project', 'README.md'), '# Project\n');
  mkdirSync(join(dir, 'skills', 'git-helper'), { recursive: true });
  writeFileSync(
    join(dir, 'skills', 'git-helper', 'SKILL.md'),
    ['---', 'name: git-helper', 'description: Commit and inspect history with git.', 'allowed-tools: Bash(git status:*), Bash(git log:*)', '---', '', 'Run `git status` first.', ''].join('\n'),
  );
  return dir;
}

/** Runs at most `n` tasks at once, the others when a slot frees, first come first served. */
function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

describe('the TypeScript snippets of README.md and docs/', () => {
  let errors: Map<SnippetFile, string[]>;
  beforeAll(() => {
    errors = typeErrors([...files, CONTROL]);
  }, 180_000);

  it('are found, and few are fragments', () => {
    expect(files.length).toBeGreaterThanOrEqual(50);
    // The markers that leave a snippet short of a whole file stay rare: each one is a page that cannot be copied as is.
    const kinds = markdownPages().flatMap((page) => markdownSnippets(page)).map((s) => s.kind);
    expect(kinds.filter((kind) => kind === 'fragment').length).toBeLessThanOrEqual(2);
    expect(kinds.filter((kind) => kind === 'continues').length).toBeLessThanOrEqual(2);
  });

  it('the check reports an error at the line of the page it is on, and refuses a malformed marker', () => {
    expect(CONTROL.lines).toEqual([4, 5]);
    expect(errors.get(CONTROL)).toEqual([expect.stringMatching(/^docs\/control\.md:5: Type 'Tools<.*>' is not assignable to type 'number'\.$/)]);
    expect(() => markdownSnippets('docs/x.md', '<!-- snippet no-run -->\n```ts\nx\n```\n')).toThrow('a "no-run" marker says why');
    expect(() => markdownSnippets('docs/x.md', '<!-- snippet norun: x -->\n```ts\nx\n```\n')).toThrow('malformed snippet marker');
  });

  describe.each(files.map((file) => [label(file), file] as const))('%s', (_name, file) => {
    it('compiles as a complete file', () => {
      expect(errors.get(file)).toEqual([]);
    });
  });

  it('a Nest snippet that fails at start-up says why: the skills watcher without chokidar installed', async () => {
    const watcher = files.find((file) => file.snippet.page === 'docs/frameworks/nestjs.md' && file.source.includes('skills.watch()'))!;
    const root = new SnippetRunRoot(ALIASES, ['chokidar']);
    try {
      const run = await root.run(watcher.source, { timeoutMs: RUN_TIMEOUT_MS });
      expect(run.code).toBe(1);
      expect(run.output).toContain('SkillWatchError');
      expect(run.output).toContain('npm install chokidar');
    } finally {
      root.dispose();
    }
  }, RUN_TIMEOUT_MS * 2);

  describe('runs', () => {
    const bwrap = bwrapWorks();
    const runnable = files.filter((file) => skipReason(file, bwrap) === undefined);
    let root: SnippetRunRoot;
    let seed: string;
    let runs: Map<SnippetFile, Promise<SnippetRun>>;
    beforeAll(() => {
      root = new SnippetRunRoot(ALIASES);
      seed = fixtures();
      // RUNS_AT_ONCE at a time, started in page order: when a test awaits its run, the earlier ones are done.
      const slot = limiter(RUNS_AT_ONCE);
      runs = new Map(runnable.map((file) => [file, slot(() => root.run(file.source, { fixtures: seed, timeoutMs: RUN_TIMEOUT_MS }))]));
    }, 120_000);
    afterAll(() => {
      root?.dispose();
      if (seed !== undefined) rmSync(seed, { recursive: true, force: true });
    });

    for (const file of files) {
      const reason = skipReason(file, bwrap);
      if (reason !== undefined) {
        it.skip(`${label(file)} (not run: ${reason})`, () => undefined);
        continue;
      }
      it(`${label(file)} exits 0`, async () => {
        const run = await runs.get(file)!;
        expect({ code: run.code, timedOut: run.timedOut, output: run.code === 0 ? '' : run.output }).toEqual({ code: 0, timedOut: false, output: '' });
      }, RUN_TIMEOUT_MS * 2);
    }
  });
});
