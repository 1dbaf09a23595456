import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Type } from '@sinclair/typebox';
import { mcpCallTool, mcpListTools } from '../../lib/providers/mcp';
import { ToolEffect, Tools } from '../../lib';

/** An MCP server backed by a Tools registry, and a real MCP client connected to it in memory. */
async function connect(tools: Tools, approve?: () => boolean): Promise<Client> {
  const server = new McpServer({ name: 'agenttoolkit-test', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.server.setRequestHandler(ListToolsRequestSchema, () => mcpListTools(tools));
  server.server.setRequestHandler(CallToolRequestSchema, (request) => mcpCallTool(tools, request.params, { approve }));
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientTransport);
  return client;
}

function registry(): Tools {
  const tools = new Tools({ logger: { warn: jest.fn(), error: jest.fn() } });
  const Point = Type.Object({ x: Type.Number(), y: Type.Number() });
  tools.action({ name: 'distance', description: 'Distance between two points.', params: Type.Object({ from: Point, to: Point, unit: Type.Optional(Type.String({ default: 'm' })) }), effects: [] }, ({ from, to, unit }) => ({
    distance: Math.hypot(to.x - from.x, to.y - from.y),
    unit,
  }));
  tools.action({ name: 'fetch_page', description: 'Fetch a page.', params: Type.Object({ url: Type.String({ format: 'uri' }) }), effects: [ToolEffect.NETWORK] }, ({ url }) => `<html>${url}</html>`);
  tools.action({ name: 'delete_file', description: 'Delete a file.', params: Type.Object({ path: Type.String() }), effects: [ToolEffect.WRITES_WORKSPACE], requiresApproval: true }, () => 'deleted');
  tools.action({ name: 'explode', description: 'Always fails.' }, () => {
    throw new Error('boom');
  });
  return tools;
}

describe('MCP: our tools served to the official MCP client', () => {
  it('lists the tools with inputSchema and annotations derived from effects and approval', async () => {
    const client = await connect(registry());
    const { tools } = await client.listTools();
    expect(tools.map((tool) => [tool.name, tool.annotations])).toEqual([
      ['distance', { readOnlyHint: true, openWorldHint: false }],
      ['fetch_page', { readOnlyHint: false, openWorldHint: true }],
      ['delete_file', { readOnlyHint: false, openWorldHint: false, destructiveHint: true }],
      // No declared effects: unknown, so no openWorldHint (MCP's default for an absent hint is true).
      ['explode', { readOnlyHint: false }],
    ]);
    expect(tools[0]!.inputSchema).toMatchObject({ type: 'object', required: ['from', 'to'], properties: { unit: { type: 'string', default: 'm' } } });
    expect(tools[3]!.inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    await client.close();
  });

  it('calls a tool: structured content, defaults applied, nulls of omitted fields stripped', async () => {
    const client = await connect(registry());
    const result = await client.callTool({ name: 'distance', arguments: { from: { x: 0, y: 0 }, to: { x: 3, y: 4 }, unit: null } });
    expect(result).toEqual({ content: [{ type: 'text', text: '{"distance":5,"unit":"m"}' }], structuredContent: { distance: 5, unit: 'm' }, isError: false });
    await client.close();
  });

  it('reports invalid arguments, failures, unknown tools and declined calls as results with isError, not protocol errors', async () => {
    const client = await connect(registry(), () => false);
    const invalid = await client.callTool({ name: 'fetch_page', arguments: { url: 'nope' } });
    expect(invalid).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/url: must match format "uri"/) }] });
    expect(await client.callTool({ name: 'explode', arguments: {} })).toMatchObject({ isError: true, content: [{ text: "Tool 'explode' failed: boom" }] });
    expect(await client.callTool({ name: 'nope' })).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^Unknown tool 'nope'/) }] });
    expect(await client.callTool({ name: 'delete_file', arguments: { path: 'a' } })).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/declined/) }] });
    await client.close();
  });

  it('declines calls that need approval when no approval step is configured', async () => {
    const client = await connect(registry());
    const result = await client.callTool({ name: 'delete_file', arguments: { path: 'a' } });
    expect(result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/needs approval and no approval step is configured/) }] });
    await client.close();
  });
});
