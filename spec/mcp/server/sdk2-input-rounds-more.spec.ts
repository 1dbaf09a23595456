/**
 * More of a tool's questions through `McpRequest`: on a 2025-11-25 session (SDK v2 server) and on an SDK 1.x server
 * they stay requests to the client (the tool runs once); on 2026-07-28 a URL elicitation, two questions under one
 * key, a tool that finishes while a question waits, the client cancelling a call that asks, and more forms of the
 * state attacks (another tool's round state, another key's state). Real SDK clients over `serveHttp` and in memory.
 */
import 'reflect-metadata';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as V1Server } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServer } from '@modelcontextprotocol/server';
import { Action, Inject, Tools } from '../../../lib';
import { McpRequest, McpRequestStates, serveHttp, serveTools, type McpHttpEndpoint } from '../../../lib/mcp';

const text = (result: unknown) => ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? '');
const FORM = { type: 'object' as const, properties: { value: { type: 'string' as const } } };

class Asking {
  runs = 0;
  finallies = 0;

  @Action('Lists the roots and asks a name.', { effects: [] })
  async rootsAndName(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    this.runs++;
    const { roots } = await mcp.listRoots({ key: 'roots' });
    const name = await mcp.elicitInput({ message: 'Name?', requestedSchema: FORM });
    return `${roots.map((root) => root.uri).join(',')} ${String(name.content?.value)}`;
  }

  @Action('Sends the user to a page.', { effects: [] })
  async visit(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    const answer = await mcp.elicitInput({ mode: 'url', message: 'Sign in', url: 'https://example.com/sign-in', elicitationId: 'e-1' }, { key: 'signin' });
    return answer.action;
  }

  @Action('Asks two questions under one key.', { effects: [] })
  async clash(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    try {
      await Promise.all([mcp.elicitInput({ message: 'A?', requestedSchema: FORM }, { key: 'same' }), mcp.elicitInput({ message: 'B?', requestedSchema: FORM }, { key: 'same' })]);
      return 'both';
    } catch (error) {
      return (error as Error).message;
    }
  }

  @Action('Asks under the approval key.', { effects: [] })
  async squat(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    return mcp.elicitInput({ message: 'Approve?', requestedSchema: FORM }, { key: 'approval' }).then(
      () => 'answered',
      (error: Error) => error.message,
    );
  }

  @Action('Needs approval, then asks a name.', { effects: [], requiresApproval: true })
  async guarded(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    this.runs++;
    const name = await mcp.elicitInput({ message: 'Name?', requestedSchema: FORM });
    return `guarded ${String(name.content?.value)}`;
  }

  @Action('Asks, but does not wait for the answer.', { effects: [] })
  impatient(@Inject(McpRequest) mcp: McpRequest): string {
    void mcp.elicitInput({ message: 'Ignored?', requestedSchema: FORM }).catch(() => undefined);
    return 'did not wait';
  }

  @Action('Asks and cleans up when the round is cut short.', { effects: [] })
  async tidy(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    try {
      await mcp.elicitInput({ message: 'Tidy?', requestedSchema: FORM });
      return 'answered';
    } finally {
      this.finallies++;
    }
  }
}

const accept = (value: string) => ({ action: 'accept', content: { value } });

interface Asked {
  resultType?: string;
  inputRequests: Record<string, { method: string; params?: Record<string, unknown> }>;
  requestState: string;
  isError?: boolean;
}

