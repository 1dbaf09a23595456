/**
 * Attacks on the SDK v2 endpoint of `serveHttp`: forged, replayed, expired and foreign approval states
 * (`requestState` of MCP 2026-07-28), foreign `Origin` and `Host`, unknown session ids, the session cap, oversized
 * and deeply nested bodies. Real SDK clients and raw HTTP on loopback.
 */
import 'reflect-metadata';
import { request } from 'node:http';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { BillingTools } from '../../../examples/mcp-server';
import { Tools } from '../../../lib';
import { approvalPrompt, McpMemoryUsedStates, serveHttp, serveTools, type McpHttpEndpoint } from '../../../lib/mcp';
import { McpRequestStates } from '../../../lib/mcp/server/v2/approval-state';

const text = (result: unknown) => ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? '');

interface Raw {
  status: number;
  body: string;
}

/** A raw request with chosen headers (fetch does not let a caller set Host). */
function raw(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname: target.hostname, port: target.port, path: target.pathname, method, headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let data = '';
      res.on('data', (chunk: Buffer) => (data += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

/** A 2026-07-28 client that fulfils nothing itself: `input_required` results come back to the spec. */
async function manualClient(url: string): Promise<V2Client> {
  const client = new V2Client({ name: 'manual', version: '1' }, { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false } });
  await client.connect(new V2HttpTransport(new URL(url)));
  return client;
}

interface AskResult {
  resultType: string;
  inputRequests: Record<string, unknown>;
  requestState: string;
}

const ACCEPT = { approval: { action: 'accept', content: {} } };

describe('serveHttp on SDK v2 under attack', () => {
  let endpoint: McpHttpEndpoint;
  let billing: BillingTools;
  beforeAll(async () => {
    billing = new BillingTools();
    const tools = new Tools().register(billing);
    endpoint = await serveHttp(
      () => {
        const server = new McpServer({ name: 'billing', version: '1.0.0' });
        serveTools(server, tools);
        return server;
      },
      { maxSessions: 2, maxBodyBytes: 64 * 1024 },
    );
  });
  afterAll(() => endpoint.close());

  describe('approval state', () => {
    let client: V2Client;
    beforeAll(async () => (client = await manualClient(endpoint.url)));
    afterAll(() => client.close());
    const ask = async (args: Record<string, unknown>) => (await client.callTool({ name: 'refund', arguments: args }, { allowInputRequired: true } as never)) as unknown as AskResult;
    const retry = (args: Record<string, unknown>, requestState: string, inputResponses: Record<string, unknown> = ACCEPT) => client.callTool({ name: 'refund', arguments: args, inputResponses, requestState } as never, { allowInputRequired: true } as never);

    it('asks first, and the retry with the state and the answer runs the call once; a replay of it runs nothing', async () => {
      const args = { orderId: 'r-1', amount: 3 };
      const first = await ask(args);
      expect(first.resultType).toBe('input_required');
      expect(Object.keys(first.inputRequests)).toEqual(['approval']);
      expect(text(await retry(args, first.requestState))).toBe('Refunded 3 for order r-1.');
      const replay = await retry(args, first.requestState);
      expect(replay.isError).toBe(true);
      expect(text(replay)).toMatch(/used already/);
      expect(billing.refunds.filter((r) => r.orderId === 'r-1')).toHaveLength(1);
    });

    it("refuses one call's approval for other arguments or another tool", async () => {
      const first = await ask({ orderId: 'r-2', amount: 1 });
      const other = await retry({ orderId: 'r-2', amount: 1000 }, first.requestState);
      expect(other.isError).toBe(true);
      expect(text(other)).toMatch(/another call/);
      expect(billing.refunds.some((r) => r.orderId === 'r-2')).toBe(false);
    });

    it('refuses a forged state: made up, tampered with, or signed with another key', async () => {
      const first = await ask({ orderId: 'r-3', amount: 1 });
      const [version, body, mac] = first.requestState.split('.');
      const payload = JSON.parse(Buffer.from(body!, 'base64url').toString()) as { p: { args: string } };
      const tampered = `${version}.${Buffer.from(JSON.stringify({ ...payload, p: { ...payload.p, args: 'x' } })).toString('base64url')}.${mac}`;
      const foreignKey = await new McpRequestStates({ key: 'k'.repeat(32) }).mint('refund', { orderId: 'r-3', amount: 1 }, { mcpReq: { method: 'tools/call' } } as ServerContext);
      for (const state of ['forged', tampered, foreignKey]) {
        const result = await retry({ orderId: 'r-3', amount: 1 }, state);
        expect(result.isError).toBe(true);
        expect(text(result)).toMatch(/forged, expired or for another client/);
      }
      expect(billing.refunds.some((r) => r.orderId === 'r-3')).toBe(false);
    });

    it('a retry without an accepted answer is declined', async () => {
      const first = await ask({ orderId: 'r-4', amount: 1 });
      const declined = await retry({ orderId: 'r-4', amount: 1 }, first.requestState, { approval: { action: 'decline' } });
      expect(text(declined)).toMatch(/declined/);
      expect(billing.refunds.some((r) => r.orderId === 'r-4')).toBe(false);
    });
  });

  it('refuses an expired state (the codec checks the expiry) and remembers used ids only as long as they live', async () => {
    const states = new McpRequestStates({ key: 'e'.repeat(32), ttlSeconds: 60, usedStates: new McpMemoryUsedStates() });
    const ctx = { mcpReq: { method: 'tools/call' } } as ServerContext;
    const state = await states.mint('refund', { a: 1 }, ctx);
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 61_000);
    try {
      expect(await states.check(state, 'refund', { a: 1 }, ctx)).toBe('invalid');
    } finally {
      clock.mockRestore();
    }
    expect(await states.check(state, 'refund', { a: 1 }, ctx)).toBeUndefined();
    expect(await states.check(state, 'refund', { a: 1 }, ctx)).toBe('replayed');
    expect(await states.check(42, 'refund', { a: 1 }, ctx)).toBe('invalid');
    const used = new McpMemoryUsedStates();
    expect(used.claim('old', now - 1)).toBe(true);
    expect(used.claim('new', now + 1000)).toBe(true);
    expect(used.size).toBe(1); // the expired id was dropped
  });

  it('refuses a short key and a ttl that is not positive', () => {
    expect(() => new McpRequestStates({ key: 'short' })).toThrow(/at least 32 bytes/);
    expect(() => new McpRequestStates({ ttlSeconds: 0 })).toThrow(/positive number of seconds/);
  });

  it('answers 403 to a foreign Origin or Host, and serves loopback origins and requests without Origin', async () => {
    const port = new URL(endpoint.url).port;
    for (const headers of [{ Host: `127.0.0.1:${port}`, Origin: 'https://evil.example' }, { Host: `evil.example:${port}` }, { Host: `127.0.0.1:${port}`, Origin: 'null' }] as Array<Record<string, string>>) {
      const answer = await raw(endpoint.url, 'POST', headers, INITIALIZE);
      expect(answer.status).toBe(403);
    }
    expect(endpoint.sessions).toBe(0);
    const local = await raw(endpoint.url, 'POST', { Host: `localhost:${port}`, Origin: `http://localhost:${port}` }, INITIALIZE);
    expect(local.status).toBe(200);
  });

  it('answers 404 to POST, GET and DELETE with an unknown session id', async () => {
    for (const method of ['POST', 'GET', 'DELETE']) {
      const answer = await raw(endpoint.url, method, { 'Mcp-Session-Id': 'no-such-session' }, method === 'POST' ? INITIALIZE : undefined);
      expect(answer.status).toBe(404);
      expect(answer.body).toMatch(/Session not found/);
    }
  });

  it('caps the open sessions with a clear error', async () => {
    while (endpoint.sessions! < 2) {
      const answer = await raw(endpoint.url, 'POST', {}, INITIALIZE);
      expect(answer.status).toBe(200);
    }
    const over = await raw(endpoint.url, 'POST', {}, INITIALIZE);
    expect(over.status).toBe(503);
    expect(over.body).toMatch(/at most 2 sessions/);
  });

  it('answers 413 to an oversized body and 400 to a body that is not JSON, without a stack trace', async () => {
    const errors = jest.spyOn(console, 'error');
    expect((await raw(endpoint.url, 'POST', { 'Content-Length': String(10 * 1024 * 1024) }, '{')).status).toBe(413);
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(70 * 1024) } });
    expect((await raw(endpoint.url, 'POST', {}, big)).status).toBe(413);
    expect((await raw(endpoint.url, 'POST', {}, '{"jsonrpc":')).status).toBe(400);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it('answers a deeply nested body with an error, and the endpoint keeps serving', async () => {
    const nested = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"getOrder","arguments":{"orderId":${'['.repeat(5000)}${']'.repeat(5000)}}}}`;
    const answer = await raw(endpoint.url, 'POST', {}, nested);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatch(/deeper than 512 levels/);
    const client = await manualClient(endpoint.url);
    expect(text(await client.callTool({ name: 'getOrder', arguments: { orderId: 'n-1' } }))).toContain('n-1');
    await client.close();
  });
});

describe('approvalPrompt', () => {
  it('shows every top-level field, each cut on its own, and the size of the call', () => {
    const prompt = approvalPrompt('transfer', { memo: 'm'.repeat(5000), recipient: 'mallory', amount: 1_000_000 });
    expect(prompt).toContain('(5050 characters of JSON)');
    expect(prompt).toContain('- "recipient": "mallory"');
    expect(prompt).toContain('- "amount": 1000000');
    expect(prompt).toMatch(/- "memo": "m+\.\.\. \[cut: 4802 more characters\]/);
    expect(prompt.length).toBeLessThan(400);
  });

  it('shows arguments that are not an object as one value, and no arguments as none', () => {
    expect(approvalPrompt('t', [1, 2])).toMatch(/\n\[1,2\]$/);
    expect(approvalPrompt('t', undefined)).toMatch(/\(none\)$/);
    expect(approvalPrompt('t', { k: undefined })).toMatch(/- "k": undefined$/);
  });
});
