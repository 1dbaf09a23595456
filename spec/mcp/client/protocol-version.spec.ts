/** `McpClientTools.protocolVersion`: the revision each SDK line negotiated with one SDK v2 endpoint, gone after close. */
import 'reflect-metadata';
import { McpServer } from '@modelcontextprotocol/server';
import { Tools } from '../../../lib';
import { McpClientTools, serveHttp, serveTools, type McpHttpEndpoint } from '../../../lib/mcp';

describe('McpClientTools.protocolVersion', () => {
  let endpoint: McpHttpEndpoint;
  beforeAll(async () => {
    const served = new Tools();
    served.action({ name: 'ping', description: 'Ping.', params: { type: 'object', properties: {} } }, () => 'pong');
    endpoint = await serveHttp(() => {
      const server = new McpServer({ name: 'v', version: '1' });
      serveTools(server, served);
      return server;
    });
  });
  afterAll(() => endpoint.close());

  it.each([
    [2, '2026-07-28'],
    [1, '2025-11-25'],
  ] as const)('is the negotiated revision on SDK %s, and undefined once closed', async (sdk, revision) => {
    const remote = await McpClientTools.connect(new Tools(), { name: 'v', url: endpoint.url, sdk });
    expect(remote.protocolVersion).toBe(revision);
    await remote.close();
    expect(remote.protocolVersion).toBeUndefined();
  });
});
