/**
 * A remote server that restarts between two calls: the first call after the restart reaches the new server (a
 * session it does not know is opened anew, a request never sent is sent again) and is never reported as "lost during
 * the call … may or may not have run". Each SDK line of the client, against SDK v2 and SDK 1.x servers on one port.
 */
import 'reflect-metadata';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer } from '@modelcontextprotocol/server';
import { Action, Tools } from '../../../lib';
import { McpClientTools, serveHttp, serveTools, type McpHttpEndpoint } from '../../../lib/mcp';

class Counter {
  runs = 0;

  @Action('Count one run.', { effects: [] })
  count(): string {
    this.runs++;
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

describe('McpClientTools across a restart of the remote server', () => {
  it.each([
    [1, 'v1'],
    [1, 'v2'],
    [2, 'v1'],
    [2, 'v2'],
  ] as const)('the first call after the restart runs once on the new server (sdk: %s, server on SDK %s)', async (sdk, line) => {
    const first = new Counter();
    let remote = await endpoint(line, first);
    const port = Number(new URL(remote.url).port);
    const tools = new Tools({ logger: quiet });
    const mcp = await McpClientTools.connect(tools, { name: 'counter', url: remote.url, sdk, reconnect: { maxAttempts: 3, delayMs: 10 }, logger: quiet });
    try {
      const before = await tools.execute('mcp__counter__count', {});
      expect([before.ok, JSON.stringify(before)]).toEqual([true, expect.stringContaining('run 1')]);
      await remote.close();
      await new Promise((resolve) => setTimeout(resolve, 200)); // a restart takes a while: the old server's FIN has arrived
      const second = new Counter();
      remote = await endpoint(line, second, port);
      const after = await tools.execute('mcp__counter__count', {});
      expect(after.ok ? '' : after.error).not.toMatch(/may or may not have run/);
      expect([after.ok, JSON.stringify(after)]).toEqual([true, expect.stringContaining('run 1')]);
      expect([first.runs, second.runs]).toEqual([1, 1]);
    } finally {
      await mcp.close();
      await remote.close();
    }
  });
});
