/**
 * Resumable Streamable HTTP streams: `serveHttp({ eventStore })` with `McpMemoryEventStore`, and a tool that closes its
 * call's stream (`McpRequest.closeSseStream()`) so the official SDK client reconnects with Last-Event-ID and gets the
 * result then.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Type } from '@sinclair/typebox';
import { Tools } from '../../../lib';
import { McpMemoryEventStore, McpRequest, serveHttp, serveTools } from '../../../lib/mcp';

const message = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } });

describe('McpMemoryEventStore', () => {
  it('replays the events of the same stream after an id, in order, and nothing for an unknown id', async () => {
    const store = new McpMemoryEventStore();
    const a1 = await store.storeEvent('a', message(1));
    await store.storeEvent('b', message(2));
    const a3 = await store.storeEvent('a', message(3));
    await store.storeEvent('a', message(4));
    expect(await store.getStreamIdForEventId(a1)).toBe('a');
    const sent: Array<[string, JSONRPCMessage]> = [];
    const send = async (id: string, m: JSONRPCMessage) => void sent.push([id, m]);
    expect(await store.replayEventsAfter(a1, { send })).toBe('a');
    expect(sent.map(([, m]) => (m as unknown as { params: { data: number } }).params.data)).toEqual([3, 4]);
    expect(sent[0]![0]).toBe(a3);
    sent.length = 0;
    expect(await store.replayEventsAfter('a_unknown', { send })).toBe('');
    expect(sent).toEqual([]);
    expect(await store.getStreamIdForEventId('a_unknown')).toBeUndefined();
  });

  it('keeps at most maxEvents, dropping the oldest', async () => {
    const store = new McpMemoryEventStore(2);
    const first = await store.storeEvent('s', message(1));
    const second = await store.storeEvent('s', message(2));
    await store.storeEvent('s', message(3));
    expect(await store.getStreamIdForEventId(first)).toBeUndefined();
    const sent: number[] = [];
    await store.replayEventsAfter(second, { send: async (_id, m) => void sent.push((m as unknown as { params: { data: number } }).params.data) });
    expect(sent).toEqual([3]);
  });
});

function pollingTools(closed: boolean[]): Tools {
  const tools = new Tools({ logger: { warn: () => undefined, error: () => undefined } });
  tools.action({ name: 'long_job', description: 'Closes its stream, then answers.', params: Type.Object({}), effects: [], inject: { mcp: McpRequest } }, async (_params, { mcp }) => {
    await mcp.log('info', 'started');
    closed.push(mcp.closeSseStream());
    await new Promise((resolve) => setTimeout(resolve, 150));
    return 'finished after the client reconnected';
  });
  return tools;
}

describe('serveHttp with an event store: a tool closes its stream, the client reconnects and gets the result', () => {
  it('delivers the result after the stream closed mid-call (SDK client, Last-Event-ID)', async () => {
    const closed: boolean[] = [];
    const endpoint = await serveHttp(
      () => {
        const server = new McpServer({ name: 'polling', version: '1.0.0' });
        serveTools(server, pollingTools(closed));
        return server;
      },
      { eventStore: new McpMemoryEventStore(), retryIntervalMs: 50 },
    );
    try {
      const client = new Client({ name: 'spec', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url), { reconnectionOptions: { initialReconnectionDelay: 20, maxReconnectionDelay: 100, reconnectionDelayGrowFactor: 1.5, maxRetries: 5 } }));
      const result = await client.callTool({ name: 'long_job', arguments: {} });
      expect(result).toMatchObject({ content: [{ type: 'text', text: 'finished after the client reconnected' }], isError: false });
      expect(closed).toEqual([true]);
      await client.close();
    } finally {
      await endpoint.close();
    }
  });

  it('closeSseStream() is false where the transport cannot close a stream (in memory; HTTP without an event store), and the call goes on', async () => {
    const closed: boolean[] = [];
    const server = new McpServer({ name: 'memory', version: '1.0.0' });
    serveTools(server, pollingTools(closed));
    const client = new Client({ name: 'spec', version: '1.0.0' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    await client.connect(b);
    expect(await client.callTool({ name: 'long_job', arguments: {} })).toMatchObject({ isError: false });
    await client.close();

    const endpoint = await serveHttp(() => {
      const s = new McpServer({ name: 'plain', version: '1.0.0' });
      serveTools(s, pollingTools(closed));
      return s;
    });
    try {
      const http = new Client({ name: 'spec', version: '1.0.0' });
      await http.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
      expect(await http.callTool({ name: 'long_job', arguments: {} })).toMatchObject({ isError: false });
      await http.close();
    } finally {
      await endpoint.close();
    }
    expect(closed).toEqual([false, false]);
  });
});
