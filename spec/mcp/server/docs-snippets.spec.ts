/**
 * Every TypeScript snippet of the server part of docs/providers/mcp.md, run as written (`agenttoolkit` imports
 * mapped to lib/) and driven by the SDK's Client: the stdio quick start as a child process, the others in-process.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSnippet } from '../../support/doc-snippets';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolResultSchema, ElicitRequestSchema, LoggingMessageNotificationSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import type { Tools } from '../../../lib';
import { serveTools, type McpHttpEndpoint } from '../../../lib/mcp';

const ROOT = join(__dirname, '../../..');
const doc = readFileSync(join(ROOT, 'docs/providers/mcp.md'), 'utf8');
const serverPart = doc.slice(doc.indexOf('## Server'), doc.indexOf('## Client'));
const snippets = [...serverPart.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
const ALIASES: Record<string, string> = { agenttoolkit: '../../../lib', 'agenttoolkit/mcp': '../../../lib/mcp', 'agenttoolkit/permissions': '../../../lib/permissions', 'agenttoolkit/skills': '../../../lib/skills' };
/** Runs a snippet in-process (top-level await allowed); resolves to its exports. `log` receives its console lines. */
const run = (source: string, log: string[] = []): Promise<Record<string, unknown>> => runSnippet(source, require, ALIASES, log);

async function connect(server: McpServer, capabilities: Record<string, unknown> = {}): Promise<Client> {
  const client = new Client({ name: 'docs', version: '1' }, { capabilities });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  return client;
}

const text = (result: unknown) => ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? '');

describe('docs/providers/mcp.md server snippets', () => {
  it('has the seven snippets this spec runs', () => {
    expect(snippets).toHaveLength(7);
  });

  it('the quick start serves the registry and the native tool over stdio', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-doc-'));
    const file = join(dir, 'server.ts');
    // A child process: CommonJS has no top-level await, so the snippet's last line runs as a floating promise there.
    writeFileSync(file, snippets[0]!.replace('await serveStdio(server);', 'void serveStdio(server);'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['-r', join(__dirname, 'support/ts-register.cjs'), file],
      env: { ...process.env, NODE_PATH: join(ROOT, 'node_modules'), AGENTTOOLKIT_ROOT: ROOT } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'docs', version: '1' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['getOrder', 'ping', 'refund']);
      expect(await client.callTool({ name: 'getOrder', arguments: { orderId: 'o-1' } })).toMatchObject({ structuredContent: { orderId: 'o-1', total: 42 } });
      expect(text(await client.callTool({ name: 'ping', arguments: { message: 'hi' } }))).toBe('pong hi');
    } finally {
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000); // the child transpiles lib/ as it loads: over 30 s on a busy 2-core machine

  it('the McpRequest tool logs, reports progress and elicits inside MCP, and runs without it outside', async () => {
    const { tools } = (await run(snippets[1]!)) as { tools: Tools };
    expect((await tools.execute('monthly', {})).result).toBe('Report for the current month.');
    const server = new McpServer({ name: 'reports', version: '1' });
    serveTools(server, tools);
    const client = await connect(server, { elicitation: { form: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { month: 'May' } }));
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
    const progress: Progress[] = [];
    const result = await client.callTool({ name: 'monthly', arguments: {} }, CallToolResultSchema, { onprogress: (p) => progress.push(p) });
    expect(text(result)).toBe('Report for May.');
    expect(logs).toEqual(['collecting data']);
    expect(progress.map((p) => [p.progress, p.message])).toEqual([[0, 'Running monthly...'], [1, 'collected'], [2, 'done']]);
    await client.close();
  });

  it('the permission snippet denies by rule and asks for the rest', async () => {
    const first = (await run(snippets[2]!)) as { server: McpServer };
    const client = await connect(first.server);
    expect(text(await client.callTool({ name: 'drop_database', arguments: {} }))).toMatch(/^Permission denied for tool 'drop_database'/);
    expect(text(await client.callTool({ name: 'deploy', arguments: {} }))).toContain('does not support elicitation');
    await client.close();

    const second = (await run(snippets[2]!)) as { server: McpServer };
    const asking = await connect(second.server, { elicitation: { form: {} } });
    asking.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept' }));
    expect(text(await asking.callTool({ name: 'deploy', arguments: {} }))).toBe('deployed');
    expect(text(await asking.callTool({ name: 'drop_database', arguments: {} }))).toMatch(/^Permission denied/);
    await asking.close();
  });

  it('the SDK client declares elicitation, is asked, and the approved call runs', async () => {
    const log: string[] = [];
    const { result } = (await run(snippets[3]!, log)) as { result: { content: unknown } };
    expect(log[0]).toBe("Allow tool 'deploy' to run? Its arguments (2 characters of JSON):\n(none)");
    expect(result.content).toEqual([{ type: 'text', text: 'deployed' }]);
  });

  it('the HTTP snippet serves on 127.0.0.1:<port>/mcp (port 3000 in the docs, any free port here)', async () => {
    const log: string[] = [];
    expect(snippets[4]).toContain('{ port: 3000 }');
    const { endpoint } = (await run(snippets[4]!.replace('{ port: 3000 }', '{ port: 0 }'), log)) as { endpoint: McpHttpEndpoint };
    try {
      expect(log).toEqual([`MCP server on ${endpoint.url}`]);
      expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const client = new Client({ name: 'docs', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
      expect(text(await client.callTool({ name: 'hello', arguments: {} }))).toBe('hello');
      await client.close();
    } finally {
      await endpoint.close();
    }
  });

  it('the resumable-streams snippet serves with an event store and closes', async () => {
    const { resumable } = (await run(snippets[5]!)) as { resumable: McpHttpEndpoint };
    expect(resumable.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(resumable.httpServer.listening).toBe(false);
  });

  it('the skills snippet serves each skill as a prompt', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-doc-skills-'));
    try {
      mkdirSync(join(dir, 'triage'));
      writeFileSync(join(dir, 'triage', 'SKILL.md'), '---\nname: triage\ndescription: Triage issues.\n---\nLabel first.\n');
      expect(snippets[6]).toContain("'./skills'");
      const { server } = (await run(snippets[6]!.replace("'./skills'", JSON.stringify(dir)))) as { server: McpServer };
      const client = await connect(server);
      expect((await client.listPrompts()).prompts).toEqual([{ name: 'triage', description: 'Triage issues.' }]);
      expect((await client.getPrompt({ name: 'triage' })).messages[0]!.content).toEqual({ type: 'text', text: 'Label first.' });
      await client.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
