import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolResultSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { ToolSchemaFormat } from '../../lib';
import { CODE_MODE_CALL, CodeMode, type CodeModeCallEvent } from '../../lib/code-mode';
import { serveTools } from '../../lib/mcp';
import { registry } from './support';

jest.setTimeout(60_000);

describe('run_code through the adapters', () => {
  it('is served over MCP, each nested call reported as progress', async () => {
    const { tools } = registry();
    tools.register(new CodeMode(tools, { expose: ['add'] }).tool());
    const server = new McpServer({ name: 'code', version: '1.0.0' });
    serveTools(server, tools);
    const client = new Client({ name: 'spec', version: '1.0.0' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    await client.connect(b);
    const listed = await client.listTools();
    const runCode = listed.tools.find((tool) => tool.name === 'run_code');
    expect(runCode?.inputSchema).toEqual(expect.objectContaining({ required: ['code'] }));
    expect(runCode?.description).toContain('add(args: {');
    const progress: Progress[] = [];
    const result = await client.callTool({ name: 'run_code', arguments: { code: 'const x = await tools.add({ a: 1, b: 2 });\nreturn await tools.add({ a: x, b: 10 });' } }, CallToolResultSchema, { onprogress: (p) => progress.push(p) });
    expect(result.isError).toBeFalsy();
    expect((result.content as Array<{ text: string }>)[0]!.text).toBe('13');
    expect(progress.map((p) => p.message).filter((m) => m?.startsWith('add'))).toEqual(['add: running', 'add: ok', 'add: running', 'add: ok']);
    await client.close();
  });

  it('streams a content-less chunk per nested call event through tools.stream, the result unchanged', async () => {
    const { tools } = registry();
    tools.register(new CodeMode(tools).tool());
    const stream = tools.stream('run_code', { code: 'try { await tools.add({ a: "x" }) } catch (e) {}\nreturn await tools.add({ a: 1, b: 1 })' });
    const events: CodeModeCallEvent[] = [];
    for await (const chunk of stream) if (chunk.metadata[CODE_MODE_CALL] !== undefined) events.push(chunk.metadata[CODE_MODE_CALL] as CodeModeCallEvent);
    expect(events.map((e) => `${e.tool} ${e.status}`)).toEqual(['add running', 'add failed', 'add running', 'add ok']);
    expect(events[0]!.callId).toMatch(/^add-\d+-1$/);
    expect(await stream.result).toEqual(expect.objectContaining({ ok: true, result: '2' }));
  });

  it('fails as a result, not a throw, through tools.execute when the program throws', async () => {
    const { tools } = registry();
    tools.register(new CodeMode(tools).tool());
    const result = await tools.execute('run_code', { code: 'throw new Error("nope")' });
    expect(result).toEqual(expect.objectContaining({ ok: false, error: 'The program failed at line 1: Error: nope' }));
  });

  it('is listed in every provider format like any tool', () => {
    const { tools } = registry();
    tools.register(new CodeMode(tools).tool());
    for (const format of [ToolSchemaFormat.OPENAI, ToolSchemaFormat.ANTHROPIC, ToolSchemaFormat.GEMINI]) {
      expect(JSON.stringify(tools.getSchema(format))).toContain('run_code');
    }
  });
});
