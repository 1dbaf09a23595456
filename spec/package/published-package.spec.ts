/**
 * The published package, as users get it: `npm pack`, install the tarball into throwaway consumer projects, and run a
 * tool from an ES module, from CommonJS compiled by tsc with decorators (checking the shipped .d.ts), and from a
 * consumer's own jest test. Also proves the root entry stays light. Needs the npm registry for the package's own
 * dependencies (as any install does).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { brokenLinks, markdownFiles } from '../support/markdown-links';
import { EVERY_PEER, compileOnce, installPacked } from '../support/packed-package';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS script of the repository
const { entryMap } = require('../../scripts/entry-map.js') as { entryMap(): Array<{ entry: string; names: string[]; typeOnly: string[] }> };

const root = join(__dirname, '..', '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const versionOf = (name: string) => (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
/**
 * The most files of the package `require('agenttoolkit')` may load: the entry and the library bundle that holds every
 * compiled module (scripts/bundle.js; about a hundred files before it).
 */
const ROOT_MODULE_BUDGET = 2;
const run = (command: string, args: string[], cwd: string) => execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('the packed package', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'agenttoolkit-consumer-'));
    // The packed tarball (npm pack, whose prepack builds dist/) with both TypeBox lines, optional peers a consumer
    // installs the one it uses of, and the MCP SDK (an optional peer) and Node's types, for the consumers that
    // type-check agenttoolkit/mcp. Packed and installed once per content of the sources (spec/support/packed-package.ts).
    installPacked(dir, ['typebox', '@sinclair/typebox', '@modelcontextprotocol/sdk', '@modelcontextprotocol/server', '@modelcontextprotocol/client', '@modelcontextprotocol/node', '@types/node'].map((name) => `${name}@${versionOf(name)}`));
  }, 240_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // The README and the guides of docs/ ship together, so their relative links work in node_modules/agenttoolkit; the
  // links into the repository's examples/ stay (the examples import the library's sources and are not shipped).
  it('ships docs/ beside the README, every relative link resolving inside the package', () => {
    const installed = join(dir, 'node_modules', 'agenttoolkit');
    const pages = [join(installed, 'README.md'), ...markdownFiles(join(installed, 'docs'))];
    expect(pages.length).toBe(1 + markdownFiles(join(root, 'docs')).length);
    const broken = pages.flatMap((page) => brokenLinks(page, installed)).filter((line) => !/ (\.\.\/)*examples\/\S+ \(no such file\)$/.test(line));
    expect(broken).toEqual([]);
  });

  it('runs a tool when imported from an ES module project', () => {
    mkdirSync(join(dir, 'esm'));
    writeFileSync(join(dir, 'esm', 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(
      join(dir, 'esm', 'main.js'),
      `import { Tools, ToolSchemaFormat, ActionResult } from 'agenttoolkit';
import { Type } from 'typebox';
const tools = new Tools();
tools.action({ name: 'add', description: 'Add.', params: Type.Object({ a: Type.Integer(), b: Type.Optional(Type.Integer()) }) }, ({ a, b }) => a + (b ?? 0));
const result = await tools.execute('add', '{"a":2,"b":3}');
console.log(JSON.stringify({ result: result.result, isResult: result instanceof ActionResult, schema: tools.getSchema(ToolSchemaFormat.ANTHROPIC)[0].name, required: tools.get('add').parameters.required }));
`,
    );
    expect(JSON.parse(run(process.execPath, ['main.js'], join(dir, 'esm')))).toEqual({ result: 5, isResult: true, schema: 'add', required: ['a'] });
  });

  it('takes TypeBox 1.x (ES modules only) from a CommonJS program, through require(esm) on Node 20.19+', () => {
    writeFileSync(
      join(dir, 'typebox1.cjs'),
      `const { Tools } = require('agenttoolkit');
const { Type } = require('typebox');
const tools = new Tools();
tools.action({ name: 'echo', description: 'Echo.', params: Type.Object({ v: Type.String() }) }, ({ v }) => v);
tools.execute('echo', { v: 'hi', injected: 1 }).then((r) => console.log(JSON.stringify(r.result)));
`,
    );
    expect(JSON.parse(run(process.execPath, ['typebox1.cjs'], dir))).toBe('hi');
  });

  it('runs decorated tools from a CommonJS project compiled by tsc against the shipped types', () => {
    mkdirSync(join(dir, 'cjs'));
    writeFileSync(join(dir, 'cjs', 'package.json'), JSON.stringify({ type: 'commonjs' }));
    writeFileSync(
      join(dir, 'cjs', 'main.ts'),
      `import { Action, Inject, Param, ToolContext, Tools } from 'agenttoolkit';
import { Type } from '@sinclair/typebox';
class Greeter { greet(name: string): string { return 'hello ' + name; } }
class Demo {
  @Action('Add two integers.')
  add(@Param('a', Type.Integer()) a: number, @Param('b', Type.Integer()) b: number): number { return a + b; }
  @Action('Greet.')
  greet(@Param('name') name: string, @Inject(Greeter) greeter: Greeter): string { return greeter.greet(name); }
}
const tools = new Tools({ context: new ToolContext(new Greeter()) }).register(new Demo());
Promise.all([tools.execute('add', { a: 2, b: 3 }), tools.execute('greet', { name: 'ada' })]).then(([sum, greeting]) => {
  console.log(JSON.stringify({ sum: sum.result, greeting: greeting.result, greetSchema: tools.get('greet')!.parameters }));
});
`,
    );
    writeFileSync(
      join(dir, 'cjs', 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'node16', moduleResolution: 'node16', strict: true, experimentalDecorators: true, emitDecoratorMetadata: true, skipLibCheck: false, types: [] } }),
    );
    expect(compileOnce(join(dir, 'cjs'), tsc)).toEqual({ status: 0, stdout: '' });
    expect(JSON.parse(run(process.execPath, ['main.js'], join(dir, 'cjs')))).toEqual({
      sum: 5,
      greeting: 'hello ada',
      greetSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
    });
  }, 60_000);

  it('type-checks and runs schema-based tools (TypeBox 1.x, the project\'s own and agenttoolkit/typebox\'s) from a TypeScript ES module project (nodenext)', () => {
    mkdirSync(join(dir, 'tsesm'));
    writeFileSync(join(dir, 'tsesm', 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(
      join(dir, 'tsesm', 'main.mts'),
      `import { Action, Inject, ToolContext, Tools, type Static } from 'agenttoolkit';
import { Type, type Static as TypeBoxStatic } from 'typebox';
import { Type as OurType, type TInteger, type TObject, type TOptional } from 'agenttoolkit/typebox';
class SearchClient { search(query: string, limit: number): string[] { return Array.from({ length: limit }, () => query); } }
const SearchParams = Type.Object({ query: Type.String(), limit: Type.Optional(Type.Integer({ default: 2 })) });
class KnowledgeBase {
  @Action('Search.', { params: SearchParams, status: (p) => 'Searching for ' + p.query })
  search(params: Static<typeof SearchParams>, @Inject(SearchClient) client: SearchClient): string[] { return client.search(params.query, params.limit ?? 0); }
}
const tools = new Tools({ context: new ToolContext(new SearchClient()) }).register(new KnowledgeBase());
tools.action({ name: 'add', description: 'Add.', params: Type.Object({ a: Type.Integer(), b: Type.Integer() }) }, ({ a, b }) => a + b);
tools.action({ name: 'echo', description: 'Echo.', params: { type: 'object', properties: { v: { type: 'string' } }, required: ['v'] } }, (p) => String(p.v));
// agenttoolkit/typebox's Type and types (TypeBox 1.x's own), mixed with the project's own typebox.
const Ours: TObject<{ n: TInteger; by: TOptional<TInteger> }> = OurType.Object({ n: OurType.Integer(), by: OurType.Optional(OurType.Integer()) });
const Mixed = Type.Object({ step: Ours, label: OurType.String() });
const typed: TypeBoxStatic<typeof Mixed> = { step: { n: 1 }, label: 'x' };
tools.action({ name: 'step', description: 'Step.', params: Mixed }, (p) => p.label + (p.step.n + (p.step.by ?? 1)));
const [search, sum, echo, step] = await Promise.all([tools.execute('search', { query: 'q' }), tools.execute('add', '{"a":2,"b":3}'), tools.execute('echo', { v: 'hi' }), tools.execute('step', typed)]);
console.log(JSON.stringify({ search: search.result, sum: sum.result, echo: echo.result, step: step.result }));
`,
    );
    writeFileSync(
      join(dir, 'tsesm', 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, experimentalDecorators: true, emitDecoratorMetadata: true, skipLibCheck: false, types: [] } }),
    );
    expect(compileOnce(join(dir, 'tsesm'), tsc)).toEqual({ status: 0, stdout: '' });
    expect(JSON.parse(run(process.execPath, ['main.mjs'], join(dir, 'tsesm')))).toEqual({ search: ['q', 'q'], sum: 5, echo: 'hi', step: 'x2' });
  }, 180_000);

  it("runs a tool inside a consumer's own jest test", () => {
    mkdirSync(join(dir, 'jest'));
    writeFileSync(
      join(dir, 'jest', 'consumer.test.js'),
      `const { Tools } = require('agenttoolkit');
test('a tool runs', async () => {
  const tools = new Tools();
  tools.action({ name: 'echo', description: 'Echo.', params: { type: 'object', properties: { v: { type: 'string' } }, required: ['v'] } }, ({ v }) => v);
  expect((await tools.execute('echo', { v: 'hi' })).result).toBe('hi');
});
`,
    );
    const out = spawnSync(process.execPath, [join(root, 'node_modules', 'jest', 'bin', 'jest.js'), '--rootDir', join(dir, 'jest'), '--config', '{"testEnvironment":"node"}', '--ci'], {
      cwd: join(dir, 'jest'),
      encoding: 'utf8',
    });
    expect(out.stderr).toMatch(/Tests:\s+1 passed, 1 total/);
    expect(out.status).toBe(0);
  }, 60_000);

  it('loads the optional Docker entry without dockerode, and says what to install when a sandbox is built', () => {
    const probe = `const { DockerSandbox } = require('agenttoolkit/sandbox/docker');
const { SandboxPolicy } = require('agenttoolkit/sandbox');
try { new DockerSandbox('busybox', new SandboxPolicy()); console.log(JSON.stringify({ built: true })); }
catch (error) { console.log(JSON.stringify({ code: error.code, message: error.message })); }`;
    writeFileSync(join(dir, 'docker-probe.js'), probe);
    expect(JSON.parse(run(process.execPath, ['docker-probe.js'], dir))).toEqual({
      code: 'ENGINE_UNAVAILABLE',
      message: "DockerSandbox needs the optional peer dependency 'dockerode': npm install dockerode (and @types/dockerode for its types).",
    });
  });

  it('keeps the root entry light: no child_process, no optional heavy dependency, no TypeBox at run time', () => {
    const probe = `require('agenttoolkit');
const loaded = Object.keys(require.cache);
console.log(JSON.stringify({
  childProcess: process.moduleLoadList.some((m) => m === 'NativeModule child_process'),
  heavy: loaded.filter((f) => /node_modules\\/(dockerode|chokidar|@modelcontextprotocol|@sinclair|typebox|gray-matter|tinyglobby|web-tree-sitter|tree-sitter-bash|minisearch)\\//.test(f)),
}));`;
    writeFileSync(join(dir, 'probe.js'), probe);
    expect(JSON.parse(run(process.execPath, ['probe.js'], dir))).toEqual({ childProcess: false, heavy: [] });
  });

  // Cold start is paid in modules: every file the root entry loads costs a resolution, a read and a compile. The root
  // loads the library bundle and reflect-metadata, and runs nothing of the validator until a call needs it. Ajv and
  // ajv-formats ship inside the package as one bundled file (no file of the ajv packages loads), whose modules still run
  // on first use only: the one dialect in use, and the string formats only for a schema that names one.
  it('keeps the root entry within its module budget, and loads the validator on the first call only', () => {
    const probe = `const ours = (f) => f.includes('/node_modules/agenttoolkit/');
const own = () => Object.keys(require.cache).filter(ours);
const others = () => Object.keys(require.cache).filter((f) => !ours(f) && f.includes('/node_modules/')).map((f) => f.split('/node_modules/').pop().split('/').slice(0, f.includes('/node_modules/@') ? 2 : 1).join('/'));
const { Tools } = require('agenttoolkit');
const atImport = { own: own().length, others: [...new Set(others())] };
const tools = new Tools();
tools.action({ name: 'add', description: 'Add.', params: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] } }, ({ a, b }) => a + b);
tools.action({ name: 'mail', description: 'Mail.', params: { type: 'object', properties: { to: { type: 'string', format: 'email' } }, required: ['to'] } }, ({ to }) => to);
const atDefine = { own: own().length, others: [...new Set(others())] };
const ajvModules = () => require(require('node:path').join(require('node:path').dirname(require.resolve('agenttoolkit')), 'schema', 'ajv-modules.js')).loadedAjvModules();
tools.execute('add', { a: 1, b: 2 }).then(async (sum) => {
  const atCall = { own: own().length, others: [...new Set(others())], ajv: ajvModules() };
  const mail = await tools.execute('mail', { to: 'nobody' });
  console.log(JSON.stringify({ atImport, atDefine, atCall, sum: sum.result, mail: mail.ok, afterFormat: ajvModules(), others: [...new Set(others())] }));
});`;
    writeFileSync(join(dir, 'budget-probe.js'), probe);
    type Loaded = { own: number; others: string[] };
    const out = JSON.parse(run(process.execPath, ['budget-probe.js'], dir)) as { atImport: Loaded; atDefine: Loaded; atCall: Loaded & { ajv: string[] }; sum: number; mail: boolean; afterFormat: string[]; others: string[] };
    expect(out.atImport.own).toBeLessThanOrEqual(ROOT_MODULE_BUDGET);
    expect(out.atImport.others).toEqual(['reflect-metadata']);
    expect(out.atDefine).toEqual(out.atImport);
    // The first call loads one more file of the package, the Ajv bundle, and runs one dialect of it.
    expect(out.atCall).toEqual({ own: out.atImport.own + 1, others: ['reflect-metadata'], ajv: ['ajv/2020'] });
    expect([out.sum, out.mail, out.afterFormat, out.others]).toEqual([3, false, ['ajv/2020', 'ajv-formats'], ['reflect-metadata']]);
  });

  // agenttoolkit/typebox is two files (the entry, and the bundle of TypeBox 1.x's type builder it requires): it loads
  // with neither TypeBox line resolvable (resolving either fails in these probes, from CommonJS and from ES modules),
  // and its schemas carry TypeBox 1.x's markers (non-enumerable `~kind` properties), so the consumer's own `typebox`
  // checks and composes them and this library takes schemas from either copy.
  it('serves TypeBox 1.x from agenttoolkit/typebox in two files, without typebox installed, interchangeable with the consumer\'s own copy', () => {
    const probe = `const Module = require('node:module');
const resolve = Module._resolveFilename;
let blocked = true;
Module._resolveFilename = function (request, ...rest) {
  if (blocked && /^(@sinclair\\/typebox|typebox)(\\/|$)/.test(request)) throw Object.assign(new Error('Cannot find module ' + request), { code: 'MODULE_NOT_FOUND' });
  return resolve.call(this, request, ...rest);
};
const before = new Set(Object.keys(require.cache));
const { Type } = require('agenttoolkit/typebox');
const loaded = Object.keys(require.cache).filter((f) => !before.has(f));
const { Tools } = require('agenttoolkit');
const ours = Type.Object({ a: Type.Integer(), note: Type.Optional(Type.String({ maxLength: 3 })) });
const tools = new Tools();
tools.action({ name: 'ours', description: 'Ours.', params: ours }, ({ a }) => a);
blocked = false;
const { Type: TheirType } = require('typebox');
const { Value } = require('typebox/value');
const { Compile } = require('typebox/compile');
const theirs = TheirType.Object({ b: TheirType.Integer(), tag: TheirType.Optional(TheirType.String()) });
tools.action({ name: 'theirs', description: 'Theirs.', params: theirs }, ({ b }) => b);
const both = TheirType.Evaluate(TheirType.Intersect([ours, theirs]));
tools.action({ name: 'both', description: 'Both.', params: TheirType.Object({ inner: ours, more: theirs }) }, ({ inner, more }) => inner.a + more.b);
Promise.all([tools.execute('ours', { a: 1 }), tools.execute('ours', { note: 'long' }), tools.execute('theirs', { b: 2 }), tools.execute('both', { inner: { a: 1 }, more: { b: 2 } }), tools.execute('both', { inner: { a: 1, note: 'long' }, more: { b: 2 } })]).then(([one, bad, two, three, badInner]) => {
  console.log(JSON.stringify({
    loaded: loaded.map((f) => f.split('/node_modules/').pop()),
    ourCopy: Type !== TheirType,
    results: [one.result, bad.ok, two.result, three.result, badInner.ok],
    required: [tools.get('ours').parameters.required, tools.get('theirs').parameters.required],
    check: [Value.Check(ours, { a: 1 }), Value.Check(ours, { a: 'x' }), Compile(ours).Check({ a: 1, note: 'abcd' })],
    sameSchema: JSON.stringify(ours) === JSON.stringify(TheirType.Object({ a: TheirType.Integer(), note: TheirType.Optional(TheirType.String({ maxLength: 3 })) })),
    composed: [Value.Check(both, { a: 1, b: 2 }), Value.Check(both, { a: 1 }), Object.keys(both.properties).sort()],
  }));
});`;
    writeFileSync(join(dir, 'typebox-probe.js'), probe);
    expect(JSON.parse(run(process.execPath, ['typebox-probe.js'], dir))).toEqual({
      loaded: ['agenttoolkit/dist/typebox/index.js', 'agenttoolkit/dist/typebox/index.bundle.js'],
      ourCopy: true,
      results: [1, false, 2, 3, false],
      required: [['a'], ['b']],
      check: [true, false, false],
      sameSchema: true,
      composed: [true, false, ['a', 'b', 'note', 'tag']],
    });
    // From an ES module: a resolve hook refuses both TypeBox lines, for import and for require alike.
    writeFileSync(join(dir, 'esm', 'block-typebox.mjs'), `export async function resolve(specifier, context, next) {
  if (/^(@sinclair\\/typebox|typebox)(\\/|$)/.test(specifier)) throw Object.assign(new Error('Cannot find module ' + specifier), { code: 'ERR_MODULE_NOT_FOUND' });
  return next(specifier, context);
}`);
    writeFileSync(join(dir, 'esm', 'typebox.mjs'), `import Module, { createRequire, register } from 'node:module';
register('./block-typebox.mjs', import.meta.url);
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (/^(@sinclair\\/typebox|typebox)(\\/|$)/.test(request)) throw Object.assign(new Error('Cannot find module ' + request), { code: 'MODULE_NOT_FOUND' });
  return resolve.call(this, request, ...rest);
};
const cache = createRequire(import.meta.url).cache;
const before = new Set(Object.keys(cache));
const { Type } = await import('agenttoolkit/typebox');
const loaded = Object.keys(cache).filter((f) => !before.has(f)).map((f) => f.split('/node_modules/').pop());
const { Tools } = await import('agenttoolkit');
const tools = new Tools();
tools.action({ name: 'add', description: 'Add.', params: Type.Object({ a: Type.Integer(), b: Type.Integer() }) }, ({ a, b }) => a + b);
const blocked = await import('typebox').then(() => 'loaded', (error) => error.code);
console.log(JSON.stringify({ loaded, result: (await tools.execute('add', '{"a":2,"b":3}')).result, blocked }));`);
    expect(JSON.parse(run(process.execPath, ['typebox.mjs'], join(dir, 'esm')))).toEqual({
      loaded: ['agenttoolkit/dist/typebox/index.js', 'agenttoolkit/dist/typebox/index.bundle.js'],
      result: 5,
      blocked: 'ERR_MODULE_NOT_FOUND',
    });
  });

  it('runs the skill viewer without loading either TypeBox line', () => {
    const probe = `const { Tools, ToolContext } = require('agenttoolkit');
const { Skills, registerSkillViewer } = require('agenttoolkit/skills');
require('node:fs').mkdirSync('skills-root/hello', { recursive: true });
require('node:fs').writeFileSync('skills-root/hello/SKILL.md', '---\\nname: hello\\ndescription: Say hello.\\n---\\nSay hello.\\n');
Skills.fromLocalDir('skills-root').then(async (skills) => {
  const tools = new Tools({ context: new ToolContext(skills) });
  registerSkillViewer(tools);
  const result = await tools.execute('view_skill', { name: 'hello' });
  console.log(JSON.stringify({ ok: result.ok, typebox: Object.keys(require.cache).filter((f) => /node_modules\\/(typebox|@sinclair)\\//.test(f)) }));
});`;
    writeFileSync(join(dir, 'skills-probe.js'), probe);
    expect(JSON.parse(run(process.execPath, ['skills-probe.js'], dir))).toEqual({ ok: true, typebox: [] });
  });

  it('loads the bash parser of agenttoolkit/builtins only when a command is analysed, from CommonJS and ES modules', () => {
    const probe = `const { analyzeCommand, commandMatchesRule } = require('agenttoolkit/builtins');
const parserLoaded = () => Object.keys(require.cache).some((f) => f.includes('web-tree-sitter'));
const before = parserLoaded();
(async () => {
  const analysis = await analyzeCommand('git commit -m x && /bin/rm -rf /');
  console.log(JSON.stringify({
    before,
    after: parserLoaded(),
    programs: analysis.commands.map((c) => c.program),
    smuggled: await commandMatchesRule('git commit:*', 'git commit -m x && rm -rf /'),
    plain: await commandMatchesRule('git commit:*', 'git commit -m x'),
  }));
})();`;
    writeFileSync(join(dir, 'builtins-probe.js'), probe);
    expect(JSON.parse(run(process.execPath, ['builtins-probe.js'], dir))).toEqual({ before: false, after: true, programs: ['git', '/bin/rm'], smuggled: false, plain: true });
    writeFileSync(join(dir, 'esm', 'builtins.mjs'), `import { commandMatchesRule } from 'agenttoolkit/builtins';
console.log(JSON.stringify(await commandMatchesRule('rm:*', 'echo hi; r""m -rf /', 'deny')));`);
    expect(JSON.parse(run(process.execPath, ['builtins.mjs'], join(dir, 'esm')))).toBe(true);
  });

  // The SDK ships an ES module build and a CommonJS build of each class; TypeScript holds the two declarations of a
  // class with private members apart, so the shipped .d.ts (CommonJS) must not name the SDK's classes in parameters.
  const mcpConsumer = (kind: 'esm' | 'cjs') => {
    const body = `const tools = new Tools();
  tools.action({ name: 'add', description: 'Add.', params: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] } }, ({ a }) => Number(a) + 1);
  const server = new McpServer({ name: 'demo', version: '1.0.0' });
  const served: McpToolServer = serveTools(server, tools);
  const again = new McpToolServer(new McpServer({ name: 'again', version: '1.0.0' }), tools, { progress: false });
  const prompts = serveSkills(server, await Skills.fromLocalDir('.'));
  serveToolOutputs(server, tools);
  const shape: McpServerLike = server;
  if (process.env.NEVER_SET_BY_ANYONE !== undefined) {
    await serveStdio(server);
    await serveHttp(() => new McpServer({ name: 'http', version: '1.0.0' }), { port: 0 });
    await McpClientTools.connect(tools, { name: 'remote', client: new Client({ name: 'client', version: '1.0.0' }) });
  }
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'client', version: '1.0.0' });
  await client.connect(clientSide);
  const listed = (await client.listTools()).tools.map((tool) => tool.name);
  const called = await client.callTool({ name: 'add', arguments: { a: 2 } });
  prompts.close();
  again.close();
  served.close();
  await client.close();
  console.log(JSON.stringify({ listed, called: called.structuredContent ?? called.content, same: shape === server }));`;
    const imports = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Tools } from 'agenttoolkit';
