/**
 * More forms of the attacks of sdk2-attacks.spec.ts on the SDK v2 endpoint of `serveHttp`: one tool's approval state
 * used for another tool, an expired state over the wire, a foreign `Origin` on every method and on the stateless
 * side, the session cap freed by an ended session, oversized bodies with nothing on stderr, bodies nested in objects
 * and in `_meta` on both sides, and the approval question with a long first field as each client era receives it.
 * Real SDK clients (v2 on 2026-07-28, 1.32 on 2025-11-25) and raw HTTP on loopback.
 */
import 'reflect-metadata';
import { request } from 'node:http';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServer } from '@modelcontextprotocol/server';
import { Type } from 'typebox';
import { Action, Tools } from '../../../lib';
import { serveHttp, serveTools, type McpHttpEndpoint } from '../../../lib/mcp';

const text = (result: unknown) => ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? '');

class Bank {
  readonly done: string[] = [];

  @Action('Transfer money.', { params: Type.Object({ memo: Type.String(), recipient: Type.String(), amount: Type.Number() }), requiresApproval: true })
  transfer({ recipient, amount }: { memo: string; recipient: string; amount: number }): string {
    this.done.push(`transfer ${amount} to ${recipient}`);
    return `sent ${amount} to ${recipient}`;
  }

  @Action('Close an account.', { params: Type.Object({ memo: Type.String(), recipient: Type.String(), amount: Type.Number() }), requiresApproval: true })
  close({ recipient }: { memo: string; recipient: string; amount: number }): string {
    this.done.push(`close ${recipient}`);
    return `closed ${recipient}`;
  }

  @Action('Read the balance.', { effects: [] })
  balance(): number {
    return 7;
  }
}

interface Raw {
  status: number;
  body: string;
}

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
const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const DISCOVER = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: MODERN_META } });
const MODERN_HEADERS = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'server/discover' };
const CALL_HEADERS = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'balance' };
const ACCEPT = { approval: { action: 'accept', content: {} } };
const LONG = { memo: 'm'.repeat(5000), recipient: 'mallory', amount: 1_000_000 };

async function manualClient(url: string): Promise<V2Client> {
  const client = new V2Client({ name: 'manual', version: '1' }, { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false } });
  await client.connect(new V2HttpTransport(new URL(url)));
  return client;
}