describe("a tool's questions on sessions and SDK 1.x, and more 2026-07-28 forms", () => {
  let endpoint: McpHttpEndpoint;
  let asking: Asking;
  const states = new McpRequestStates({ key: 'm'.repeat(32), ttlSeconds: 60 });
  beforeAll(async () => {
    asking = new Asking();
    const tools = new Tools().register(asking);
    endpoint = await serveHttp(() => {
      const server = new McpServer({ name: 'asking', version: '1.0.0' }, { requestState: { verify: states.verify } });
      serveTools(server, tools, { approvalState: states });
      return server;
    });
  });
  afterAll(() => endpoint.close());

  it('asks a 2025-11-25 session with requests (roots/list, elicitation/create), running the tool once', async () => {
    const client = new V1Client({ name: 'legacy', version: '1' }, { capabilities: { roots: {}, elicitation: { form: {} } } });
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: 'file:///work' }] }));
    client.setRequestHandler(ElicitRequestSchema, () => accept('Ada'));
    await client.connect(new V1HttpTransport(new URL(endpoint.url)));
    try {
      const before = asking.runs;
      expect(text(await client.callTool({ name: 'rootsAndName', arguments: {} }))).toBe('file:///work Ada');
      expect(asking.runs).toBe(before + 1);
    } finally {
      await client.close();
    }
  });

  it("asks a 2025-11-25 session's approval and question through requests, with the verify hook configured", async () => {
    const messages: string[] = [];
    const client = new V1Client({ name: 'legacy', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, (req) => {
      messages.push(req.params.message);
      return messages.length === 1 ? { action: 'accept', content: {} } : accept('Cy');
    });
    await client.connect(new V1HttpTransport(new URL(endpoint.url)));
    try {
      expect(text(await client.callTool({ name: 'guarded', arguments: {} }))).toBe('guarded Cy');
      expect(messages).toEqual([expect.stringContaining("Allow tool 'guarded'"), 'Name?']);
    } finally {
      await client.close();
    }
  });

  it('asks an SDK 1.x client of an SDK 1.x server for its roots with a request', async () => {
    const server = new V1Server({ name: 'v1', version: '1' });
    serveTools(server, new Tools().register(new Asking()));
    const client = new V1Client({ name: 'v1-client', version: '1' }, { capabilities: { roots: {}, elicitation: { form: {} } } });
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: 'file:///one' }, { uri: 'file:///two' }] }));
    client.setRequestHandler(ElicitRequestSchema, () => accept('Bo'));
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    try {
      expect(text(await client.callTool({ name: 'rootsAndName', arguments: {} }))).toBe('file:///one,file:///two Bo');
    } finally {
      await client.close();
      await server.close();
    }
  });

  describe('on 2026-07-28', () => {
    let client: V2Client;
    beforeAll(async () => {
      client = new V2Client({ name: 'manual', version: '1' }, { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {}, url: {} }, roots: {} }, inputRequired: { autoFulfill: false } });
      await client.connect(new V2HttpTransport(new URL(endpoint.url)));
    });
    afterAll(() => client.close());
    const call = async (name: string, inputResponses?: Record<string, unknown>, requestState?: string) =>
      (await client.callTool({ name, arguments: {}, ...(inputResponses === undefined ? {} : { inputResponses }), ...(requestState === undefined ? {} : { requestState }) } as never, { allowInputRequired: true } as never)) as unknown as Asked;

    it('asks a URL elicitation in the 2026-07-28 form (no elicitationId)', async () => {
      const first = await call('visit');
      expect(first.inputRequests.signin).toMatchObject({ method: 'elicitation/create', params: { mode: 'url', message: 'Sign in', url: 'https://example.com/sign-in' } });
      expect(first.inputRequests.signin!.params).not.toHaveProperty('elicitationId');
      expect(text(await call('visit', { signin: { action: 'accept' } }, first.requestState))).toBe('accept');
    });

    it('refuses a second question under a key the round used already', async () => {
      expect(text(await call('clash'))).toMatch(/Two questions of one round use the key 'same'/);
    });

    it('refuses a question under the approval key', async () => {
      expect(text(await call('squat'))).toMatch(/reserved for the approval question/);
    });

    it('answers the result of a tool that finished while its question waited', async () => {
      const result = await call('impatient');
      expect(result.resultType).not.toBe('input_required');
      expect(text(result)).toBe('did not wait');
    });

    it('lets a cut-short round unwind (finally runs once per round)', async () => {
      const before = asking.finallies;
      const first = await call('tidy');
      expect(first.resultType).toBe('input_required');
      expect(asking.finallies).toBe(before + 1);
      expect(text(await call('tidy', { 'input-1': accept('x') }, first.requestState))).toBe('answered');
      expect(asking.finallies).toBe(before + 2);
    });

    it("refuses another tool's round state, and a state signed with another key gets -32602", async () => {
      const first = await call('rootsAndName');
      const other = await call('tidy', { 'input-1': accept('x') }, first.requestState);
      expect(other.isError).toBe(true);
      expect(text(other)).toMatch(/another call/);
      const ctx = { mcpReq: { method: 'tools/call' } } as never;
      const foreign = await new McpRequestStates({ key: 'f'.repeat(32) }).mint('tidy', {}, ctx, { asked: ['input-1'] });
      await expect(call('tidy', { 'input-1': accept('x') }, foreign)).rejects.toMatchObject({ code: -32602 });
    });

    it('takes a decoded payload as verified only from its own hook: another instance (another key) opens it as invalid', async () => {
      const ctx = { mcpReq: { method: 'tools/call' } } as never;
      const mine = new McpRequestStates({ key: 'a'.repeat(32) });
      const other = new McpRequestStates({ key: 'b'.repeat(32) });
      const payload = await mine.verify(await mine.mint('tidy', {}, ctx, { asked: ['input-1'] }), ctx);
      expect(await other.open(payload, 'tidy', {}, ctx)).toBe('invalid');
      expect(await other.open({ ...payload }, 'tidy', {}, ctx)).toBe('invalid');
      expect(await mine.open({ ...payload }, 'tidy', {}, ctx)).toBe('invalid');
      expect(await mine.open(payload, 'tidy', {}, ctx)).toMatchObject({ tool: 'tidy', asked: ['input-1'] });
      expect(await mine.open(payload, 'tidy', {}, ctx)).toBe('replayed');
    });
  });
});