import { McpClientTools, McpToolServer, serveHttp, serveSkills, serveStdio, serveToolOutputs, serveTools, type McpServerLike } from 'agenttoolkit/mcp';
import { Skills } from 'agenttoolkit/skills';
`;
    return kind === 'esm' ? `${imports}${body.replace(/^ {2}/gm, '')}\n` : `${imports}async function main(): Promise<void> {\n  ${body}\n}\nvoid main();\n`;
  };

  it.each([
    ['an ES module project (nodenext)', 'mcpesm', 'module', { module: 'nodenext', moduleResolution: 'nodenext' }, 'main.mts', 'main.mjs'],
    ['a CommonJS project (node20)', 'mcpcjs', 'commonjs', { module: 'node20', moduleResolution: 'node16' }, 'main.ts', 'main.js'],
  ] as const)('type-checks serveTools and serveStdio on the SDK McpServer from %s, and serves the tools', (_, name, type, modules, source, output) => {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'package.json'), JSON.stringify({ type }));
    writeFileSync(join(dir, name, source), mcpConsumer(type === 'module' ? 'esm' : 'cjs'));
    writeFileSync(join(dir, name, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', ...modules, strict: true, skipLibCheck: false, types: ['node'] } }));
    const compiled = compileOnce(join(dir, name), tsc);
    expect(compiled.stdout).toBe('');
    expect(compiled.status).toBe(0);
    expect(JSON.parse(run(process.execPath, [output], join(dir, name)))).toEqual({ listed: ['add'], called: [{ type: 'text', text: '3' }], same: true });
  }, 120_000);

  // One library bundle serves every entry (scripts/bundle.js): each entry exports at run time the value names its
  // declarations name, from CommonJS and from an ES module (Node reads the names of a CommonJS file's exports from its
  // source), and the classes are one copy, so an error class of any entry extends the root's AgentToolkitError.
  // Node 23 and later also name the whole `module.exports` in an ES module's view of a CommonJS file: not ours.
  // In a project of its own that installs the optional peers the entries load. (Every entry point compiling, on each
  // TypeScript major: typescript-majors.spec.ts.)
  it('loads every entry point at run time, from CommonJS and ES modules, with one copy of the shared classes', () => {
    const libcheck = join(dir, 'libcheck');
    mkdirSync(libcheck);
    installPacked(libcheck, EVERY_PEER.map((peer) => `${peer}@${versionOf(peer)}`));
    const expected = Object.fromEntries(entryMap().map(({ entry, names, typeOnly }) => [entry, names.filter((name) => !typeOnly.includes(name))]));
    writeFileSync(
      join(libcheck, 'entries-probe.mjs'),
      `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const entries = ${JSON.stringify(Object.keys(expected))};
