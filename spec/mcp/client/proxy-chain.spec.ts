/**
 * The proxy chain with every hop on one protocol revision, and one bridging the two: a remote server, our
 * `McpClientTools` consuming it, our `serveTools`/`serveHttp` serving the registry it fills, and an SDK client at the
 * end. 2025-11-25 all the way (SDK 1.x at each hop), 2026-07-28 all the way (SDK v2 at each hop), and a 2025-11-25
 * remote served on to a 2026-07-28 client. Each hop's revision is checked, and a call's arguments and answer travel
 * the whole chain. Real SDKs over Streamable HTTP on loopback.
 */
import 'reflect-metadata';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer } from '@modelcontextprotocol/server';
import { BillingTools } from '../../../examples/mcp-server';
import { Tools } from '../../../lib';
import { McpClientTools, serveHttp, serveTools, type McpHttpEndpoint } from '../../../lib/mcp';

type Line = 1 | 2;
const text = (result: unknown) => ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? '');

/** `tools` served over HTTP on an `McpServer` of SDK `line`. */
function endpoint(tools: Tools, line: Line): Promise<McpHttpEndpoint> {
  return serveHttp(() => {
    const server = line === 2 ? new McpServer({ name: 'hop', version: '1.0.0' }) : new V1McpServer({ name: 'hop', version: '1.0.0' });
    serveTools(server as never, tools);
    return server as never;
  });
}

/** What the hop from our client to the remote negotiated. */
function revisionOf(mcp: McpClientTools): string | undefined {
  const client = mcp.client as V2Client | V1Client;
  if (client instanceof V2Client) return client.getProtocolEra() === 'modern' ? '2026-07-28' : client.getNegotiatedProtocolVersion?.();
  return (client.transport as V1HttpTransport | undefined)?.protocolVersion;
}

describe.each([
  ['2025-11-25 all the way', 1, 1, 1, '2025-11-25', '2025-11-25'],
  ['2026-07-28 all the way', 2, 2, 2, '2026-07-28', '2026-07-28'],
  ['a 2025-11-25 remote served on to a 2026-07-28 client', 1, 2, 2, '2025-11-25', '2026-07-28'],
] as const)('the proxy chain, %s', (_name, remoteLine, ourLine, endLine, upstreamRevision, downstreamRevision) => {
  it('lists the remote tools at the end and relays a call with its arguments and answer', async () => {
    const remote = await endpoint(new Tools().register(new BillingTools()), remoteLine);
    const proxyTools = new Tools();
    const upstream = await McpClientTools.connect(proxyTools, { name: 'up', url: remote.url, sdk: ourLine });
    const proxy = await endpoint(proxyTools, ourLine);
    const end = endLine === 2 ? new V2Client({ name: 'end', version: '1' }, { versionNegotiation: { mode: 'auto' } }) : new V1Client({ name: 'end', version: '1' });
    try {
      expect(revisionOf(upstream)).toBe(upstreamRevision);
      if (end instanceof V2Client) {
        await end.connect(new V2HttpTransport(new URL(proxy.url)));
        expect(end.getProtocolEra()).toBe('modern');
      } else {
        const transport = new V1HttpTransport(new URL(proxy.url));
        await end.connect(transport);
        expect(transport.protocolVersion).toBe(downstreamRevision);
      }
      expect((await end.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['mcp__up__getOrder', 'mcp__up__refund']);
      const answer = await end.callTool({ name: 'mcp__up__getOrder', arguments: { orderId: 'chain-1' } });
      expect(JSON.parse(text(answer))).toEqual({ orderId: 'chain-1', total: 42 });
      const refused = await end.callTool({ name: 'mcp__up__getOrder', arguments: { orderId: 7 } });
      expect(refused.isError).toBe(true);
    } finally {
      await end.close();
      await proxy.close();
      await upstream.close();
      await remote.close();
    }
  });
});
