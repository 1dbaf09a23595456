/**
 * Sessions of one `serveHttp` endpoint kept apart and kept bounded, on both SDK lines: a client that sends
 * `initialize` and hangs up leaves no session that outlives the idle timeout (it used to hold a slot of the cap for
 * good), and one shared `eventStore` replays to a session only what its own server sent (both SDKs name every
 * session's standalone stream `_GET_stream`, so a client replayed another session's messages with its own event id).
 */
import 'reflect-metadata';
import { connect } from 'node:net';
import { request } from 'node:http';
import { McpServer as McpServer1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as McpServer2, OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import { Tools } from '../../../lib';
import { McpMemoryEventStore, serveHttp, serveTools, type McpHttpEndpoint, type ServeHttpOptions } from '../../../lib/mcp';
import { sessionEventStore } from '../../../lib/mcp/server/session-event-store';

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
const INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

interface Sent {
  send(message: unknown): Promise<void>;
}

function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; sessionId: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { ...JSON_HEADERS, ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, sessionId: String(res.headers['mcp-session-id']) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A standalone SSE stream (`GET`), read until its text contains `until`; then it is closed. */
function streamUntil(url: string, headers: Record<string, string>, until: string): Promise<string> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname: target.hostname, port: target.port, path: target.pathname, method: 'GET', headers: { Accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes(until)) {
          req.destroy();
          resolve(text);
        }
      });
    });
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.end();
  });
}

/** The transport the session's server is connected to (each SDK's `McpServer` keeps it on its low-level server). */
const transportOf = (server: unknown) => (server as { server: { transport: Sent } }).server.transport;

const LINES = [
  ['SDK 1.x', () => new McpServer1({ name: 'iso', version: '1' })],
  ['SDK v2', () => new McpServer2({ name: 'iso', version: '1' })],
] as const;

describe.each(LINES)('serveHttp on %s: sessions kept apart and bounded', (_line, make) => {
  const servers: unknown[] = [];
  let entered = 0;
  let gate: Promise<void> | undefined;
  let endpoint: McpHttpEndpoint | undefined;
  const start = async (options: ServeHttpOptions): Promise<McpHttpEndpoint> => {
    const tools = new Tools();
    endpoint = await serveHttp(async () => {
      entered++;
      await gate;
      const server = make();
      serveTools(server as never, tools);
      servers.push(server);
      return server as never;
    }, options);
    return endpoint;
  };
  afterEach(async () => {
    gate = undefined;
    entered = 0;
    servers.length = 0;
    await endpoint?.close();
  });
  const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

  it('expires the session of an initialize whose client hung up before the answer, so the cap frees again', async () => {
    const open = await start({ maxSessions: 3, idleTimeoutMs: 1000 });
    const before = entered;
    let release!: () => void;
    gate = new Promise((resolve) => (release = resolve));
    let closedOnServer = 0;
    open.httpServer.on('connection', (socket) => socket.once('close', () => closedOnServer++));
    const port = Number(new URL(open.url).port);
    const raw = `POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${INITIALIZE.length}\r\n\r\n${INITIALIZE}`;
    const sockets = Array.from({ length: 3 }, () => {
      const socket = connect(port, '127.0.0.1', () => socket.write(raw));
      socket.on('error', () => undefined);
      return socket;
    });
    // The race, made to happen: each initialize reached the factory, then its client hung up, then the factory went on.
    while (entered - before < 3) await tick();
    for (const socket of sockets) socket.resetAndDestroy();
    while (closedOnServer < 3) await tick();
    release();
    while (servers.length < 3 || open.sessions < 3) await tick();
    // Listed after their exchanges closed: before the fix they never expired and held the cap for good.
    while (open.sessions > 0) await tick();
    expect((await post(open.url, {}, INITIALIZE)).status).toBe(200);
  });

  it("replays to a session only its own server's messages from one shared eventStore", async () => {
    const open = await start({ eventStore: new McpMemoryEventStore() });
    const alice = await post(open.url, {}, INITIALIZE);
    const aliceServer = servers.at(-1);
    const bob = await post(open.url, {}, INITIALIZE);
    const bobServer = servers.at(-1);
    await post(open.url, { 'mcp-session-id': alice.sessionId }, INITIALIZED);
    await post(open.url, { 'mcp-session-id': bob.sessionId }, INITIALIZED);
    const note = (data: string) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data } });

    const first = streamUntil(open.url, { 'mcp-session-id': bob.sessionId }, 'BOB-FIRST');
    await new Promise((resolve) => setTimeout(resolve, 0));
    let seen = '';
    while (!seen.includes('BOB-FIRST')) {
      await transportOf(bobServer).send(note('BOB-FIRST'));
      seen = await Promise.race([first, new Promise<string>((resolve) => setTimeout(() => resolve(''), 50))]);
    }
    const lastEventId = /id: (\S+)/.exec(seen)![1]!;
    await transportOf(aliceServer).send(note('ALICE-SECRET'));
    await transportOf(bobServer).send(note('BOB-LATER'));
    const replayed = await streamUntil(open.url, { 'mcp-session-id': bob.sessionId, 'Last-Event-ID': lastEventId }, 'BOB-LATER');
    expect(replayed).not.toContain('ALICE-SECRET');
  });
});

