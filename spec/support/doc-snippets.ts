/**
 * Doc snippets as specs use them (the mechanism of spec/mcp/server/docs-snippets.spec.ts): the ```ts blocks of a page,
 * type-checked against the library's sources, then run in-process with `agenttoolkit` imports mapped to lib/.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '../..');

/** The ```ts blocks of a page under docs/. */
export function docSnippets(page: string): string[] {
  const doc = readFileSync(join(ROOT, 'docs', page), 'utf8');
  return [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

/**
 * The type errors of the snippets, compiled as the project compiles (tsconfig.json) with `agenttoolkit` and
 * `agenttoolkit/<area>` resolved to lib/ and `aliases` to other modules (`{ '@openai/agents': '@openai/agents-core' }`).
 */
export function snippetTypeErrors(snippets: readonly string[], aliases: Record<string, string> = {}): string[] {
  const dir = mkdtempSync(join(ROOT, 'spec', '.snippets-'));
  try {
    const files = snippets.map((source, index) => {
      const file = join(dir, `snippet-${index}.ts`);
      writeFileSync(file, source);
      return file;
    });
    const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
    const paths: Record<string, string[]> = { agenttoolkit: ['lib/index.ts'], 'agenttoolkit/*': ['lib/*/index.ts', 'lib/*.ts'] };
    for (const [name, target] of Object.entries(aliases)) paths[name] = [`node_modules/${target}`];
    const program = ts.createProgram(files, { ...config.options, noEmit: true, baseUrl: ROOT, paths });
    return ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file === undefined || d.file.fileName.startsWith(dir))
      .map((d) => `${d.file === undefined ? '' : d.file.fileName.slice(dir.length + 1)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs a snippet in-process (top-level await allowed) and resolves to its exports. `load` is the calling spec's
 * `require` (so jest's transforms apply), `aliases` maps import names to what it loads; with `log`, the snippet's
 * `console.log` lines go there instead of the console.
 */
export async function runSnippet(source: string, load: (name: string) => unknown, aliases: Record<string, string> = {}, log?: string[]): Promise<Record<string, unknown>> {
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, experimentalDecorators: true, emitDecoratorMetadata: true, esModuleInterop: true } }).outputText;
  const exports: Record<string, unknown> = {};
  const resolve = (name: string): unknown => load(aliases[name] ?? name);
  const output = log === undefined ? console : { log: (...args: unknown[]) => log.push(args.join(' ')) };
  await (new Function('require', 'exports', 'console', `return (async () => {\n${js}\n})();`) as (r: typeof resolve, e: object, c: object) => Promise<void>)(resolve, exports, output);
  return exports;
}
