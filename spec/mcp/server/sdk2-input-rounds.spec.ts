/**
 * A tool's own questions over MCP 2026-07-28 (`McpRequest.elicitInput` / `createMessage` / `listRoots` become input
 * requests of an `input_required` result; the tool runs again on the retry), composed with the approval round, and
 * attacks on their `requestState` with the server's `requestState.verify` hook: tampered and expired states get
 * -32602, foreign and replayed ones a failed result. Real SDK v2 client over `serveHttp` on loopback.
 */
import 'reflect-metadata';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { Type } from 'typebox';
import { Action, Inject, Tools } from '../../../lib';
import { McpRequest, McpRequestStates, serveHttp, serveTools, type McpHttpEndpoint } from '../../../lib/mcp';

const text = (result: unknown) => ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? '');
const FORM = { type: 'object' as const, properties: { value: { type: 'string' as const } } };

class Asking {
  readonly ran: string[] = [];
  readonly done: string[] = [];

  @Action('Asks a name.', { effects: [] })
  async greet(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    this.ran.push('greet');
    const answer = await mcp.elicitInput({ message: 'Name?', requestedSchema: FORM }, { key: 'name' });
    return `Hello, ${String(answer.content?.value)}`;
  }

  @Action('Asks three things at once, unnamed.', { effects: [] })
  async three(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    const [a, b, c] = await Promise.all([mcp.elicitInput({ message: 'A?', requestedSchema: FORM }), mcp.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'B?' } }], maxTokens: 5 }), mcp.listRoots()]);
    return `${String(a.content?.value)} ${b.content.type === 'text' ? b.content.text : ''} ${c.roots.length}`;
  }

  @Action('Asks twice, one round each.', { params: Type.Object({ id: Type.String() }), effects: [] })
  async twice({ id }: { id: string }, @Inject(McpRequest) mcp: McpRequest): Promise<string> {
    const first = await mcp.elicitInput({ message: 'First?', requestedSchema: FORM });
    const second = await mcp.elicitInput({ message: 'Second?', requestedSchema: FORM });
    this.done.push(`twice ${id}`);
    return `${String(first.content?.value)}+${String(second.content?.value)}`;
  }

  @Action('Pays after approval and a question.', { params: Type.Object({ amount: Type.Number() }), requiresApproval: true })
  async pay({ amount }: { amount: number }, @Inject(McpRequest) mcp: McpRequest): Promise<string> {
    const memo = await mcp.elicitInput({ message: 'Memo?', requestedSchema: FORM }, { key: 'memo' });
    this.done.push(`pay ${amount} ${String(memo.content?.value)}`);
    return `paid ${amount}`;
  }

  @Action('Needs sampling.', { effects: [] })
  async sample(@Inject(McpRequest) mcp: McpRequest): Promise<string> {
    const answer = await mcp.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 });
    return answer.content.type === 'text' ? answer.content.text : '';
  }
}

interface Asked {
  resultType?: string;
  inputRequests: Record<string, { method: string; params?: { message?: string } }>;
  requestState: string;
  isError?: boolean;
}

const accept = (value: string) => ({ action: 'accept', content: { value } });

