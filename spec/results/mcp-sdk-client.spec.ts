/**
 * The new result and listing features through the official MCP SDK: a real `McpServer` serving a registry and a real
 * `Client` (which parses every message with the SDK's schemas and checks `structuredContent` against `outputSchema`).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Type } from '@sinclair/typebox';
import { ActionResult, BLANK_FAILURE_TEXT, Tools } from '../../lib';
import { mcpCallTool, mcpListTools } from '../../lib/providers/mcp';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function connect(tools: Tools): Promise<Client> {
  const server = new McpServer({ name: 'agenttoolkit-test', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.server.setRequestHandler(ListToolsRequestSchema, () => mcpListTools(tools));
  server.server.setRequestHandler(CallToolRequestSchema, (request) => mcpCallTool(tools, request.params));
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientTransport);
  return client;
}

function registry(): Tools {
  const tools = new Tools({ logger: { warn: jest.fn(), error: jest.fn() } });
  const Order = Type.Object({ id: Type.String(), total: Type.Number() });
  const Params = Type.Object({ id: Type.String() });
  tools.action(
    { name: 'get_order', description: 'Get an order.', params: Params, returns: Order, title: 'Get order', icons: [{ src: 'https://example.com/o.png', sizes: ['32x32'] }], meta: { 'example.com/v': 2 }, effects: [] },
    ({ id }) => (id === 'broken' ? { id } : { id, total: 5 }),
  );
  tools.action({ name: 'screenshot', description: 'Screenshot.', params: Type.Object({}), effects: [] }, () => new Uint8Array(PNG));
  tools.action({ name: 'recording', description: 'Recording.', params: Type.Object({}), effects: [] }, () => ActionResult.file(Buffer.from('ID3\u0004\u0000'), undefined, 'a.mp3'));
  tools.action({ name: 'archive', description: 'Archive.', params: Type.Object({}), effects: [] }, () => ActionResult.file(Buffer.from([1, 2, 3]), undefined, 'a b.bin'));
  tools.action({ name: 'blank', description: 'Fails blank.', params: Type.Object({}), effects: [] }, () => ActionResult.fail(''));
  return tools;
}

describe('MCP SDK client: listing features and results', () => {
  it('lists title, icons, _meta and outputSchema, and the client accepts structuredContent against it', async () => {
    const client = await connect(registry());
    const { tools } = await client.listTools();
    expect(tools[0]).toMatchObject({
      name: 'get_order',
      title: 'Get order',
      icons: [{ src: 'https://example.com/o.png', sizes: ['32x32'] }],
      _meta: { 'example.com/v': 2 },
      outputSchema: { type: 'object', required: ['id', 'total'], properties: { id: { type: 'string' }, total: { type: 'number' } } },
    });
    expect(await client.callTool({ name: 'get_order', arguments: { id: 'o-1' } })).toEqual({
      content: [{ type: 'text', text: '{"id":"o-1","total":5}' }],
      structuredContent: { id: 'o-1', total: 5 },
      isError: false,
    });
    const broken = await client.callTool({ name: 'get_order', arguments: { id: 'broken' } });
    expect(broken).toEqual({ content: [{ type: 'text', text: "Tool 'get_order' failed: its result does not match the output schema it declares (a bug in the tool, not in your arguments)." }], isError: true });
    await client.close();
  });

  it('sends image, audio and embedded resource content, and never a blank error', async () => {
    const client = await connect(registry());
    await client.listTools();
    expect(await client.callTool({ name: 'screenshot', arguments: {} })).toEqual({ content: [{ type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' }], isError: false });
    expect(await client.callTool({ name: 'recording', arguments: {} })).toEqual({ content: [{ type: 'audio', data: Buffer.from('ID3\u0004\u0000').toString('base64'), mimeType: 'audio/mpeg' }], isError: false });
    expect(await client.callTool({ name: 'archive', arguments: {} })).toEqual({
      content: [{ type: 'resource', resource: { uri: 'attachment:a%20b.bin', mimeType: 'application/octet-stream', blob: 'AQID' } }],
      isError: false,
    });
    expect(await client.callTool({ name: 'blank', arguments: {} })).toEqual({ content: [{ type: 'text', text: BLANK_FAILURE_TEXT }], isError: true });
    await client.close();
  });
});
