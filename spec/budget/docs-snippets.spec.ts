/**
 * Every TypeScript snippet of docs/output-budgets.md, run as written (`agenttoolkit` imports mapped to lib/), and what
 * the page says about it checked: the numbers it prints, the files it saves, the MCP messages it sends.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSnippet } from '../support/doc-snippets';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { OUTPUT_FOLDER, type LinkedContent, type Tools } from '../../lib';

const ROOT = join(__dirname, '../..');
const doc = readFileSync(join(ROOT, 'docs/output-budgets.md'), 'utf8');
const snippets = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
const ALIASES: Record<string, string> = {
  agenttoolkit: '../../lib',
  'agenttoolkit/mcp': '../../lib/mcp',
  'agenttoolkit/builtins': '../../lib/builtins',
  'agenttoolkit/workspace': '../../lib/workspace',
};
/** Runs a snippet in-process (top-level await allowed); resolves to its exports. `log` receives its console lines. */
const run = (source: string, log: string[] = []): Promise<Record<string, unknown>> => runSnippet(source, require, ALIASES, log);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'budget-docs-'));
  process.env.WORK_DIR = dir;
});
afterEach(() => {
  delete process.env.WORK_DIR;
  rmSync(dir, { recursive: true, force: true });
});

describe('docs/output-budgets.md snippets', () => {
  it('has the five snippets this spec runs', () => {
    expect(snippets).toHaveLength(5);
  });

  it('the registry-wide budget cuts to 20,000 characters, saves the log and pages it back', async () => {
    const log: string[] = [];
    const { tools } = (await run(snippets[0]!, log)) as { tools: Tools };
    expect(log).toEqual(['20000']);
    const [file] = readdirSync(join(dir, OUTPUT_FOLDER));
    expect(file).toMatch(/^server_log-\d+-[0-9a-f-]{36}-[0-9a-f]{32}\.txt$/);
    const full = readFileSync(join(dir, OUTPUT_FOLDER, file!), 'utf8');
    expect(full.split('\n')).toHaveLength(100_000);
    const page = await tools.execute('read_output', { path: `${OUTPUT_FOLDER}/${file!}`, offset: full.length - 22 });
    expect(page.result).toMatch(/request 99999 served$/);
  });

  it('per-tool budgets override the registry\'s token budget, and false turns it off', async () => {
    const { tools } = (await run(snippets[1]!)) as { tools: Tools };
    expect(String((await tools.execute('search', {})).result)).toHaveLength(4_000);
    expect((await tools.execute('ticket', {})).result).toBe('ticket text');
    const dump = String((await tools.execute('dump', {})).result);
    expect(Math.ceil(dump.length / 4)).toBeLessThanOrEqual(2_000);
    expect(Math.ceil(dump.length / 4)).toBeGreaterThan(1_990);
  });

  it('a streamed build log stays within 1,000 characters, and the stream is the result', async () => {
    const log: string[] = [];
    await run(snippets[2]!, log);
    const [length, same] = log[0]!.split(' ');
    expect(Number(length)).toBeLessThanOrEqual(1_000);
    expect(Number(length)).toBeGreaterThan(990);
    expect(same).toBe('true');
  });

  it('over MCP, the cut result carries a resource_link and resources/read answers the full text', async () => {
    const { server } = (await run(snippets[3]!)) as { server: McpServer };
    const client = new Client({ name: 'docs', version: '1' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    await client.connect(b);
    const result = (await client.callTool({ name: 'logs', arguments: {} })) as CallToolResult;
    const link = result.content[1] as { type: string; uri: string };
    expect([result.content[0]!.type, link.type]).toEqual(['text', 'resource_link']);
    expect((await client.readResource({ uri: link.uri })).contents[0]).toMatchObject({ text: 'log line\n'.repeat(10_000), mimeType: 'text/plain' });
    await client.close();
  });

  it('a resource-link result carries its link and its text', async () => {
    const { tools } = (await run(snippets[4]!)) as { tools: Tools };
    const value = (await tools.execute('export_report', {})).result as LinkedContent;
    expect(value.text).toBe('The May report is ready.');
    expect(value.links[0]!.toJSON()).toEqual({ type: 'resource_link', uri: 'https://reports.example.com/2025-05.pdf', name: '2025-05.pdf', mimeType: 'application/pdf', size: 48_213 });
  });
});
