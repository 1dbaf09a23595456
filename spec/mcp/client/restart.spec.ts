/**
 * A remote server that restarts between two calls: the first call after the restart reaches the new server (a
 * session it does not know is opened anew) and is never reported as "lost during the call … may or may not have run".
 * The call is made right after the old server closed its connections, before this process has read their FIN (the
 * race: undici would write it on a dead kept-alive connection); the spec counts those connections and the POSTs
 * written on them. Beside it, a connection that breaks while the server runs the call is still reported as one that
 * may or may not have run, and the call is not sent again. Each SDK line of the client, against SDK v2 and SDK 1.x
 * servers on one port.
 */
import 'reflect-metadata';
import diagnostics from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer } from '@modelcontextprotocol/server';
import { Action, Tools } from '../../../lib';
import { McpClientTools, serveHttp, serveTools, type McpHttpEndpoint } from '../../../lib/mcp';

class Counter {
  runs = 0;
  /** Runs inside each call, after the server has read the request. */
  during: () => void = () => undefined;

  @Action('Count one run.', { effects: [] })
  count(): string {
    this.runs++;
    this.during();
    return `run ${this.runs}`;
  }
}

const quiet = { warn: () => undefined, error: () => undefined, debug: () => undefined, info: () => undefined };

async function endpoint(line: 'v1' | 'v2', counter: Counter, port = 0): Promise<McpHttpEndpoint> {
  const tools = new Tools({ logger: quiet }).register(counter);
  if (line === 'v2') {
    return serveHttp(() => {
      const server = new McpServer({ name: 'counter', version: '1.0.0' });
      serveTools(server, tools);
      return server;
    }, { port });
  }
  return serveHttp(() => {
    const server = new V1McpServer({ name: 'counter', version: '1.0.0' });
    serveTools(server, tools);
    return server;
  }, { port });
}

/** The client's HTTP connections (undici's diagnostics channels): which have seen the server's FIN, which carried a POST. */
class Connections {
  private readonly ended = new Map<Socket, boolean>();
  private readonly posts: Socket[] = [];
  private readonly onConnected = (message: unknown) => {
    const socket = (message as { socket: Socket }).socket;
    this.ended.set(socket, false);
    socket.once('end', () => this.ended.set(socket, true));
    socket.once('close', () => this.ended.set(socket, true));
  };
  private readonly onSend = (message: unknown) => {
    const { request, socket } = message as { request: { method: string }; socket: Socket };
    if (request.method === 'POST') this.posts.push(socket);
  };

  constructor() {
    diagnostics.subscribe('undici:client:connected', this.onConnected);
    diagnostics.subscribe('undici:client:sendHeaders', this.onSend);
  }

  /** The connections made so far. */
  all(): Socket[] {
    return [...this.ended.keys()];
  }

  /** Of `sockets`, those the client still takes for open (no FIN or close seen yet). */
  open(sockets: readonly Socket[]): number {
    return sockets.filter((socket) => this.ended.get(socket) === false).length;
  }

  /** How many POSTs were written, from the `since`-th on, on one of `sockets`. */
  postsOn(sockets: readonly Socket[], since: number): number {
    return this.posts.slice(since).filter((socket) => sockets.includes(socket)).length;
  }

  get postCount(): number {
    return this.posts.length;
  }

  stop(): void {
    diagnostics.unsubscribe('undici:client:connected', this.onConnected);
    diagnostics.unsubscribe('undici:client:sendHeaders', this.onSend);
  }
}

const COMBINATIONS = [
  [1, 'v1'],
  [1, 'v2'],
  [2, 'v1'],
  [2, 'v2'],
] as const;

describe('McpClientTools across a restart of the remote server', () => {
  it.each(COMBINATIONS)('the first call after the restart runs once on the new server, never on the dead connection (sdk: %s, server on SDK %s)', async (sdk, line) => {
    const connections = new Connections();
    const first = new Counter();
    let remote = await endpoint(line, first);
    const port = Number(new URL(remote.url).port);
    const tools = new Tools({ logger: quiet });
    const mcp = await McpClientTools.connect(tools, { name: 'counter', url: remote.url, sdk, reconnect: { maxAttempts: 3, delayMs: 10 }, logger: quiet });
    try {
      const before = await tools.execute('mcp__counter__count', {});
      expect([before.ok, JSON.stringify(before)]).toEqual([true, expect.stringContaining('run 1')]);
      const old = connections.all();
      await remote.close();
      const second = new Counter();
      remote = await endpoint(line, second, port);
      const sent = connections.postCount;
      // The race is on: the old server's connections are closed, and the client has not read their FIN yet.
      expect(connections.open(old)).toBeGreaterThan(0);
      const after = await tools.execute('mcp__counter__count', {});
      expect(after.ok ? '' : after.error).not.toMatch(/may or may not have run/);
      expect([after.ok, JSON.stringify(after)]).toEqual([true, expect.stringContaining('run 1')]);
      expect([first.runs, second.runs]).toEqual([1, 1]);
      expect(connections.postsOn(old, sent)).toBe(0);
      expect(connections.postCount).toBeGreaterThan(sent);
    } finally {
      connections.stop();
      await mcp.close();
      await remote.close();
    }
  });

  it.each(COMBINATIONS)('a connection that breaks while the server runs the call reads "may or may not have run", and the call is not sent again (sdk: %s, server on SDK %s)', async (sdk, line) => {
    const counter = new Counter();
    const remote = await endpoint(line, counter);
    const tools = new Tools({ logger: quiet });
    const mcp = await McpClientTools.connect(tools, { name: 'counter', url: remote.url, sdk, reconnect: { maxAttempts: 3, delayMs: 10 }, logger: quiet });
    try {
      counter.during = () => {
        counter.during = () => undefined;
        remote.httpServer.closeAllConnections(); // the call's own connection, with the request read and running
      };
      const broken = await tools.execute('mcp__counter__count', {});
      expect(broken.ok ? '' : broken.error).toMatch(/^The connection to MCP server 'counter' was lost during the call \(.*\)\. It may or may not have run; check before retrying\.$/);
      expect(counter.runs).toBe(1);
      const next = await tools.execute('mcp__counter__count', {});
      expect([next.ok, JSON.stringify(next)]).toEqual([true, expect.stringContaining('run 2')]);
      expect(counter.runs).toBe(2);
    } finally {
      await mcp.close();
      await remote.close();
    }
  });
});
