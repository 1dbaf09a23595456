/**
 * The host loop docs/code-mode.md shows for late approvals over MCP 2026-07-28: a native `run_code` on an SDK v2
 * `McpServer` drives `CodeMode.start`, answers a paused run with `input_required` (one question per waiting call,
 * keyed by its id, a server-side handle as `requestState`) and resumes it from the client's retry. Real SDK client
 * and server over loopback HTTP. Attacks: a replayed, made-up or foreign handle, a changed program on the retry.
 */
import { randomUUID } from 'node:crypto';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { inputRequired, inputResponse, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { CodeMode, type CodeModeOutcome } from '../../lib/code-mode';
import { serveHttp, serveTools, type McpHttpEndpoint } from '../../lib/mcp';
import { registry } from './support';

jest.setTimeout(120_000);

const text = (result: unknown) => ((result as { content?: Array<{ text?: string }> }).content?.[0]?.text ?? '');

interface Asked {
  resultType: string;
  inputRequests: Record<string, { params?: { message?: string } }>;
  requestState: string;
}

function host() {
  const { tools, calls } = registry();
  tools.action({ name: 'wipe', description: 'Wipe a target.', params: { type: 'object', properties: { target: { type: 'string' } }, required: ['target'] }, requiresApproval: true }, ({ target }) => {
    calls.push(`wipe ${String(target)}`);
    return `wiped ${String(target)}`;
  });
  // Answers 'later' after a moment, so that calls made together all wait in one round.
  const codeMode = new CodeMode(tools, { approve: () => new Promise((resolve) => setTimeout(() => resolve('later'), 50)), ledgerKey: 'k'.repeat(32) });
  const paused = new Map<string, { ledger: string; ids: string[] }>();
  const reply = (outcome: CodeModeOutcome) => {
    if (outcome.status === 'finished') {
      const { ok, result, error } = outcome.result;
      return { content: [{ type: 'text' as const, text: String(ok ? result : error) }], isError: !ok };
    }
    const handle = randomUUID();
    paused.set(handle, { ledger: outcome.ledger, ids: outcome.calls.map((call) => call.id) });
    const questions = outcome.calls.map((call) => [call.id, inputRequired.elicit({ message: `Allow ${call.name} ${JSON.stringify(call.args)}?`, requestedSchema: { type: 'object', properties: {} } })] as const);
    return inputRequired({ inputRequests: Object.fromEntries(questions), requestState: handle });
  };
  const create = () => {
    const server = new McpServer({ name: 'ops', version: '1.0.0' });
    serveTools(server, tools);
    server.registerTool('run_code', { description: codeMode.tool().resolveDescription(tools.context), inputSchema: z.object({ code: z.string() }) }, async ({ code }, ctx) => {
      const handle = ctx.mcpReq.requestState<string>();
      if (handle === undefined) return reply(await codeMode.start(code, { signal: ctx.mcpReq.signal }));
      const run = paused.get(handle);
      if (run === undefined) return { content: [{ type: 'text' as const, text: 'This approval was used already or has expired; run the program again.' }], isError: true };
      paused.delete(handle);
      const approved = Object.fromEntries(
        run.ids.map((id) => {
          const answer = inputResponse(ctx.mcpReq.inputResponses, id);
          return [id, answer.kind === 'elicit' && answer.action === 'accept'] as const;
        }),
      );
      return reply(await codeMode.start(code, { signal: ctx.mcpReq.signal, resume: { ledger: run.ledger, approved } }));
    });
    return server;
  };
  return { calls, create };
}

const PROGRAM = 'const sum = await tools.add({ a: 1, b: 2 });\nconst out = await Promise.all(["a", "b"].map((target) => tools.wipe({ target }).catch((e) => "refused: " + e.message)));\nreturn [sum, ...out];';

describe('late approvals over MCP 2026-07-28, as docs/code-mode.md shows', () => {
  let endpoint: McpHttpEndpoint;
  let client: V2Client;
  let calls: string[];
  beforeAll(async () => {
    const made = host();
    calls = made.calls;
    endpoint = await serveHttp(made.create);
    client = new V2Client({ name: 'manual', version: '1' }, { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false } });
    await client.connect(new V2HttpTransport(new URL(endpoint.url)));
  });
  afterAll(async () => {
    await client.close();
    await endpoint.close();
  });
  beforeEach(() => calls.splice(0));

  const ask = async (code: string) => (await client.callTool({ name: 'run_code', arguments: { code } }, { allowInputRequired: true } as never)) as unknown as Asked;
  const retry = (code: string, requestState: string, inputResponses: Record<string, unknown>) =>
    client.callTool({ name: 'run_code', arguments: { code }, inputResponses, requestState } as never, { allowInputRequired: true } as never);
  const accept = { action: 'accept', content: {} };

  it('asks one question per waiting call; the retry runs the accepted one, declines the other, and the earlier call does not run again', async () => {
    const first = await ask(PROGRAM);
    expect(first.resultType).toBe('input_required');
    const [a, b] = Object.keys(first.inputRequests) as [string, string];
    expect([a, b]).toEqual([expect.stringMatching(/^wipe-\d+-2$/), expect.stringMatching(/^wipe-\d+-3$/)]);
    expect(first.inputRequests[a]!.params?.message).toBe('Allow wipe {"target":"a"}?');
    expect(calls).toEqual(['add 1 2']);
    const done = await retry(PROGRAM, first.requestState, { [a]: accept, [b]: { action: 'decline' } });
    const [sum, wipedA, wipedB] = JSON.parse(text(done)) as [number, string, string];
    expect([sum, wipedA]).toEqual([3, 'wiped a']);
    expect(wipedB).toMatch(/^refused: The user declined to run tool 'wipe'/);
    expect(calls).toEqual(['add 1 2', 'wipe a']);
  });

  it.each([
    ['a replayed handle', async (state: string, ids: string[]) => (await retry(PROGRAM, state, Object.fromEntries(ids.map((id) => [id, accept])))) && state],
    ['a made-up handle', async () => randomUUID()],
  ])('refuses %s: nothing runs again', async (_, forge) => {
    const first = await ask(PROGRAM);
    const ids = Object.keys(first.inputRequests);
    const state = await forge(first.requestState, ids);
    const before = [...calls];
    const refused = await retry(PROGRAM, state, Object.fromEntries(ids.map((id) => [id, accept])));
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/used already or has expired/);
    expect(calls).toEqual(before);
  });

  it('refuses a retry that sends another program with the handle: nothing runs', async () => {
    const first = await ask(PROGRAM);
    const ids = Object.keys(first.inputRequests);
    const other = await retry('return await tools.wipe({ target: "everything" })', first.requestState, Object.fromEntries(ids.map((id) => [id, accept])));
    expect(other.isError).toBe(true);
    expect(text(other)).toMatch(/made for another program/);
    expect(calls).toEqual(['add 1 2']);
  });
});
