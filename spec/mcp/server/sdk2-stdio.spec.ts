/**
 * `serveStdio` on SDK v2: the example as a child process, with the SDK v2 client (2026-07-28) and the SDK 1.32
 * client (2025-11-25) on the other side of stdin/stdout. The child runs the TypeScript sources (transpiled as it
 * starts, which takes long on a loaded machine), and the v2 client's probe starts a second one: hence the long
 * probe and test timeouts (on stdio a probe that times out falls back to 2025-11-25).
 */
import { join } from 'node:path';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const ROOT = join(__dirname, '../../..');
const text = (result: unknown) => ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? '');
const child = { command: process.execPath, args: ['-r', join(__dirname, 'support/ts-register.cjs'), join(ROOT, 'examples/mcp-server-sdk2.ts')], cwd: ROOT, stderr: 'pipe' as const };

describe('serveStdio on SDK v2: the example as a child process', () => {
  it('serves a 2026-07-28 client: listing, a call, and approval through input_required', async () => {
    const client = new V2Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 120_000 } }, capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: 'accept' };
    });
    await client.connect(new V2StdioTransport(child));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['getOrder', 'ping', 'refund']);
      expect(text(await client.callTool({ name: 'refund', arguments: { orderId: 'o-9', amount: 1 } }))).toBe('Refunded 1 for order o-9.');
      expect(asked).toEqual([expect.stringContaining('- "orderId": "o-9"')]);
    } finally {
      await client.close();
    }
  }, 240_000);

  it('serves a 2025-11-25 client (SDK 1.32); without elicitation nobody can approve', async () => {
    const client = new V1Client({ name: 'legacy', version: '1' });
    await client.connect(new V1StdioTransport(child));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['getOrder', 'ping', 'refund']);
      expect(await client.callTool({ name: 'getOrder', arguments: { orderId: 'o-9' } })).toMatchObject({ structuredContent: { orderId: 'o-9', total: 42 } });
      const refused = await client.callTool({ name: 'refund', arguments: { orderId: 'o-9', amount: 1 } });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain('does not support elicitation');
    } finally {
      await client.close();
    }
  }, 240_000);
});
