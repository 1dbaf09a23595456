/**
 * `serveHttp({ auth })` on SDK v2: bearer tokens checked by SDK v2's `verifyBearerToken` before any server sees the
 * request, the verified `AuthInfo` reaching the tool on both protocol eras, and the principal (`clientId`) owning
 * 2025-11-25 sessions and 2026-07-28 approval states. Attacked over raw HTTP and with real SDK clients on loopback:
 * no token, an unknown, expired or under-scoped one, another principal's session id on every method, another
 * principal's approval state.
 */
import 'reflect-metadata';
import { request } from 'node:http';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Http1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from '@modelcontextprotocol/client';
import { McpServer, OAuthError, OAuthErrorCode, type AuthInfo } from '@modelcontextprotocol/server';
import { McpServer as McpServer1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Tools } from '../../../lib';
import { McpMemoryUsedStates, McpRequest, McpRequestStates, serveHttp, serveTools, type McpHttpEndpoint } from '../../../lib/mcp';

const text = (result: unknown) => ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? '');
const LATER = Math.floor(Date.now() / 1000) + 3600;
const TOKENS: Record<string, AuthInfo> = {
  'token-alice': { token: 'token-alice', clientId: 'alice', scopes: ['mcp'], expiresAt: LATER },
  'token-bob': { token: 'token-bob', clientId: 'bob', scopes: ['mcp'], expiresAt: LATER },
  'token-expired': { token: 'token-expired', clientId: 'alice', scopes: ['mcp'], expiresAt: 1 },
  'token-unscoped': { token: 'token-unscoped', clientId: 'carol', scopes: [], expiresAt: LATER },
};
const verifier = {
  verifyAccessToken: async (token: string): Promise<AuthInfo> => {
    const info = TOKENS[token];
    if (info === undefined) throw new OAuthError(OAuthErrorCode.InvalidToken, 'unknown token');
    return info;
  },
};