const { AgentToolkitError } = require('agenttoolkit');
const out = {};
for (const entry of entries) {
  const cjs = require(entry);
  const esm = await import(entry);
  const errors = Object.values(cjs).filter((value) => typeof value === 'function' && /Error$/.test(value.name));
  out[entry] = { cjs: Object.keys(cjs).sort(), esm: Object.keys(esm).filter((name) => name !== 'default' && name !== '__esModule' && name !== 'module.exports').sort(), renamed: Object.entries(cjs).filter(([name, value]) => typeof value === 'function' && value.name !== name).map(([name, value]) => name + ':' + value.name), foreignErrors: errors.filter((error) => !(error.prototype instanceof AgentToolkitError) && error !== AgentToolkitError && !/^TypeBox/.test(error.name)).map((error) => error.name) };
}
console.log(JSON.stringify(out));`,
    );
    const out = JSON.parse(run(process.execPath, ['entries-probe.mjs'], libcheck)) as Record<string, { cjs: string[]; esm: string[]; renamed: string[]; foreignErrors: string[] }>;
    const sorted = (names: string[]) => [...names].sort();
    // A class or function keeps its own name (a bundler renames a class that names itself in its body, `_Skills`, unless
    // told to keep names); the one export under another name than its function's is an alias by design.
    const aliases: Record<string, string[]> = { 'agenttoolkit/mcp': ['mcpToolOutput:toolOutput'] };
    expect(out).toEqual(
      Object.fromEntries(Object.entries(expected).map(([entry, names]) => [entry, { cjs: sorted(names), esm: sorted(names), renamed: aliases[entry] ?? [], foreignErrors: [] }])),
    );
  }, 240_000);
  // What an application bundler (esbuild here) meets when it follows `require('agenttoolkit')` from the installed
  // package: only the package's own dependencies and Node's modules, never an optional peer (the MCP SDK, Nest, ai,
  // dockerode) or a package the library does not declare.
  it('leads an application bundler following the root entry to declared dependencies only', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the build's bundler, a devDependency
    const esbuild = require('esbuild') as typeof import('esbuild');
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    writeFileSync(join(dir, 'app.js'), "const { Tools } = require('agenttoolkit');\nconsole.log(typeof Tools);\n");
    const reached = new Set<string>();
    await esbuild.build({
      entryPoints: [join(dir, 'app.js')],
      bundle: true,
      platform: 'node',
      write: false,
      logLevel: 'silent',
      plugins: [
        {
          name: 'record-packages',
          setup(build) {
            build.onResolve({ filter: /^[^./]/ }, ({ path, importer }) => {
              if (path === 'agenttoolkit' || !importer.includes(`${join('node_modules', 'agenttoolkit')}`)) return undefined;
              reached.add(path.split('/').slice(0, path.startsWith('@') ? 2 : 1).join('/'));
              return { path, external: true };
            });
          },
        },
      ],
    });
    const builtins = new Set(builtinModules);
    const undeclared = [...reached].filter((name) => !(name in pkg.dependencies) && !builtins.has(name.replace(/^node:/, '')));
    expect(undeclared).toEqual([]);
    expect(reached.size).toBeGreaterThan(0);
  }, 60_000);
});
