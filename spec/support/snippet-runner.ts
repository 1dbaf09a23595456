/**
 * Runs docs snippets as a user would: each as an ES module of its own (`node snippet.mjs`, top-level await allowed) in
 * a fresh folder, where `agenttoolkit` is a package built from lib/ (transpiled, its package.json's `exports` as they
 * ship) and every other import resolves to the project's node_modules.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { transformSync } from 'esbuild';
import ts from 'typescript';

const ROOT = join(__dirname, '../..');

/** The compiler options snippets and the library are transpiled with (decorators as the README's tsconfig sets them). */
const TRANSPILE: ts.CompilerOptions = { target: ts.ScriptTarget.ES2022, experimentalDecorators: true, emitDecoratorMetadata: true, esModuleInterop: true };

/** What one run did. `code` is null when the run was killed at the timeout. */
export interface SnippetRun {
  readonly code: number | null;
  readonly timedOut: boolean;
  readonly output: string;
}

/** A folder holding `node_modules/agenttoolkit` and the project's packages, where snippets run; `dispose` removes it. */
export class SnippetRunRoot {
  readonly dir = mkdtempSync(join(tmpdir(), 'docs-snippets-'));
  private runs = 0;

  /**
   * `aliases`: package names a snippet imports mapped to the installed package that provides them. `omit`: installed
   * packages left out, as a project that did not install them would lack them.
   */
  constructor(aliases: Record<string, string> = {}, omit: readonly string[] = []) {
    const modules = join(this.dir, 'node_modules');
    mkdirSync(modules);
    for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
      if (entry.startsWith('.') || omit.includes(entry)) continue;
      if (entry.startsWith('@') && Object.keys(aliases).some((name) => name.startsWith(`${entry}/`))) {
        mkdirSync(join(modules, entry));
        for (const inner of readdirSync(join(ROOT, 'node_modules', entry))) symlinkSync(join(ROOT, 'node_modules', entry, inner), join(modules, entry, inner));
      } else {
        symlinkSync(join(ROOT, 'node_modules', entry), join(modules, entry));
      }
    }
    for (const [name, target] of Object.entries(aliases)) symlinkSync(join(ROOT, 'node_modules', target), join(modules, name));
    this.buildLibrary(join(modules, 'agenttoolkit'));
  }

  /** lib/ transpiled to CommonJS under dist/ (esbuild: lib/ has no decorator metadata to emit), beside the project's package.json (its `exports` point there). */
  private buildLibrary(dir: string): void {
    const walk = (from: string): void => {
      for (const entry of readdirSync(join(ROOT, from), { withFileTypes: true })) {
        const path = join(from, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts')) {
          const out = join(dir, 'dist', relative('lib', path).replace(/\.ts$/, '.js'));
          const { code } = transformSync(readFileSync(join(ROOT, path), 'utf8'), { loader: 'ts', format: 'cjs', platform: 'node', target: 'es2022', sourcefile: path, tsconfigRaw: { compilerOptions: { experimentalDecorators: true } } });
          mkdirSync(dirname(out), { recursive: true });
          writeFileSync(out, code);
        }
      }
    };
    walk('lib');
    cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  }

  /**
   * Runs `source` (TypeScript) as `snippet.mjs` in a new folder under this root holding a copy of `fixtures` (if
   * given), killed after `timeoutMs`. Resolves to its exit code and its output (stdout and stderr interleaved).
   */
  run(source: string, options: { fixtures?: string; timeoutMs: number; env?: Record<string, string> }): Promise<SnippetRun> {
    const cwd = join(this.dir, `run-${++this.runs}`);
    if (options.fixtures === undefined) mkdirSync(cwd);
    else cpSync(options.fixtures, cwd, { recursive: true });
    const { outputText } = ts.transpileModule(source, { fileName: 'snippet.mts', compilerOptions: { ...TRANSPILE, module: ts.ModuleKind.ESNext } });
    writeFileSync(join(cwd, 'snippet.mjs'), outputText);
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['snippet.mjs'], { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, options.timeoutMs);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, timedOut, output });
      });
    });
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