interface Raw {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

function raw(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname: target.hostname, port: target.port, path: target.pathname, method, headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let data = '';
      res.on('data', (chunk: Buffer) => (data += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });

describe('serveHttp with auth (SDK v2 bearer tokens)', () => {
  let endpoint: McpHttpEndpoint;
  const sent: string[] = [];
  beforeAll(async () => {
    const tools = new Tools();
    tools.action({ name: 'whoami', description: 'The caller.', params: { type: 'object', properties: {} }, inject: { mcp: McpRequest } }, (_params: unknown, { mcp }: { mcp: McpRequest }) => mcp.authInfo?.clientId ?? 'nobody');
    tools.action({ name: 'pay', description: 'Pay someone.', params: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] }, requiresApproval: true }, (params: Record<string, unknown>) => {
      sent.push(String(params.to));
      return `paid ${String(params.to)}`;
    });
    const states = new McpRequestStates({ key: 'a'.repeat(32), usedStates: new McpMemoryUsedStates() });
    endpoint = await serveHttp(
      () => {
        const server = new McpServer({ name: 'auth', version: '1' }, { requestState: { verify: states.verify } });
        serveTools(server, tools, { approvalState: states });
        return server;
      },
      { auth: { verifier, requiredScopes: ['mcp'], resourceMetadataUrl: 'https://mcp.example/.well-known/oauth-protected-resource' } },
    );
  });
  afterAll(() => endpoint.close());

  it.each([
    ['no Authorization header', {}, 401, /invalid_token/],
    ['a token the verifier does not know', bearer('token-forged'), 401, /invalid_token/],
    ['an expired token', bearer('token-expired'), 401, /invalid_token/],
    ['a scheme other than Bearer', { Authorization: 'Basic YWxpY2U6cHc=' }, 401, /invalid_token/],
    ['a token without the required scope', bearer('token-unscoped'), 403, /insufficient_scope/],
  ] as const)('answers %s with the challenge, before any server is built, on both eras', async (_name, headers, status, challenge) => {
    const discover = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } });
    for (const body of [INITIALIZE, discover]) {
      const answer = await raw(endpoint.url, 'POST', headers, body);
      expect(answer.status).toBe(status);
      expect(String(answer.headers['www-authenticate'])).toMatch(challenge);
      expect(String(answer.headers['www-authenticate'])).toContain('resource_metadata="https://mcp.example/.well-known/oauth-protected-resource"');
    }
    expect((await raw(endpoint.url, 'GET', headers)).status).toBe(status);
    expect(endpoint.sessions).toBe(0);
  });

  it('hands the verified AuthInfo to the tool: a 2026-07-28 client and a 2025-11-25 session', async () => {
    const modern = new Client2({ name: 'm', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await modern.connect(new Http2(new URL(endpoint.url), { requestInit: { headers: bearer('token-alice') } }));
    expect(modern.getProtocolEra()).toBe('modern');
    expect(text(await modern.callTool({ name: 'whoami', arguments: {} }))).toBe('alice');
    const legacy = new Client1({ name: 'l', version: '1' });
    await legacy.connect(new Http1(new URL(endpoint.url), { requestInit: { headers: bearer('token-bob') } }));
    expect(text(await legacy.callTool({ name: 'whoami', arguments: {} }))).toBe('bob');
    await modern.close();
    await legacy.close();
  });

  it("answers another principal's use of a session id 404 on POST, GET and DELETE, and the owner keeps the session", async () => {
    const opened = await raw(endpoint.url, 'POST', bearer('token-alice'), INITIALIZE);
    expect(opened.status).toBe(200);
    const session = { 'mcp-session-id': String(opened.headers['mcp-session-id']) };
    for (const [method, body] of [['POST', LIST], ['GET', undefined], ['DELETE', undefined]] as const) {
      const stolen = await raw(endpoint.url, method, { ...session, ...bearer('token-bob') }, body);
      expect({ method, status: stolen.status }).toEqual({ method, status: 404 });
    }
    const own = await raw(endpoint.url, 'POST', { ...session, ...bearer('token-alice'), 'mcp-protocol-version': '2025-11-25' }, LIST);
    expect(own.status).toBe(200);
    expect(own.body).toContain('whoami');
    expect((await raw(endpoint.url, 'DELETE', { ...session, ...bearer('token-alice') })).status).toBe(200);
  });

  it("refuses another principal's approval state over serveHttp, and runs the owner's retry once", async () => {
    const connect = async (token: string) => {
      const client = new Client2({ name: 'c', version: '1' }, { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false } });
      await client.connect(new Http2(new URL(endpoint.url), { requestInit: { headers: bearer(token) } }));
      return client;
    };
    const alice = await connect('token-alice');
    const bob = await connect('token-bob');
    try {
      const asked = (await alice.callTool({ name: 'pay', arguments: { to: 'mallory' } }, { allowInputRequired: true } as never)) as unknown as { resultType: string; requestState: string };
      expect(asked.resultType).toBe('input_required');
      const retry = (client: Client2) => client.callTool({ name: 'pay', arguments: { to: 'mallory' }, inputResponses: { approval: { action: 'accept', content: {} } }, requestState: asked.requestState } as never, { allowInputRequired: true } as never);
      await expect(retry(bob)).rejects.toMatchObject({ code: -32602 });
      expect(sent).toEqual([]);
      expect(text(await retry(alice))).toBe('paid mallory');
      expect(sent).toEqual(['mallory']);
    } finally {
      await alice.close();
      await bob.close();
    }
  });

  it('refuses auth with SDK 1.x servers, which have no token check', async () => {
    await expect(serveHttp(() => new McpServer1({ name: 'old', version: '1' }), { auth: { verifier } })).rejects.toMatchObject({ code: 'MCP_HTTP_OPTIONS', message: expect.stringMatching(/auth \(bearer tokens\) needs SDK v2/) });
  });
});
