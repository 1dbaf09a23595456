/**
 * What the SDK v2 tool server offers beside tools, as the 1.x one does: log messages (per-session `logging/setLevel`
 * for 2025-11-25 clients, the per-request level for 2026-07-28 ones), saved outputs read back through the
 * `resource_link` of a cut result, and cancellation reaching the tool's signal. Real SDK clients over `serveHttp`.
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServer } from '@modelcontextprotocol/server';
import { Action, Inject, Tools } from '../../../lib';
import { McpRequest, serveHttp, serveTools, type McpHttpEndpoint } from '../../../lib/mcp';
import { LocalWorkspace } from '../../../lib/workspace';

const full = Array.from({ length: 3000 }, (_, i) => `log line ${i}`).join('\n');

class Ops {
  cancelled: string[] = [];
  started: (() => void) | undefined;

  @Action('Log at three levels.', { effects: [] })
  async chatty(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    await mcp.log('debug', 'a debug line');
    await mcp.log('info', 'an info line');
    await mcp.log('error', 'an error line');
    return 'done';
  }

  @Action('Print a long log.', { effects: [] })
  logs(): string {
    return full;
  }

  @Action('Wait until cancelled.', { effects: [] })
  async wait(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    this.started?.();
    await new Promise<void>((resolve) => mcp.signal.addEventListener('abort', () => resolve(), { once: true }));
    this.cancelled.push(`aborted on ${mcp.protocolVersion ?? 'unknown'}`);
    return 'cancelled';
  }
}

describe('the SDK v2 tool server beside tools', () => {
  let dir: string;
  let ops: Ops;
  let endpoint: McpHttpEndpoint;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp2-parity-'));
    ops = new Ops();
    const tools = new Tools({ outputBudget: { maxChars: 2000, workspace: new LocalWorkspace(dir) }, logger: { warn: () => undefined, error: () => undefined } }).register(ops);
    endpoint = await serveHttp(() => {
      const server = new McpServer({ name: 'ops', version: '1.0.0' });
      serveTools(server, tools);
      return server;
    });
  });
  afterAll(async () => {
    await endpoint.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const legacy = async () => {
    const client = new V1Client({ name: 'legacy', version: '1' });
    await client.connect(new V1HttpTransport(new URL(endpoint.url)));
    return client;
  };
  const modern = async () => {
    const client = new V2Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new V2HttpTransport(new URL(endpoint.url)));
    return client;
  };

  it('a 2025-11-25 session gets log messages at or above the level it set', async () => {
    const client = await legacy();
    try {
      expect(client.getServerCapabilities()?.logging).toEqual({});
      const seen: string[] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void seen.push(`${n.params.level} ${String(n.params.data)}`));
      await client.setLoggingLevel('info');
      await client.callTool({ name: 'chatty', arguments: {} });
      expect(seen).toEqual(['info an info line', 'error an error line']);
    } finally {
      await client.close();
    }
  });

  it('a 2026-07-28 request gets log messages only at the level it carries', async () => {
    const client = await modern();
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const seen: string[] = [];
      client.setNotificationHandler('notifications/message', (n) => void seen.push(`${n.params.level} ${String(n.params.data)}`));
      await client.callTool({ name: 'chatty', arguments: {} });
      expect(seen).toEqual([]);
      await client.callTool({ name: 'chatty', arguments: {}, _meta: { 'io.modelcontextprotocol/logLevel': 'error' } });
      expect(seen).toEqual(['error an error line']);
    } finally {
      await client.close();
    }
  });

  it.each([['2025-11-25', legacy], ['2026-07-28', modern]] as const)('a %s client reads a cut output back through its resource_link', async (_version, connect) => {
    const client = await connect();
    try {
      const result = (await client.callTool({ name: 'logs', arguments: {} })) as { content: Array<{ type: string; text?: string; uri?: string }> };
      const link = result.content.find((block) => block.type === 'resource_link');
      expect(link?.uri).toMatch(/^tool-output:\/\//);
      expect((await client.readResource({ uri: link!.uri! })).contents).toEqual([{ uri: link!.uri, mimeType: 'text/plain', text: full }]);
      await expect(client.readResource({ uri: 'tool-output://missing.txt' })).rejects.toThrow(/not found/i);
    } finally {
      await client.close();
    }
  });

  it.each([['2025-11-25', legacy], ['2026-07-28', modern]] as const)('a %s client\'s cancellation aborts the tool\'s signal', async (version, connect) => {
    const client = await connect();
    try {
      const started = new Promise<void>((resolve) => (ops.started = resolve));
      const controller = new AbortController();
      const params = { name: 'wait', arguments: {} };
      const call = client instanceof V1Client ? client.callTool(params, undefined, { signal: controller.signal }) : client.callTool(params, { signal: controller.signal });
      await started;
      controller.abort();
      await expect(call).rejects.toThrow();
      await new Promise<void>((resolve) => {
        const check = () => (ops.cancelled.length > 0 ? resolve() : setTimeout(check, 10));
        check();
      });
      expect(ops.cancelled.splice(0)).toEqual([`aborted on ${version}`]);
    } finally {
      await client.close();
    }
  });
});
