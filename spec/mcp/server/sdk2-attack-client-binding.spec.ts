/**
 * The approval state of MCP 2026-07-28 (`requestState` of an `input_required` round) is bound to the authenticated
 * client that was asked (`McpRequestStates`: the codec's bind is the method and `authInfo.clientId`): client B cannot
 * use client A's state, whether B authenticates as another client, does not authenticate, or A did not. Real SDK v2
 * clients against the SDK's `createMcpHandler`, which takes the caller's `authInfo` with each request (`fetch(request,
 * { authInfo })`, what an authenticating front does after verifying a bearer token); with the `requestState.verify`
 * hook (JSON-RPC -32602) and without it (a failed result).
 */
import 'reflect-metadata';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, McpServer, type AuthInfo } from '@modelcontextprotocol/server';
import { BillingTools } from '../../../examples/mcp-server';
import { Tools } from '../../../lib';
import { McpMemoryUsedStates, McpRequest, serveTools } from '../../../lib/mcp';
import { McpRequestStates } from '../../../lib/mcp/server/v2/approval-state';

const text = (result: unknown) => ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? '');

interface AskResult {
  resultType: string;
  inputRequests: Record<string, unknown>;
  requestState: string;
}

const ACCEPT = { approval: { action: 'accept', content: {} } };
const alice: AuthInfo = { token: 'token-of-alice', clientId: 'alice-app', scopes: [] };
const bob: AuthInfo = { token: 'token-of-bob', clientId: 'bob-app', scopes: [] };

type Handler = ReturnType<typeof createMcpHandler>;

/** One caller: a 2026-07-28 client that fulfils nothing itself, each of its requests handed over with `auth`. */
async function caller(handler: Handler, auth: AuthInfo | undefined): Promise<V2Client> {
  const client = new V2Client({ name: 'caller', version: '1' }, { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false } });
  const fetch = (url: string | URL, init?: RequestInit) => handler.fetch(new Request(url, init), auth === undefined ? undefined : { authInfo: auth });
  await client.connect(new V2HttpTransport(new URL('http://mcp.test/mcp'), { fetch }));
  return client;
}

const ask = async (client: V2Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args }, { allowInputRequired: true } as never)) as unknown as AskResult;
const retry = (client: V2Client, name: string, args: Record<string, unknown>, requestState: string, inputResponses: Record<string, unknown> = ACCEPT) =>
  client.callTool({ name, arguments: args, inputResponses, requestState } as never, { allowInputRequired: true } as never);

/** Billing, plus a transfer that is approved first and then asks the user for a reference (a second round). */
class Payments extends BillingTools {
  readonly transfers: string[] = [];
}

function registry(payments: Payments): Tools {
  const tools = new Tools().register(payments);
  tools.action(
    { name: 'transfer', description: 'Transfer money.', params: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] }, requiresApproval: true, inject: { mcp: McpRequest } },
    async (params: Record<string, unknown>, { mcp }: { mcp: McpRequest }) => {
      const to = String(params.to);
      const answer = await mcp.elicitInput({ message: 'Reference?', requestedSchema: { type: 'object', properties: { ref: { type: 'string' } }, required: ['ref'] } }, { key: 'ref' });
      const ref = String(answer.content?.ref);
      payments.transfers.push(`${to}:${ref}`);
      return `sent to ${to} (${ref})`;
    },
  );
  return tools;
}

