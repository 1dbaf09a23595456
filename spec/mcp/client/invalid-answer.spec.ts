/**
 * A server that answers a `tools/call` with something that is not a valid result: the call fails with that reason
 * (it may have run), and the connection is not treated as lost, so calls in flight beside it complete. On both SDK
 * lines; beside it, a call whose connection breaks while the server holds it is one that may or may not have run.
 * The SDK servers never send such a result (they check their own), so the server is a minimal Streamable HTTP
 * endpoint of 2025-11-25 in JSON-response mode, written here, on loopback.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Tools } from '../../../lib';
import { McpClientTools } from '../../../lib/mcp';
import { recordingLogger } from './support';

const tool = (name: string) => ({ name, description: `Tool ${name}.`, inputSchema: { type: 'object', properties: {} } });

/** The result of one JSON-RPC request: `bad` answers content that is not an array; `slow` answers after 100 ms. */
async function answer(method: string, params: { name?: string } | undefined): Promise<object | undefined> {
  if (method === 'initialize') return { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'odd', version: '1.0.0' } };
  if (method === 'tools/list') return { tools: [tool('bad'), tool('slow'), tool('drop')] };
  if (method === 'tools/call' && params?.name === 'bad') return { content: 'not a list' };
  if (method === 'tools/call') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    return { content: [{ type: 'text', text: 'slow done' }] };
  }
  return undefined;
}

function oddServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const message = JSON.parse(body) as { id?: number; method: string; params?: { name?: string } };
      if (message.id === undefined) return void res.writeHead(202).end();
      if (message.params?.name === 'drop') return void req.socket.destroy(); // the connection breaks mid-call
      void answer(message.method, message.params).then((result) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(result === undefined ? { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } } : { jsonrpc: '2.0', id: message.id, result }));
      });
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server })));
}

describe.each([1, 2] as const)('McpClientTools (SDK %s): a result that is not valid', (sdk) => {
  let endpoint: { url: string; server: Server };
  beforeAll(async () => (endpoint = await oddServer()));
  afterAll(() => new Promise((resolve) => endpoint.server.close(resolve)));

  it('fails that call with the reason and leaves the connection (and a call in flight beside it) alone', async () => {
    const tools = new Tools();
    const logger = recordingLogger();
    const mcp = await McpClientTools.connect(tools, { name: 'odd', sdk, url: endpoint.url, logger });
    try {
      const client = mcp.client;
      const [bad, slow] = await Promise.all([tools.execute('mcp__odd__bad', {}), tools.execute('mcp__odd__slow', {})]);
      expect(bad.ok).toBe(false);
      expect(bad.ok ? '' : bad.error).toMatch(/^MCP server 'odd' answered tool 'bad' with an invalid result \(.+\)\. It may have run; check before retrying\./);
      expect(slow).toMatchObject({ ok: true, result: 'slow done' });
      expect(mcp.isConnected).toBe(true);
      expect(mcp.client).toBe(client);
      expect(logger.lines.filter((line) => line.includes('reconnecting'))).toEqual([]);
    } finally {
      await mcp.close();
    }
  });

  it('tells a call whose connection broke in flight that it may or may not have run', async () => {
    const tools = new Tools();
    const mcp = await McpClientTools.connect(tools, { name: 'odd', sdk, url: endpoint.url, logger: recordingLogger(), reconnect: { maxAttempts: 1, delayMs: 1 } });
    try {
      const dropped = await tools.execute('mcp__odd__drop', {});
      expect(dropped.ok ? '' : dropped.error).toMatch(/^The connection to MCP server 'odd' was lost during the call .*It may or may not have run; check before retrying\./);
    } finally {
      await mcp.close();
    }
  });
});
