import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as mcpServer from '@modelcontextprotocol/server';
import { transpileModule, ModuleKind, ScriptTarget } from 'typescript';
import * as core from '../../../lib';
import * as mcp from '../../../lib/mcp';
import * as permissions from '../../../lib/permissions';
import { HttpMcpServer } from './support';

const ROOT = join(__dirname, '..', '..', '..');
const page = readFileSync(join(ROOT, 'docs', 'providers', 'mcp-client.md'), 'utf8');
const snippets = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);

/** Runs a snippet of the page as written (TypeScript, top-level await), with `agenttoolkit` imports bound to this checkout. */
async function run(source: string): Promise<string[]> {
  const { outputText } = transpileModule(`${source}\nexport {};`, { compilerOptions: { module: ModuleKind.CommonJS, target: ScriptTarget.ES2022 } });
  const logged: string[] = [];
  const console = { log: (...values: unknown[]) => logged.push(values.map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)))).join(' ')), error: () => undefined };
  const modules: Record<string, unknown> = { agenttoolkit: core, 'agenttoolkit/mcp': mcp, 'agenttoolkit/permissions': permissions, '@modelcontextprotocol/server': mcpServer };
  const load = (name: string) => {
    if (!(name in modules)) throw new Error(`snippet imports ${name}`);
    return modules[name];
  };
  const body = new Function('require', 'exports', 'console', `return (async () => {\n${outputText}\n})();`) as (r: typeof load, e: object, c: typeof console) => Promise<void>;
  await body(load, {}, console);
  return logged;
}

describe('docs/providers/mcp-client.md: every snippet runs', () => {
  const server = new HttpMcpServer();
  let url = '';
  beforeAll(async () => (url = await server.start()));
  afterAll(() => server.stop());

  // The stdio snippets start their own server (`node -e`); the HTTP one is pointed at this spec's server.
  const prepare = (source: string) => source.replaceAll("'http://localhost:3000/mcp'", JSON.stringify(url));

  it('has the snippets this spec checks', () => {
    expect(snippets).toHaveLength(5);
  });

  it('SDK v2: a 2026-07-28 server reached with sdk: 2, its approval question answered by the elicitation handler', async () => {
    const logged = await run(prepare(snippets[4]!));
    expect(logged).toEqual([JSON.stringify(['mcp__ops__deploy']), '2026-07-28', expect.stringContaining("Allow tool 'deploy' to run?"), expect.stringContaining('deployed')]);
  });

  it('the first connection: tools registered, listed, called, closed', async () => {
    const logged = await run(prepare(snippets[0]!));
    expect(logged[0]).toBe(JSON.stringify(['mcp__notes__list_notes', 'mcp__notes__read_note', 'mcp__notes__write_note', 'mcp__notes__pid']));
    expect(logged[1]).toBe('4');
    expect(logged[2]).toBe(JSON.stringify({ id: 'welcome', text: 'Hello from the notes server.' }));
  });

  it('an HTTP server with headers', async () => {
    expect(await run(prepare(snippets[1]!))).toEqual([JSON.stringify(['mcp__docs__echo'])]);
    expect(server.headers.authorization).toBe('Bearer <token>');
  });

  it('trust and the permission engine', async () => {
    expect(await run(prepare(snippets[2]!))).toEqual([JSON.stringify(['mcp__notes__pid'])]);
  });

  it('drift against a pinned fingerprint, refused then approved', async () => {
    const logged = await run(prepare(snippets[3]!));
    expect(logged[0]).toMatch(/^mcp__notes__read_note changed: ffffffff -> [0-9a-f]{8}$/);
    expect(logged.slice(1)).toEqual(['undefined', JSON.stringify(['read_note']), 'mcp__notes__read_note']);
  });
});