describe('a tool asking its own questions over MCP 2026-07-28 (input_required)', () => {
  let endpoint: McpHttpEndpoint;
  let asking: Asking;
  let client: V2Client;
  beforeAll(async () => {
    asking = new Asking();
    const tools = new Tools().register(asking);
    const states = new McpRequestStates({ key: 's'.repeat(32), ttlSeconds: 60 });
    endpoint = await serveHttp(() => {
      const server = new McpServer({ name: 'asking', version: '1.0.0' }, { requestState: { verify: states.verify } });
      serveTools(server, tools, { approvalState: states });
      return server;
    });
    client = new V2Client({ name: 'manual', version: '1' }, { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} }, inputRequired: { autoFulfill: false } });
    await client.connect(new V2HttpTransport(new URL(endpoint.url)));
  });
  afterAll(async () => {
    await client.close();
    await endpoint.close();
  });
  const call = async (name: string, args: Record<string, unknown>, inputResponses?: Record<string, unknown>, requestState?: string) =>
    (await client.callTool({ name, arguments: args, ...(inputResponses === undefined ? {} : { inputResponses }), ...(requestState === undefined ? {} : { requestState }) } as never, { allowInputRequired: true } as never)) as unknown as Asked;

  it('asks under the named key, and the retry runs the tool again with the answer', async () => {
    const first = await call('greet', {});
    expect(first.resultType).toBe('input_required');
    expect(Object.keys(first.inputRequests)).toEqual(['name']);
    expect(first.inputRequests.name).toMatchObject({ method: 'elicitation/create', params: { message: 'Name?' } });
    const before = asking.ran.length;
    expect(text(await call('greet', {}, { name: accept('Ada'), extra: accept('ignored') }, first.requestState))).toBe('Hello, Ada');
    expect(asking.ran.length).toBe(before + 1); // the code before the question ran again
  });

  it('asks again when the retry does not answer the key it was asked', async () => {
    const first = await call('greet', {});
    const again = await call('greet', {}, { other: accept('x') }, first.requestState);
    expect(again.resultType).toBe('input_required');
    expect(Object.keys(again.inputRequests)).toEqual(['name']);
  });

  it('makes one round of questions asked together, keyed by their order', async () => {
    const first = await call('three', {});
    expect(Object.fromEntries(Object.entries(first.inputRequests).map(([key, request]) => [key, request.method]))).toEqual({ 'input-1': 'elicitation/create', 'input-2': 'sampling/createMessage', 'input-3': 'roots/list' });
    const answers = { 'input-1': accept('a'), 'input-2': { role: 'assistant', content: { type: 'text', text: 'b' }, model: 'm', stopReason: 'endTurn' }, 'input-3': { roots: [{ uri: 'file:///x' }] } };
    expect(text(await call('three', {}, answers, first.requestState))).toBe('a b 1');
  });

  it('carries the answers of one round into the next in a new state, each state used once', async () => {
    const first = await call('twice', { id: 't1' });
    expect(Object.keys(first.inputRequests)).toEqual(['input-1']);
    const second = await call('twice', { id: 't1' }, { 'input-1': accept('x') }, first.requestState);
    expect(Object.keys(second.inputRequests)).toEqual(['input-2']);
    expect(second.requestState).not.toBe(first.requestState);
    const replay = await call('twice', { id: 't1' }, { 'input-1': accept('y') }, first.requestState);
    expect(replay.isError).toBe(true);
    expect(text(replay)).toMatch(/used already/);
    expect(text(await call('twice', { id: 't1' }, { 'input-2': accept('z') }, second.requestState))).toBe('x+z');
    expect(asking.done.filter((entry) => entry === 'twice t1')).toHaveLength(1);
  });

  it('asks approval first, then the tool’s question, without asking approval again', async () => {
    const approval = await call('pay', { amount: 5 });
    expect(Object.keys(approval.inputRequests)).toEqual(['approval']);
    const memo = await call('pay', { amount: 5 }, { approval: { action: 'accept', content: {} } }, approval.requestState);
    expect(Object.keys(memo.inputRequests)).toEqual(['memo']);
    expect(asking.done).not.toContain('pay 5 rent');
    expect(text(await call('pay', { amount: 5 }, { memo: accept('rent') }, memo.requestState))).toBe('paid 5');
    expect(asking.done.filter((entry) => entry === 'pay 5 rent')).toHaveLength(1);
  });

  it('refuses a state of a later round for other arguments (the approval does not move to another call)', async () => {
    const approval = await call('pay', { amount: 6 });
    const memo = await call('pay', { amount: 6 }, { approval: { action: 'accept', content: {} } }, approval.requestState);
    const other = await call('pay', { amount: 6000 }, { memo: accept('rent') }, memo.requestState);
    expect(other.isError).toBe(true);
    expect(text(other)).toMatch(/another call/);
    expect(asking.done.some((entry) => entry.startsWith('pay 6000'))).toBe(false);
  });

  it('answers -32602 to a tampered, made-up or expired state (the verify hook), and runs nothing', async () => {
    const first = await call('twice', { id: 't2' });
    const second = await call('twice', { id: 't2' }, { 'input-1': accept('x') }, first.requestState);
    const [version, body, mac] = second.requestState.split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString()) as { p: Record<string, unknown> };
    const forgedAnswers = `${version}.${Buffer.from(JSON.stringify({ ...payload, p: { ...payload.p, answers: { 'input-1': accept('evil') } } })).toString('base64url')}.${mac}`;
    const approvedByHand = `${version}.${Buffer.from(JSON.stringify({ ...payload, p: { ...payload.p, approved: true } })).toString('base64url')}.${mac}`;
    for (const state of [`${second.requestState}-TAMPERED`, forgedAnswers, approvedByHand, 'made-up']) {
      await expect(call('twice', { id: 't2' }, { 'input-2': accept('z') }, state)).rejects.toMatchObject({ code: -32602 });
    }
    const clock = jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 61_000);
    try {
      await expect(call('twice', { id: 't2' }, { 'input-2': accept('z') }, second.requestState)).rejects.toMatchObject({ code: -32602 });
    } finally {
      clock.mockRestore();
    }
    expect(asking.done).not.toContain('twice t2');
  });

  it('answers -32021 to a question the client declared no capability for', async () => {
    const bare = new V2Client({ name: 'bare', version: '1' }, { versionNegotiation: { mode: 'auto' }, capabilities: {}, inputRequired: { autoFulfill: false } });
    await bare.connect(new V2HttpTransport(new URL(endpoint.url)));
    try {
      await expect(bare.callTool({ name: 'sample', arguments: {} }, { allowInputRequired: true } as never)).rejects.toMatchObject({ code: -32021 });
    } finally {
      await bare.close();
    }
  });
});
