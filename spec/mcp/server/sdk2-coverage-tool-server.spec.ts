/**
 * The served registry on SDK v2 (`@modelcontextprotocol/server` 2.x) beyond the happy path: unknown tools, a
 * permission engine's deny/allow/ask, clients without elicitation, progress (status lines, streamed text, relayed
 * remote progress) and its opt-out, listing changes on a 2025-11-25 session (SDK 1.32 client), native name clashes,
 * and `serveStdio` reporting a factory that fails. Real SDK clients over Streamable HTTP on loopback.
 */
import 'reflect-metadata';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServer } from '@modelcontextprotocol/server';
import { Type } from 'typebox';
import { Action, ToolChunk, Tools } from '../../../lib';
import { McpServerError, serveHttp, serveStdio, serveTools, type McpHttpEndpoint } from '../../../lib/mcp';
import { progressChunk } from '../../../lib/mcp/client/mcp-progress';
import { PermissionBehavior, PermissionEngine } from '../../../lib/permissions';

const text = (result: unknown) => ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? '');
const quiet = { warn: () => undefined, error: () => undefined };

class Shop {
  calls: string[] = [];

  @Action('Get an order.', { params: Type.Object({ id: Type.String() }), returns: Type.Object({ id: Type.String(), total: Type.Number() }), effects: [], title: 'Get order', meta: { 'example.com/v': 1 } })
  getOrder({ id }: { id: string }): { id: string; total: number } {
    return { id, total: 5 };
  }

  @Action('Refund an order.', { params: Type.Object({ id: Type.String() }), requiresApproval: true, icons: [{ src: 'https://example.com/refund.png', mimeType: 'image/png', sizes: ['48x48'] }] })
  refund({ id }: { id: string }): string {
    this.calls.push(`refund ${id}`);
    return `refunded ${id}`;
  }

  @Action('Stream lines.', { params: Type.Object({ n: Type.Integer() }), effects: [], status: 'Counting to {n}...' })
  async *count({ n }: { n: number }): AsyncGenerator<ToolChunk> {
    for (let i = 1; i <= n; i++) yield ToolChunk.text(`line ${i}\n`);
  }

  @Action('Relay a remote server\'s progress.', { effects: [], status: 'Relaying...' })
  async *relay(): AsyncGenerator<ToolChunk> {
    yield progressChunk({ progress: 1, total: 4 });
    yield progressChunk({ progress: 2 });
    yield progressChunk({ progress: 3, message: 'almost there' });
    yield ToolChunk.text('relayed');
  }
}

/** An SDK v2 client on 2026-07-28; with `elicit` it accepts every approval question, without it it has no elicitation. */
async function modernClient(url: string, elicit: boolean, asked: string[] = []): Promise<V2Client> {
  const client = new V2Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' }, ...(elicit ? { capabilities: { elicitation: { form: {} } } } : {}) });
  if (elicit) {
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: 'accept' };
    });
  }
  await client.connect(new V2HttpTransport(new URL(url)));
  return client;
}

type Options = Parameters<typeof serveTools>[2];

async function serve(shop: Shop, options: Options = {}, tools = new Tools({ logger: quiet }).register(shop)): Promise<McpHttpEndpoint> {
  return serveHttp(
    () => {
      const server = new McpServer({ name: 'shop', version: '1.0.0' });
      serveTools(server, tools, options);
      return server;
    },
    { registries: [tools] },
  );
}

