/**
 * Every TypeScript snippet of docs/tool-search.md, type-checked against the library (`agenttoolkit` imports mapped to
 * lib/) and run as written, with its console output checked.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '../..');
const doc = readFileSync(join(ROOT, 'docs/tool-search.md'), 'utf8');
const snippets = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
const ALIASES: Record<string, string> = { agenttoolkit: join(ROOT, 'lib'), 'agenttoolkit/search': join(ROOT, 'lib/search'), 'agenttoolkit/permissions': join(ROOT, 'lib/permissions') };
const COMPILER: ts.CompilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  experimentalDecorators: true,
  esModuleInterop: true,
  types: ['node'],
  baseUrl: ROOT,
  paths: { agenttoolkit: ['lib/index.ts'], 'agenttoolkit/search': ['lib/search/index.ts'], 'agenttoolkit/permissions': ['lib/permissions/index.ts'] },
};

/** Type errors of `source` compiled as a module inside an async function (top-level await allowed). */
function typeErrors(source: string): string[] {
  const file = join(ROOT, 'spec/search/__snippet__.ts');
  const wrapped = `${source}\nexport {};`;
  const host = ts.createCompilerHost({ ...COMPILER, module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 });
  const read = host.readFile.bind(host);
  host.readFile = (name) => (name === file ? wrapped : read(name));
  const exists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || exists(name);
  const program = ts.createProgram([file], { ...COMPILER, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler }, host);
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

/** Runs a snippet in-process; resolves to its console lines. */
async function run(source: string): Promise<unknown[][]> {
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText;
  const lines: unknown[][] = [];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the snippet's own imports, resolved at run time
  const load = (name: string): unknown => require(ALIASES[name] ?? name);
  const quiet = { log: (...args: unknown[]) => lines.push(args) };
  await (new Function('require', 'exports', 'console', `return (async () => {\n${js}\n})();`) as (r: typeof load, e: object, c: object) => Promise<void>)(load, {}, quiet);
  return lines;
}

describe('docs/tool-search.md snippets', () => {
  it('has the four snippets this spec runs', () => {
    expect(snippets).toHaveLength(4);
  });

  it('the type check reports a wrong call and resolves the package names', () => {
    expect(typeErrors("import { ToolSearch } from 'agenttoolkit/search';\nnew ToolSearch(1);")).toEqual([expect.stringContaining("'number' is not assignable")]);
    expect(typeErrors("import { Nope } from 'agenttoolkit';\nconsole.log(Nope);")).toEqual([expect.stringContaining('no exported member')]);
  }, 60_000);

  it.each(snippets.map((snippet, i) => [i, snippet]))('snippet %i type-checks against the library', (_i, snippet) => {
    expect(typeErrors(snippet)).toEqual([]);
  }, 60_000);

  it('local search: the listing grows by the tools found, which can then be called', async () => {
    const lines = await run(snippets[0]!);
    expect(lines[0]).toEqual([['read_file', 'search_tools']]);
    expect(lines[1]![0]).toEqual({ tools: [expect.objectContaining({ name: 'create_pull_request' })], message: expect.stringMatching(/loaded now/) });
    expect(lines[2]).toEqual([['read_file', 'search_tools', 'create_pull_request']]);
    expect(lines[3]).toEqual(['opened #12']);
  });

  it('permissions: a tool-wide deny rule hides the tool', async () => {
    expect(await run(snippets[1]!)).toEqual([[['list_databases']]]);
  });

  it('Anthropic: the server search tool, the client listing and a tool_reference result', async () => {
    const [[server, names, content]] = (await run(snippets[2]!)) as [[unknown, unknown, unknown]];
    expect(server).toEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
    expect(names).toEqual(['read_file', 'search_tools', 'create_pull_request']);
    expect(content).toEqual([{ type: 'tool_reference', tool_name: 'create_pull_request' }]);
  });

  it('OpenAI: namespaces and tool_search, and a client-executed search answered with tool_search_output', async () => {
    const [[types, count, loaded]] = (await run(snippets[3]!)) as [[unknown, unknown, unknown]];
    expect(types).toEqual(['namespace', 'namespace', 'tool_search']);
    expect(count).toBe(3);
    expect(loaded).toEqual([expect.objectContaining({ type: 'namespace', name: 'slack', tools: [expect.objectContaining({ name: 'post_message', defer_loading: true })] })]);
  });
});
