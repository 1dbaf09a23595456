/**
 * Every TypeScript snippet of docs/frameworks/nestjs.md, run as written (`agenttoolkit` imports mapped to lib/, the
 * way spec/mcp/server/docs-snippets.spec.ts runs the MCP pages), with what each prints checked against the comments
 * the page shows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { UnsafeLocalSandbox } from '../../lib/sandbox';
import { Skills } from '../../lib/skills';

const ROOT = join(__dirname, '../..');
const doc = readFileSync(join(ROOT, 'docs/frameworks/nestjs.md'), 'utf8');
const snippets = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
const ALIASES: Record<string, string> = {
  agenttoolkit: '../../lib',
  'agenttoolkit/nestjs': '../../lib/nestjs',
  'agenttoolkit/sandbox': '../../lib/sandbox',
  'agenttoolkit/skills': '../../lib/skills',
};
const COMPILER = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, experimentalDecorators: true, emitDecoratorMetadata: true, esModuleInterop: true };

/** Runs a snippet in-process (top-level await allowed); resolves to what it printed, one entry per console.log. */
async function run(source: string): Promise<unknown[][]> {
  const js = ts.transpileModule(source, { compilerOptions: COMPILER }).outputText;
  const printed: unknown[][] = [];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the snippet's own imports, resolved at run time
  const load = (name: string): unknown => require(ALIASES[name] ?? name);
  const quiet = { log: (...args: unknown[]) => printed.push(args) };
  await (new Function('require', 'exports', 'console', `return (async () => {\n${js}\n})();`) as (r: typeof load, e: object, c: object) => Promise<void>)(load, {}, quiet);
  return printed;
}

/** Type-checks the snippets as ES modules (top-level await) against lib/ and the installed @nestjs/* types. */
function typeErrors(sources: readonly string[]): string[] {
  const names = sources.map((_, i) => join(ROOT, 'spec', 'nestjs', `doc-snippet-${i}.ts`));
  const virtual = new Map(names.map((name, i) => [name, sources[i]!]));
  const options: ts.CompilerOptions = {
    ...COMPILER,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    lib: ['lib.es2023.d.ts', 'lib.es2024.string.d.ts', 'lib.esnext.disposable.d.ts'],
    baseUrl: ROOT,
    paths: { agenttoolkit: ['lib/index.ts'], 'agenttoolkit/*': ['lib/*/index.ts'] },
  };
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (file) => virtual.has(file) || fileExists.call(host, file);
  host.readFile = (file) => virtual.get(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, ...rest) => (virtual.has(file) ? ts.createSourceFile(file, virtual.get(file)!, language) : getSourceFile.call(host, file, language, ...rest));
  const program = ts.createProgram(names, options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('docs/frameworks/nestjs.md snippets', () => {
  it('has the five snippets this spec runs, and they type-check', () => {
    expect(snippets).toHaveLength(5);
    // A sixth program with a type error proves the check sees the types of agenttoolkit/nestjs.
    const wrong = 'import { nestToken } from "agenttoolkit/nestjs";\nexport const n: number = nestToken("x");\n';
    expect(typeErrors([...snippets, wrong])).toEqual([expect.stringMatching(/doc-snippet-5\.ts: .*is not assignable to type 'number'/)]);
  }, 60_000);

  it('the quick start lists and runs a tool whose service Nest injects', async () => {
    expect(await run(snippets[0]!)).toEqual([[['charge']], ['charged 30']]);
  });

  it("two @Inject in one file: Nest's for the constructor, agenttoolkit's for the tool method", async () => {
    expect(await run(snippets[1]!)).toEqual([['1 line(s) in EUR', ['acme: 12 EUR']]]);
  });

  it("a request-scoped provider resolves in the controller's request", async () => {
    expect(await run(snippets[2]!)).toEqual([['ada']]);
  });

  it('forFeature names and groups the tools, and approve gates the call', async () => {
    const printed = await run(snippets[3]!);
    expect(printed[0]).toEqual([['orders/orders_cancel']]);
    expect(String(printed[1]![0])).toMatch(/^The user declined to run tool 'orders_cancel'\./);
    expect(printed[2]).toEqual(['cancelled o-2']);
  });

  it('forRootAsync builds the options, and app.close() closes the sandbox and the skills watcher', async () => {
    const sandboxClose = jest.spyOn(UnsafeLocalSandbox.prototype, 'close');
    const skillsClose = jest.spyOn(Skills.prototype, 'close');
    try {
      expect(await run(snippets[4]!)).toEqual([[0]]);
      expect(sandboxClose).toHaveBeenCalledTimes(1);
      expect(skillsClose).toHaveBeenCalledTimes(1);
      const skills = skillsClose.mock.contexts[0] as Skills;
      expect(skills.watching).toBe(false);
    } finally {
      sandboxClose.mockRestore();
      skillsClose.mockRestore();
    }
  });
});