describe('the served registry on SDK v2', () => {
  describe('listing, unknown tools, progress', () => {
    let endpoint: McpHttpEndpoint;
    let client: V2Client;
    beforeAll(async () => {
      endpoint = await serve(new Shop());
      client = await modernClient(endpoint.url, true);
    });
    afterAll(async () => {
      await client.close();
      await endpoint.close();
    });

    it('lists the registry\'s title, output schema and _meta as written', async () => {
      const listed = (await client.listTools()).tools;
      const getOrder = listed.find((tool) => tool.name === 'getOrder');
      expect(getOrder).toMatchObject({ title: 'Get order', _meta: { 'example.com/v': 1 }, outputSchema: { type: 'object', properties: { total: { type: 'number' } } } });
      expect(listed.find((tool) => tool.name === 'refund')?.icons).toEqual([{ src: 'https://example.com/refund.png', mimeType: 'image/png', sizes: ['48x48'] }]);
      expect(await client.callTool({ name: 'getOrder', arguments: { id: 'o-1' } })).toMatchObject({ structuredContent: { id: 'o-1', total: 5 }, isError: false });
    });

    it('leaves a call of a tool it never registered to the SDK, which answers a protocol error naming it', async () => {
      await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow('Tool nope not found');
    });

    it('turns the status line and streamed text into progress notifications when the client asks for progress', async () => {
      const messages: Array<string | undefined> = [];
      const result = await client.callTool({ name: 'count', arguments: { n: 2 } }, { onprogress: (p: { message?: string }) => messages.push(p.message) } as never);
      expect(text(result)).toBe('line 1\nline 2\n');
      expect(messages).toEqual(['Counting to 2...', 'line 1\n', 'line 2\n']);
    });

    it('passes a relayed remote progress on: its message, else progress/total, else the progress alone', async () => {
      const messages: Array<string | undefined> = [];
      const result = await client.callTool({ name: 'relay', arguments: {} }, { onprogress: (p: { message?: string }) => messages.push(p.message) } as never);
      expect(text(result)).toBe('relayed');
      expect(messages).toEqual(['Relaying...', '1/4', '2', 'almost there', 'relayed']);
    });
  });

  it('sends no progress when served with progress: false, and the call still answers', async () => {
    const endpoint = await serve(new Shop(), { progress: false });
    const client = await modernClient(endpoint.url, true);
    try {
      const messages: unknown[] = [];
      const result = await client.callTool({ name: 'count', arguments: { n: 2 } }, { onprogress: (p: unknown) => messages.push(p) } as never);
      expect(text(result)).toBe('line 1\nline 2\n');
      expect(messages).toEqual([]);
    } finally {
      await client.close();
      await endpoint.close();
    }
  });

  it('refuses a call that needs approval from a client without elicitation, and runs nothing', async () => {
    const shop = new Shop();
    const endpoint = await serve(shop);
    const client = await modernClient(endpoint.url, false);
    try {
      const result = await client.callTool({ name: 'refund', arguments: { id: 'r-1' } });
      expect(result.isError).toBe(true);
      expect(text(result)).toContain('does not support elicitation');
      expect(shop.calls).toEqual([]);
    } finally {
      await client.close();
      await endpoint.close();
    }
  });

  describe('with a permission engine', () => {
    const withEngine = async (engine: PermissionEngine, run: (client: V2Client, shop: Shop, asked: string[]) => Promise<void>) => {
      const shop = new Shop();
      const asked: string[] = [];
      const endpoint = await serve(shop, { permissions: engine });
      const client = await modernClient(endpoint.url, true, asked);
      try {
        await run(client, shop, asked);
      } finally {
        await client.close();
        await endpoint.close();
      }
    };

    it('a deny rule answers a failed result and runs nothing', async () => {
      const engine = new PermissionEngine();
      engine.addRules(['refund'], PermissionBehavior.DENY);
      await withEngine(engine, async (client, shop, asked) => {
        const result = await client.callTool({ name: 'refund', arguments: { id: 'r-2' } });
        expect(result.isError).toBe(true);
        expect(shop.calls).toEqual([]);
        expect(asked).toEqual([]);
      });
    });

    it('an allow rule runs the call without asking, even for a tool that needs approval', async () => {
      const engine = new PermissionEngine();
      engine.addRules(['refund'], PermissionBehavior.ALLOW);
      await withEngine(engine, async (client, shop, asked) => {
        expect(text(await client.callTool({ name: 'refund', arguments: { id: 'r-3' } }))).toBe('refunded r-3');
        expect(shop.calls).toEqual(['refund r-3']);
        expect(asked).toEqual([]);
      });
    });

    it('an ask asks the user through input_required and runs the call once accepted', async () => {
      await withEngine(new PermissionEngine(), async (client, shop, asked) => {
        expect(text(await client.callTool({ name: 'refund', arguments: { id: 'r-4' } }))).toBe('refunded r-4');
        expect(asked).toEqual([expect.stringContaining('"id": "r-4"')]);
        expect(shop.calls).toEqual(['refund r-4']);
      });
    });
  });

  describe('on a 2025-11-25 session (SDK 1.32 client)', () => {
    it('sends tools/list_changed when the registry changes, and lists the new tool', async () => {
      const tools = new Tools({ logger: quiet }).register(new Shop());
      const endpoint = await serve(new Shop(), {}, tools);
      const client = new V1Client({ name: 'legacy', version: '1' });
      let changed = 0;
      const notified = new Promise<void>((resolve) =>
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
          changed++;
          resolve();
        }),
      );
      await client.connect(new V1HttpTransport(new URL(endpoint.url)));
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('added');
        tools.action({ name: 'added', description: 'Added later.', params: Type.Object({}), effects: [] }, () => 'added ok');
        await notified;
        expect(changed).toBeGreaterThanOrEqual(1);
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('added');
        expect(text(await client.callTool({ name: 'added', arguments: {} }))).toBe('added ok');
      } finally {
        await client.close();
        await endpoint.close();
      }
    });
  });

  describe('native tools', () => {
    it('refuses a registry tool whose name a native tool already has, with a coded error', () => {
      const server = new McpServer({ name: 'x', version: '1' });
      server.registerTool('getOrder', { description: 'native' }, () => ({ content: [] }));
      const attempt = () => serveTools(server, new Tools({ logger: quiet }).register(new Shop()));
      expect(attempt).toThrow(McpServerError);
      expect(attempt).toThrow(expect.objectContaining({ code: 'MCP_TOOL_NAME_TAKEN' }) as Error);
    });

    it('warns of and skips a tool registered later under a native name; the native one keeps answering', async () => {
      const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
      const tools = new Tools({ logger: quiet }).register(new Shop());
      const endpoint = await serveHttp(
        () => {
          const server = new McpServer({ name: 'shop', version: '1.0.0' });
          server.registerTool('taken', { description: 'native' }, () => ({ content: [{ type: 'text', text: 'native taken' }] }));
          serveTools(server, tools);
          return server;
        },
        { registries: [tools] },
      );
      const client = new V1Client({ name: 'legacy', version: '1' });
      await client.connect(new V1HttpTransport(new URL(endpoint.url)));
      try {
        tools.action({ name: 'taken', description: 'Ours.', params: Type.Object({}), effects: [] }, () => 'ours');
        expect(warn).toHaveBeenCalledWith(expect.stringContaining("Tool 'taken' is already registered on this McpServer"));
        expect(text(await client.callTool({ name: 'taken', arguments: {} }))).toBe('native taken');
      } finally {
        warn.mockRestore();
        await client.close();
        await endpoint.close();
      }
    });
  });

  describe('serveStdio with a factory that fails', () => {
    it('reports the factory\'s error to onerror, and close rejects with it', async () => {
      const errors: Error[] = [];
      const handle = serveStdio(
        () => {
          throw new Error('no server today');
        },
        { onerror: (error) => errors.push(error), legacy: 'reject' },
      );
      await expect(handle.close()).rejects.toThrow('no server today');
      expect(errors.map((error) => error.message)).toEqual(['no server today']);
    });

    it('wraps a thrown non-Error in an Error for onerror', async () => {
      const errors: Error[] = [];
      const handle = serveStdio(() => Promise.reject('plain string' as unknown as Error), { onerror: (error) => errors.push(error) });
      await expect(handle.close()).rejects.toBe('plain string');
      expect(errors.map((error) => error.message)).toEqual(['plain string']);
    });

    it('without options, a failing factory only rejects close', async () => {
      const handle = serveStdio(() => Promise.reject(new Error('quiet failure')));
      await expect(handle.close()).rejects.toThrow('quiet failure');
    });
  });
});