describe.each([
  ['with the verify hook', true],
  ['without the verify hook', false],
])('an approval state of one caller, used by another (%s)', (_title, hook) => {
  let handler: Handler;
  let payments: Payments;
  const open: V2Client[] = [];
  beforeAll(() => {
    payments = new Payments();
    const tools = registry(payments);
    const states = new McpRequestStates({ key: 'b'.repeat(32), usedStates: new McpMemoryUsedStates() });
    handler = createMcpHandler(
      () => {
        const server = new McpServer({ name: 'billing', version: '1.0.0' }, hook ? { requestState: { verify: states.verify } } : {});
        serveTools(server, tools, { approvalState: states });
        return server;
      },
      { legacy: 'reject' },
    );
  });
  afterAll(async () => {
    for (const client of open) await client.close();
    await handler.close();
  });
  const connect = async (auth: AuthInfo | undefined) => {
    const client = await caller(handler, auth);
    open.push(client);
    return client;
  };

  /** What the thief's retry must get: -32602 before any handler with the hook, a failed result without it. */
  const expectRefused = async (attempt: Promise<unknown>) => {
    if (hook) {
      await expect(attempt).rejects.toMatchObject({ code: -32602 });
      return;
    }
    const result = await attempt;
    expect((result as { isError?: boolean }).isError).toBe(true);
    expect(text(result)).toMatch(/forged, expired or for another client/);
  };

  it.each([
    ['another client', alice, bob],
    ['no authentication, when the owner had one', alice, undefined],
    ['an authenticated client, when the owner had none', undefined, bob],
  ])('refuses the approved retry of %s, runs nothing, and leaves the state to its owner', async (_who, owner, thief) => {
    const a = await connect(owner);
    const b = await connect(thief);
    const orderId = `o-${String(owner?.clientId)}-${String(thief?.clientId)}`;
    const args = { orderId, amount: 5 };
    const first = await ask(a, 'refund', args);
    expect(first.resultType).toBe('input_required');
    expect(Object.keys(first.inputRequests)).toEqual(['approval']);

    await expectRefused(retry(b, 'refund', args, first.requestState));
    expect(payments.refunds.filter((refund) => refund.orderId === orderId)).toHaveLength(0);

    // The thief's attempt did not use the state up: its owner's retry runs the call, once.
    expect(text(await retry(a, 'refund', args, first.requestState))).toBe(`Refunded 5 for order ${orderId}.`);
    expect(payments.refunds.filter((refund) => refund.orderId === orderId)).toHaveLength(1);
  });

  it("refuses another client's later-round state, which says the call was approved already", async () => {
    const a = await connect(alice);
    const b = await connect(bob);
    const args = { to: 'carol' };
    const first = await ask(a, 'transfer', args);
    const second = (await retry(a, 'transfer', args, first.requestState)) as unknown as AskResult;
    expect(second.resultType).toBe('input_required');
    expect(Object.keys(second.inputRequests)).toEqual(['ref']);

    await expectRefused(retry(b, 'transfer', args, second.requestState, { ref: { action: 'accept', content: { ref: 'bob' } } }));
    expect(payments.transfers).toEqual([]);

    expect(text(await retry(a, 'transfer', args, second.requestState, { ref: { action: 'accept', content: { ref: 'alice' } } }))).toBe('sent to carol (alice)');
    expect(payments.transfers).toEqual(['carol:alice']);
  });

  it('binds to the client id, not the token: the same client with another (a refreshed) token keeps its state', async () => {
    const a = await connect(alice);
    const refreshed = await connect({ ...alice, token: 'refreshed-token-of-alice' });
    const args = { orderId: 'o-refreshed', amount: 1 };
    const first = await ask(a, 'refund', args);
    expect(text(await retry(refreshed, 'refund', args, first.requestState))).toBe('Refunded 1 for order o-refreshed.');
  });

  it('without authentication every caller is the same client: any of them may use a state, once', async () => {
    const a = await connect(undefined);
    const b = await connect(undefined);
    const args = { orderId: 'o-anonymous', amount: 2 };
    const first = await ask(a, 'refund', args);
    expect(text(await retry(b, 'refund', args, first.requestState))).toBe('Refunded 2 for order o-anonymous.');
    const again = await retry(a, 'refund', args, first.requestState);
    expect(text(again)).toMatch(/used already/);
    expect(payments.refunds.filter((refund) => refund.orderId === 'o-anonymous')).toHaveLength(1);
  });
});
