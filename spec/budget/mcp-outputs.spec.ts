/**
 * Output budgets and resource links over MCP with the official SDK on the other side: a served registry's cut result
 * carries a `resource_link` the SDK's Client accepts and reads back with `resources/read`; a remote `resource_link`
 * comes back as a link; every provider payload of a link result is typed with its SDK's type.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import type { FunctionResponse } from '@google/genai' with { 'resolution-mode': 'import' };
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolResultSchema, type CallToolResult, type ResourceLink as SdkResourceLink } from '@modelcontextprotocol/sdk/types.js';
import type { ChatCompletionToolMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { ActionResult, CoreError, LinkedContent, ResourceLink, Tools, isLinkedContent, isResourceLink } from '../../lib';
import { anthropicToolResult } from '../../lib/providers/anthropic';
import { geminiFunctionResponse } from '../../lib/providers/gemini';
import { mcpToolResult } from '../../lib/providers/mcp';
import { openAIChatToolMessage, openAIResponsesToolOutput } from '../../lib/providers/openai';
import { McpClientTools, mcpToolOutput, serveTools, TOOL_OUTPUTS_RESOURCE } from '../../lib/mcp';
import { LocalWorkspace } from '../../lib/workspace';

const quiet = () => ({ warn: jest.fn(), error: jest.fn() });
let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mcp-budget-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function connect(server: McpServer): Promise<Client> {
  const client = new Client({ name: 'spec', version: '1' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  return client;
}

const full = Array.from({ length: 4000 }, (_, i) => `log line ${i}`).join('\n');

function servedRegistry() {
  const tools = new Tools({ outputBudget: { maxChars: 2000, workspace: new LocalWorkspace(dir) }, logger: quiet() });
  tools.action({ name: 'logs', description: 'Logs.' }, () => full);
  tools.action({ name: 'short', description: 'Short.' }, () => 'fits');
  const server = new McpServer({ name: 'budgets', version: '1' });
  server.registerResource('readme', 'docs://readme', { mimeType: 'text/plain' }, (uri) => ({ contents: [{ uri: uri.href, text: 'the user\'s own resource' }] }));
  const served = serveTools(server, tools);
  return { tools, server, served };
}

describe('output budgets over MCP (served registry, SDK Client)', () => {
  it('a cut result is its text plus a resource_link, and resources/read answers the full text', async () => {
    const { server } = servedRegistry();
    const client = await connect(server);
    const result = (await client.callTool({ name: 'logs', arguments: {} }, CallToolResultSchema)) as CallToolResult;
    expect(result.isError).toBe(false);
    expect(result.content).toHaveLength(2);
    const [text, link] = result.content as [{ type: 'text'; text: string }, SdkResourceLink];
    expect(text.type).toBe('text');
    expect(text.text).toHaveLength(2000);
    expect(text.text.startsWith('log line 0\n')).toBe(true);
    expect(link).toMatchObject({ type: 'resource_link', mimeType: 'text/plain', title: 'Full output of logs', uri: expect.stringMatching(/^tool-output:\/\/logs-\d+-[0-9a-f-]{36}-[0-9a-f]{32}\.txt$/) });
    expect(link.name).toBe(link.uri.slice('tool-output://'.length));
    const read = await client.readResource({ uri: link.uri });
    expect(read.contents).toEqual([{ uri: link.uri, mimeType: 'text/plain', text: full }]);
    expect((await client.callTool({ name: 'short', arguments: {} })).content).toEqual([{ type: 'text', text: 'fits' }]);
    await client.close();
  });

  it('coexists with the user\'s own resources, lists no saved outputs, and refuses other URIs of its scheme', async () => {
    const { server } = servedRegistry();
    const client = await connect(server);
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['docs://readme']);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([expect.objectContaining({ name: TOOL_OUTPUTS_RESOURCE, uriTemplate: 'tool-output://{id}' })]);
    expect((await client.readResource({ uri: 'docs://readme' })).contents[0]).toMatchObject({ text: 'the user\'s own resource' });
    for (const uri of ['tool-output://missing.txt', 'tool-output://..%2F..%2Fsecret.txt', 'tool-output://x/../../etc/passwd']) {
      await expect(client.readResource({ uri })).rejects.toThrow(/not found/);
    }
    await client.close();
  });

  it('registers nothing without a workspace, and close() takes the template off', async () => {
    const plain = new Tools({ outputBudget: { maxChars: 100 }, logger: quiet() });
    plain.action({ name: 'x', description: 'X.' }, () => 'x'.repeat(500));
    const server = new McpServer({ name: 'plain', version: '1' });
    serveTools(server, plain);
    const client = await connect(server);
    expect(client.getServerCapabilities()?.resources).toBeUndefined();
    expect(((await client.callTool({ name: 'x', arguments: {} })) as CallToolResult).content).toHaveLength(1);
    await client.close();
    const { server: withOutputs, served } = servedRegistry();
    served.close();
    const after = await connect(withOutputs);
    expect((await after.listResourceTemplates()).resourceTemplates).toEqual([]);
    await after.close();
  });

  it('a tool returning ActionResult.resourceLink sends resource_link blocks the SDK accepts', async () => {
    const tools = new Tools({ logger: quiet() });
    tools.action({ name: 'report', description: 'Report.' }, () =>
      ActionResult.resourceLink([{ uri: 'https://example.com/r.pdf', name: 'r.pdf', mimeType: 'application/pdf', size: 1234, description: 'The report' }, { uri: 'file:///tmp/a.csv', name: 'a.csv', title: 'Data' }]),
    );
    const server = new McpServer({ name: 'links', version: '1' });
    serveTools(server, tools);
    const client = await connect(server);
    const result = (await client.callTool({ name: 'report', arguments: {} }, CallToolResultSchema)) as CallToolResult;
    expect(result.content).toEqual([
      { type: 'text', text: "Resource 'r.pdf' at https://example.com/r.pdf (application/pdf): The report\nResource 'Data' at file:///tmp/a.csv" },
      { type: 'resource_link', uri: 'https://example.com/r.pdf', name: 'r.pdf', mimeType: 'application/pdf', size: 1234, description: 'The report' },
      { type: 'resource_link', uri: 'file:///tmp/a.csv', name: 'a.csv', title: 'Data' },
    ]);
    await client.close();
  });
});

describe('resource links from a remote MCP server (client adapter)', () => {
  it('turns text and resource_link blocks into a LinkedContent that is served again as links', async () => {
    const remote = new McpServer({ name: 'files', version: '1' });
    remote.registerTool('find', { description: 'Find.' }, () => ({
      content: [
        { type: 'text', text: 'Found one file.' },
        { type: 'resource_link', uri: 'file:///srv/a.txt', name: 'a.txt', mimeType: 'text/plain', size: 12, title: 'A' },
      ],
    }));
    remote.registerTool('bare', { description: 'Bare.' }, () => ({ content: [{ type: 'resource_link', uri: 'file:///srv/b.txt', name: 'b.txt' }] }));
    const tools = new Tools({ logger: quiet() });
    const mcp = await McpClientTools.connect(tools, { name: 'files', client: await connect(remote) });
    const found = await tools.execute('mcp__files__find', {});
    expect(isLinkedContent(found.result)).toBe(true);
    const value = found.result as LinkedContent;
    expect(value.text).toBe('Found one file.');
    expect(value.links.map((link) => link.toJSON())).toEqual([{ type: 'resource_link', uri: 'file:///srv/a.txt', name: 'a.txt', mimeType: 'text/plain', size: 12, title: 'A' }]);
    expect(mcpToolResult(found).content).toEqual([{ type: 'text', text: 'Found one file.' }, value.links[0]!.toJSON()]);
    const bare = await tools.execute('mcp__files__bare', {});
    expect(mcpToolResult(bare).content).toEqual([{ type: 'resource_link', uri: 'file:///srv/b.txt', name: 'b.txt' }]);
    await mcp.close();
  });

  it('keeps the other mappings: a link beside media, a link without a uri, structured content', () => {
    const mixed = mcpToolOutput({ content: [{ type: 'resource_link', uri: 'file:///a', name: 'a' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] }, 's', 't');
    expect(isLinkedContent(mixed)).toBe(false);
    expect(isLinkedContent(mcpToolOutput({ content: [{ type: 'resource_link', name: 'no uri' }] }, 's', 't'))).toBe(false);
    expect(mcpToolOutput({ content: [{ type: 'text', text: '{"a":1}' }, { type: 'resource_link', uri: 'file:///a', name: 'a' }], structuredContent: { a: 1 } }, 's', 't')).not.toBeInstanceOf(LinkedContent);
    const named = mcpToolOutput({ content: [{ type: 'resource_link', uri: 'file:///a', name: '', size: -1, title: 3 }] }, 's', 't') as LinkedContent;
    expect(named.links[0]!.toJSON()).toEqual({ type: 'resource_link', uri: 'file:///a', name: 'file:///a' });
  });
});

describe('resource-link results in every provider format', () => {
  const result = ActionResult.resourceLink({ uri: 'tool-output://x.txt', name: 'x.txt', mimeType: 'text/plain' }, 'The head ... the tail');

  it('MCP: the text then a resource_link (typed as the SDK\'s CallToolResult)', () => {
    const mcp = mcpToolResult(result) satisfies CallToolResult;
    expect(mcp).toEqual({ content: [{ type: 'text', text: 'The head ... the tail' }, { type: 'resource_link', uri: 'tool-output://x.txt', name: 'x.txt', mimeType: 'text/plain' }], isError: false });
    expect(CallToolResultSchema.parse(mcp)).toEqual(mcp);
  });

  it('OpenAI, Anthropic and Gemini: the text only', () => {
    expect(openAIChatToolMessage('c1', result) satisfies ChatCompletionToolMessageParam).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'The head ... the tail' });
    expect(openAIResponsesToolOutput('c1', result) satisfies ResponseInputItem.FunctionCallOutput).toEqual({ type: 'function_call_output', call_id: 'c1', output: 'The head ... the tail' });
    expect(anthropicToolResult('t1', result) satisfies Anthropic.ToolResultBlockParam).toMatchObject({ tool_use_id: 't1', content: 'The head ... the tail' });
    expect(geminiFunctionResponse({ id: 'g1', name: 'dump', args: {} }, result).functionResponse satisfies FunctionResponse).toEqual({ id: 'g1', name: 'dump', response: { output: 'The head ... the tail' } });
  });

  it('checks the links it is given', () => {
    expect(() => ActionResult.resourceLink({ uri: '', name: 'x' })).toThrow(CoreError);
    expect(() => ActionResult.resourceLink({ uri: 'a:b', name: 5 as never })).toThrow(/non-empty string 'name'/);
    expect(() => ActionResult.resourceLink({ uri: 'a:b', name: 'x', mimeType: 1 as never })).toThrow(/'mimeType' must be a string/);
    expect(() => ActionResult.resourceLink({ uri: 'a:b', name: 'x', size: -1 })).toThrow(/'size'/);
    expect(() => ActionResult.resourceLink(null as never)).toThrow(CoreError);
    const link = new ResourceLink({ uri: 'a:\uD800', name: 'n' });
    expect(link.uri).toBe('a:\uFFFD');
    expect(isResourceLink(ActionResult.resourceLink(link).result!.links[0])).toBe(true);
    expect(isResourceLink({})).toBe(false);
    expect(isLinkedContent(null)).toBe(false);
    expect(JSON.stringify(ActionResult.resourceLink(link).result)).toBe('{"text":"Resource \'n\' at a:\uFFFD","links":[{"type":"resource_link","uri":"a:\uFFFD","name":"n"}]}');
  });
});