describe('sessionEventStore', () => {
  it("keeps each session's streams apart in one store, and refuses another session's event id", async () => {
    const shared = new McpMemoryEventStore();
    const a = sessionEventStore<string>(shared as never);
    const b = sessionEventStore<string>(shared as never);
    const fromA = await a.storeEvent('_GET_stream', 'a1');
    const fromB = await b.storeEvent('_GET_stream', 'b1');
    await a.storeEvent('_GET_stream', 'a2');
    await b.storeEvent('_GET_stream', 'b2');
    expect(await a.getStreamIdForEventId!(fromA)).toBe('_GET_stream');
    expect(await b.getStreamIdForEventId!(fromA)).toBeUndefined();
    const sent: unknown[] = [];
    expect(await b.replayEventsAfter(fromB, { send: async (_id, message) => void sent.push(message) })).toBe('_GET_stream');
    expect(sent).toEqual(['b2']);
    await expect(b.replayEventsAfter(fromA, { send: async (_id, message) => void sent.push(message) })).rejects.toThrow(/another session/);
    expect(sent).toEqual(['b2']);
  });

  it('works with a store that cannot tell an event id its stream', async () => {
    const inner = new McpMemoryEventStore();
    const bare = { storeEvent: inner.storeEvent.bind(inner), replayEventsAfter: inner.replayEventsAfter.bind(inner) };
    const view = sessionEventStore<string>(bare as never);
    expect(view.getStreamIdForEventId).toBeUndefined();
    const other = sessionEventStore<string>(bare as never);
    const id = await other.storeEvent('s', 'x');
    await other.storeEvent('s', 'secret');
    const sent: unknown[] = [];
    await expect(view.replayEventsAfter(id, { send: async (_id, message) => void sent.push(message) })).rejects.toThrow(/another session/);
    expect(sent).toEqual([]);
  });
});

describe('serveHttp auth with a verifier that names no client', () => {
  it('answers 500 instead of leaving the request unanswered', async () => {
    const verifier = {
      verifyAccessToken: async (token: string) => {
        if (token !== 'ok') throw new OAuthError(OAuthErrorCode.InvalidToken, 'no');
        return { token, scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 60 } as never;
      },
    };
    const endpoint = await serveHttp(() => new McpServer2({ name: 'x', version: '1' }), { auth: { verifier } });
    try {
      const answer = await fetch(endpoint.url, { method: 'POST', headers: { ...JSON_HEADERS, Authorization: 'Bearer ok' }, body: INITIALIZE });
      expect(answer.status).toBe(500);
      expect(await answer.json()).toMatchObject({ error: { message: expect.stringMatching(/returned no clientId/) } });
      expect(endpoint.sessions).toBe(0);
    } finally {
      await endpoint.close();
    }
  });
});