describe('serveHttp on SDK v2 under attack: more forms', () => {
  let endpoint: McpHttpEndpoint;
  let bank: Bank;
  beforeAll(async () => {
    bank = new Bank();
    const tools = new Tools().register(bank);
    endpoint = await serveHttp(
      () => {
        const server = new McpServer({ name: 'bank', version: '1.0.0' });
        serveTools(server, tools, { approvalState: { ttlSeconds: 60 } });
        return server;
      },
      { maxSessions: 1, maxBodyBytes: 64 * 1024 },
    );
  });
  afterAll(() => endpoint.close());

  describe('approval state', () => {
    let client: V2Client;
    beforeAll(async () => (client = await manualClient(endpoint.url)));
    afterAll(() => client.close());
    const ask = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args }, { allowInputRequired: true } as never)) as unknown as { requestState: string; inputRequests: Record<string, { params: { message: string } }> };
    const retry = (name: string, args: Record<string, unknown>, requestState: string) => client.callTool({ name, arguments: args, inputResponses: ACCEPT, requestState } as never, { allowInputRequired: true } as never);

    it("refuses one tool's approval for another tool with the same arguments, and runs neither", async () => {
      const args = { memo: 'a', recipient: 'bob', amount: 1 };
      const first = await ask('transfer', args);
      const other = await retry('close', args, first.requestState);
      expect(other.isError).toBe(true);
      expect(text(other)).toMatch(/given for another call/);
      expect(bank.done).not.toContain('close bob');
      expect(bank.done).not.toContain('transfer 1 to bob');
    });

    it('refuses a state that expired between the question and the answer, over the wire', async () => {
      const args = { memo: 'b', recipient: 'carol', amount: 2 };
      const first = await ask('transfer', args);
      const clock = jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 61_000);
      try {
        const late = await retry('transfer', args, first.requestState);
        expect(late.isError).toBe(true);
        expect(text(late)).toMatch(/forged, expired or for another client/);
      } finally {
        clock.mockRestore();
      }
      expect(bank.done).not.toContain('transfer 2 to carol');
    });

    it('shows every top-level field of a call with a long first field to a 2026-07-28 client', async () => {
      const first = await ask('transfer', LONG);
      const message = first.inputRequests.approval!.params.message;
      expect(message).toContain('- "recipient": "mallory"');
      expect(message).toContain('- "amount": 1000000');
      expect(message).toMatch(/- "memo": "m+\.\.\. \[cut: \d+ more characters\]/);
    });
  });

  it('shows every top-level field of a call with a long first field to a 2025-11-25 client (elicitation)', async () => {
    const asked: string[] = [];
    const client = new V1Client({ name: 'legacy', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, (req) => {
      asked.push(req.params.message);
      return { action: 'decline' };
    });
    const transport = new V1HttpTransport(new URL(endpoint.url));
    await client.connect(transport);
    try {
      await client.callTool({ name: 'transfer', arguments: LONG });
    } finally {
      await transport.terminateSession();
      await client.close();
    }
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('- "recipient": "mallory"');
    expect(asked[0]).toContain('- "amount": 1000000');
    expect(bank.done).not.toContain('transfer 1000000 to mallory');
  });

  it.each([
    ['POST initialize', 'POST', {}, INITIALIZE],
    ['POST server/discover (stateless)', 'POST', MODERN_HEADERS, DISCOVER],
    ['GET', 'GET', {}, undefined],
    ['DELETE', 'DELETE', { 'Mcp-Session-Id': 'x' }, undefined],
  ] as const)('answers 403 to %s from a foreign Origin: another site, a file page, a look-alike host', async (_name, method, headers, body) => {
    const port = new URL(endpoint.url).port;
    for (const origin of ['https://evil.example', 'null', `http://127.0.0.1.evil.example:${port}`, 'http://localhost.evil.example']) {
      const answer = await raw(endpoint.url, method, { ...headers, Host: `127.0.0.1:${port}`, Origin: origin }, body);
      expect(answer.status).toBe(403);
    }
    expect(endpoint.sessions).toBe(0);
  });

  it('answers 403 to a foreign Host on the stateless side too, and serves the same request from loopback', async () => {
    const port = new URL(endpoint.url).port;
    expect((await raw(endpoint.url, 'POST', { ...MODERN_HEADERS, Host: `attacker.example:${port}` }, DISCOVER)).status).toBe(403);
    expect((await raw(endpoint.url, 'POST', { ...MODERN_HEADERS, Host: `localhost:${port}` }, DISCOVER)).status).toBe(200);
  });

  it('frees a place under the session cap when a session ends (DELETE)', async () => {
    const capped = await serveHttp(() => {
      const server = new McpServer({ name: 'capped', version: '1.0.0' });
      serveTools(server, new Tools().register(new Bank()));
      return server;
    }, { maxSessions: 1 });
    try {
      const opened = await fetch(capped.url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: INITIALIZE });
      await opened.text();
      const id = opened.headers.get('mcp-session-id');
      expect(id).toEqual(expect.any(String));
      expect((await raw(capped.url, 'POST', {}, INITIALIZE)).status).toBe(503);
      expect((await raw(capped.url, 'DELETE', { 'Mcp-Session-Id': id!, 'MCP-Protocol-Version': '2025-11-25' })).status).toBe(200);
      expect(capped.sessions).toBe(0);
      expect((await raw(capped.url, 'POST', {}, INITIALIZE)).status).toBe(200);
      expect(capped.sessions).toBe(1);
    } finally {
      await capped.close();
    }
  });

  it('answers 413 to oversized bodies of both sides and writes nothing to stderr', async () => {
    const written = jest.spyOn(process.stderr, 'write');
    const logged = jest.spyOn(console, 'error');
    try {
      const pad = 'x'.repeat(70 * 1024);
      expect((await raw(endpoint.url, 'POST', {}, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { pad } }))).status).toBe(413);
      expect((await raw(endpoint.url, 'POST', CALL_HEADERS, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'balance', arguments: { pad }, _meta: MODERN_META } }))).status).toBe(413);
      expect(written).not.toHaveBeenCalled();
      expect(logged).not.toHaveBeenCalled();
    } finally {
      written.mockRestore();
      logged.mockRestore();
    }
  });

  it.each([
    ['objects in the arguments (2026-07-28)', CALL_HEADERS, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"balance","_meta":${JSON.stringify(MODERN_META)},"arguments":{"a":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}}}`],
    ['arrays in _meta (2026-07-28)', CALL_HEADERS, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"balance","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"x":${'['.repeat(5000)}${']'.repeat(5000)}}}}`],
    ['arrays in an initialize (2025-11-25)', {}, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"x":${'['.repeat(5000)}${']'.repeat(5000)}},"clientInfo":{"name":"raw","version":"1"}}}`],
  ])('answers 400 to a body with deeply nested %s, opens nothing, and the endpoint keeps serving', async (_name, headers, body) => {
    const answer = await raw(endpoint.url, 'POST', headers, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatch(/"code":-32600,"message":"Invalid Request: the request body nests objects and arrays deeper than 512 levels\."/);
    expect(endpoint.sessions).toBe(0);
    const client = await manualClient(endpoint.url);
    try {
      expect(text(await client.callTool({ name: 'balance', arguments: {} }))).toBe('7');
    } finally {
      await client.close();
    }
  });

  it('serves a body nested 500 levels deep (under the limit)', async () => {
    const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"balance","_meta":${JSON.stringify(MODERN_META)},"arguments":{"a":${'['.repeat(495)}${']'.repeat(495)}}}}`;
    const answer = await raw(endpoint.url, 'POST', CALL_HEADERS, body);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatch(/"result"/);
  });
});
