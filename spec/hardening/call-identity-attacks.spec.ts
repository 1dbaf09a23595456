// Attack specs: an approval covers exactly the call it was asked for (issue: approvals keyed by call id, ids empty or
// repeated), and no path runs an approval-gated call nobody approved.
import { Type } from '@sinclair/typebox';
import {
  approvalKey,
  approvalOf,
  executeToolCalls,
  runToolCalls,
  Tools,
  type ActionResult,
  type BatchCall,
  type CallApproval,
  type ToolCallRequest,
  type ToolLogger,
} from '../../lib';
import { PermissionEngine, PermissionMiddleware, PermissionMode, type PermissionDecision } from '../../lib/permissions';
import { anthropicToolResultMessage, anthropicToolUses } from '../../lib/providers/anthropic';
import { geminiFunctionCalls, geminiFunctionResponseContent } from '../../lib/providers/gemini';
import { openAIChatToolCalls, openAIChatToolMessages, openAIResponsesToolCalls, openAIResponsesToolOutput } from '../../lib/providers/openai';

const quiet: ToolLogger = { warn: () => undefined, error: () => undefined };

/** A Bash-like probe: every call needs approval; `ran` records what really ran. */
function probe() {
  const ran: string[] = [];
  const tools = new Tools({ logger: quiet });
  tools.action({ name: 'Bash', description: 'Run a shell command.', params: Type.Object({ command: Type.String(), timeout: Type.Optional(Type.Integer({ default: 60 })) }), requiresApproval: true }, ({ command }) => {
    ran.push(command);
    return 'done';
  });
  tools.action({ name: 'Shell', description: 'Another shell.', params: Type.Object({ command: Type.String() }), requiresApproval: true }, ({ command }) => {
    ran.push(`shell:${command}`);
    return 'done';
  });
  return { tools, ran };
}

const TOUCH = { command: 'touch build.log' };
const RM = { command: 'rm -rf precious' };

/** The two calls, as each provider's response carries them: no ids (Gemini), an empty id, or one id twice. */
const responses: Array<[string, (id1: string | undefined, id2: string | undefined) => ToolCallRequest[]]> = [
  ['gemini', (a, b) => geminiFunctionCalls({ candidates: [{ content: { parts: [{ functionCall: { ...(a === undefined ? {} : { id: a }), name: 'Bash', args: TOUCH } }, { functionCall: { ...(b === undefined ? {} : { id: b }), name: 'Bash', args: RM } }] } }] })],
  ['openai chat', (a, b) => openAIChatToolCalls({ tool_calls: [{ id: a ?? '', type: 'function', function: { name: 'Bash', arguments: JSON.stringify(TOUCH) } }, { id: b ?? '', type: 'function', function: { name: 'Bash', arguments: JSON.stringify(RM) } }] })],
  ['openai responses', (a, b) => openAIResponsesToolCalls({ output: [{ type: 'function_call', call_id: a ?? '', name: 'Bash', arguments: JSON.stringify(TOUCH) }, { type: 'function_call', call_id: b ?? '', name: 'Bash', arguments: JSON.stringify(RM) }] as never })],
  ['anthropic', (a, b) => anthropicToolUses({ content: [{ type: 'tool_use', id: a ?? '', name: 'Bash', input: TOUCH }, { type: 'tool_use', id: b ?? '', name: 'Bash', input: RM }] })],
];
const idCases: Array<[string, string | undefined, string | undefined]> = [
  ['no ids', undefined, undefined],
  ['empty ids', '', ''],
  ['one id twice', 'call_1', 'call_1'],
  ['the second reusing the first id', 'toolu_9', 'toolu_9'],
];

/** docs/permissions.md's host loop; the user approves only what `yes` accepts. */
async function hostLoop(tools: Tools, calls: BatchCall[], yes: (call: BatchCall) => boolean, engine?: PermissionEngine) {
  const replies: Array<[BatchCall, ActionResult<unknown>]> = [];
  const asked: BatchCall[] = [];
  let pending = calls;
  const approved: CallApproval[] = [];
  while (pending.length > 0) {
    const { ran, waiting } = await runToolCalls(tools, pending, { engine, approved });
    for (const { call, result } of ran) replies.push([call, result]);
    const head = waiting[0];
    if (head === undefined) break;
    if (head.reason === 'approval') asked.push(head.call);
    if (head.reason === 'approval' && yes(head.call)) {
      approved.push(head.approval);
      pending = waiting.map((w) => w.call);
    } else {
      replies.push([head.call, tools.declined(head.call.name)]);
      pending = waiting.slice(1).map((w) => w.call);
    }
  }
  return { replies, asked };
}

const isTouch = (call: BatchCall) => JSON.stringify(call.args).includes('touch');

describe('attack: one approval, two calls', () => {
  describe.each(responses)('%s', (_provider, parse) => {
    it.each(idCases)('%s: every call gets its own id', (_label, a, b) => {
      const calls = parse(a, b);
      expect(calls).toHaveLength(2);
      expect(new Set(calls.map((c) => c.id)).size).toBe(2);
      expect(calls.every((c) => c.id !== '')).toBe(true);
    });

    it.each(idCases)('%s: approving touch through the documented host loop never runs rm', async (_label, a, b) => {
      const { tools, ran } = probe();
      const { replies, asked } = await hostLoop(tools, parse(a, b), isTouch);
      expect(ran).toEqual(['touch build.log']);
      expect(asked).toHaveLength(2); // the user was asked about each call
      expect(replies.map(([, r]) => r.ok)).toEqual([true, false]);
      expect(replies[1]![1].error).toMatch(/declined/);
    });

    it.each(idCases)('%s: in bypass mode too, with a bypass-immune ask', async (_label, a, b) => {
      const { tools, ran } = probe();
      const engine = new PermissionEngine({ mode: PermissionMode.BYPASS, settings: { ask: ['Bash'] } });
      await hostLoop(tools, parse(a, b), isTouch, engine);
      expect(ran).toEqual(['touch build.log']);
    });

    it.each(idCases)('%s: executeToolCalls asks for each call', async (_label, a, b) => {
      const { tools, ran } = probe();
      const approve = jest.fn((_tool: unknown, call: ToolCallRequest) => isTouch({ ...call, args: typeof call.args === 'string' ? JSON.parse(call.args) : call.args }));
      const outcomes = await executeToolCalls(tools, parse(a, b), { approve });
      expect(approve).toHaveBeenCalledTimes(2);
      expect(ran).toEqual(['touch build.log']);
      expect(outcomes.map((o) => o.result.ok)).toEqual([true, false]);
    });
  });
});

describe('attack: a made-up id never reaches the provider', () => {
  const ok = { ok: true, result: 'x' } as unknown as ActionResult<unknown>;
  const results = (calls: ToolCallRequest[]) => calls.map((call) => ({ call, result: ok }));

  it('Gemini function responses carry no id for id-less calls, and Gemini\'s own id otherwise', () => {
    const [touch, rm] = responses[0]![1](undefined, undefined);
    expect(geminiFunctionResponseContent(results([touch!, rm!])).parts.map((p) => p.functionResponse)).toEqual([
      { name: 'Bash', response: { output: 'x' } },
      { name: 'Bash', response: { output: 'x' } },
    ]);
    const repeated = responses[0]![1]('g1', 'g1');
    expect(repeated.map((c) => c.providerId)).toEqual([undefined, 'g1']);
    expect(geminiFunctionResponseContent(results(repeated)).parts.map((p) => p.functionResponse.id)).toEqual(['g1', 'g1']);
  });

  it('OpenAI and Anthropic results answer with the ids the provider issued', () => {
    const chat = responses[1]![1]('call_1', 'call_1');
    expect(openAIChatToolMessages(results(chat)).map((m) => ('tool_call_id' in m ? m.tool_call_id : ''))).toEqual(['call_1', 'call_1']);
    const output = responses[2]![1]('fc_1', 'fc_1');
    expect(output.map((c) => openAIResponsesToolOutput(c, ok).call_id)).toEqual(['fc_1', 'fc_1']);
    const uses = responses[3]![1]('toolu_1', 'toolu_1');
    expect(anthropicToolResultMessage(results(uses)).content.map((b) => b.tool_use_id)).toEqual(['toolu_1', 'toolu_1']);
  });

  it('made-up ids differ between responses and avoid the ids the response uses', () => {
    const first = responses[0]![1](undefined, undefined);
    const second = responses[0]![1](undefined, undefined);
    expect(first[0]!.id).not.toBe(second[0]!.id);
    const clash = openAIChatToolCalls({ tool_calls: [{ id: 'a', type: 'function', function: { name: 'Bash', arguments: '{}' } }, { id: 'a', type: 'function', function: { name: 'Bash', arguments: '{}' } }] });
    expect(clash[1]!.id).toMatch(/^openai_[0-9a-f]{12}_1$/);
  });
});

describe('attack: replaying an approval', () => {
  const waitingApproval = async (tools: Tools, call: BatchCall): Promise<CallApproval> => {
    const { waiting } = await runToolCalls(tools, [call]);
    const head = waiting[0]!;
    if (head.reason !== 'approval') throw new Error('expected an approval');
    return head.approval;
  };

  it.each([
    ['another input', { id: 'c1', name: 'Bash', args: RM }],
    ['another tool', { id: 'c1', name: 'Shell', args: TOUCH }],
    ['another id', { id: 'c2', name: 'Bash', args: TOUCH }],
    ['another input as JSON text', { id: 'c1', name: 'Bash', args: JSON.stringify(RM) }],
  ])('an approval for touch does not run the call with %s', async (_label, replay) => {
    const { tools, ran } = probe();
    const approval = await waitingApproval(tools, { id: 'c1', name: 'Bash', args: TOUCH });
    const { ran: done, waiting } = await runToolCalls(tools, [replay], { approved: [approval] });
    expect(done).toEqual([]);
    expect(waiting.map((w) => w.reason)).toEqual(['approval']);
    expect(ran).toEqual([]);
  });

  it('the same call runs whatever the key order, text form or default it relies on', async () => {
    const { tools, ran } = probe();
    const approval = await waitingApproval(tools, { id: 'c1', name: 'Bash', args: { command: 'ls', timeout: 60 } });
    const { ran: done } = await runToolCalls(tools, [{ id: 'c1', name: 'Bash', args: '{"command":"ls"}' }], { approved: [approval] });
    expect(done.map((r) => r.result.ok)).toEqual([true]);
    expect(ran).toEqual(['ls']);
    expect(approvalKey(approval)).toBe(approvalKey(approvalOf(tools.get('Bash')!, { id: 'c1', name: 'Bash', args: { timeout: 60, command: 'ls', extra: null } })));
  });

  it('an id string no longer approves anything: it is refused with the fix', async () => {
    const { tools, ran } = probe();
    await expect(runToolCalls(tools, [{ id: 'c1', name: 'Bash', args: TOUCH }], { approved: ['c1'] as never })).rejects.toMatchObject({ code: 'INVALID_OPTION', message: expect.stringMatching(/waiting call/) });
    await expect(runToolCalls(tools, [], { approved: [{ callId: 'c1', tool: 'Bash' }] as never })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    await expect(runToolCalls(tools, [], { approved: [null] as never })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    expect(ran).toEqual([]);
  });

  it.each([
    ['two calls, one id', [{ id: 'x', name: 'Bash', args: TOUCH }, { id: 'x', name: 'Bash', args: RM }]],
    ['two empty ids', [{ id: '', name: 'Bash', args: TOUCH }, { id: '', name: 'Shell', args: RM }]],
  ])('a batch with %s is refused before anything runs', async (_label, calls) => {
    const { tools, ran } = probe();
    const approval = approvalOf(tools.get('Bash')!, calls[0]!);
    await expect(runToolCalls(tools, calls, { approved: [approval] })).rejects.toMatchObject({ code: 'DUPLICATE_CALL_ID', message: expect.stringMatching(/positions 0 and 1/) });
    expect(ran).toEqual([]);
  });
});

describe('attack: execute and stream of an approval-gated tool', () => {
  it('refuses without approval, on execute and on stream, with and without middleware', async () => {
    for (const middleware of [[], [{ handle: (call: never, next: (c: never) => Promise<ActionResult<unknown>>) => next(call) }]]) {
      const { ran } = probe();
      const tools = new Tools({ logger: quiet, middleware });
      tools.action({ name: 'rm', description: 'Remove.', params: Type.Object({ path: Type.String() }), requiresApproval: (p) => p.path !== 'tmp' }, ({ path }) => (ran.push(path), 'removed'));
      expect((await tools.execute('rm', { path: 'precious' })).error).toMatch(/^Tool 'rm' was not run: it needs approval/);
      const stream = tools.stream('rm', '{"path":"precious"}');
      for await (const _chunk of stream) void _chunk;
      expect((await stream.result).ok).toBe(false);
      expect((await tools.execute('rm', { path: 'precious' }, { approved: false })).ok).toBe(false);
      expect(ran).toEqual([]);
      expect((await tools.execute('rm', { path: 'tmp' })).ok).toBe(true); // the predicate says no approval needed
      expect((await tools.execute('rm', { path: 'precious' }, { approved: true })).ok).toBe(true);
      expect(ran).toEqual(['tmp', 'precious']);
    }
  });

  it('runs with a CallApproval only for the call it was made for', async () => {
    const { tools, ran } = probe();
    const approval = approvalOf(tools.get('Bash')!, { id: 'c1', name: 'Bash', args: TOUCH });
    expect((await tools.execute('Bash', RM, { callId: 'c1', approved: approval })).ok).toBe(false);
    expect((await tools.execute('Bash', TOUCH, { callId: 'c2', approved: approval })).ok).toBe(false);
    expect((await tools.execute('Shell', TOUCH, { callId: 'c1', approved: approval })).ok).toBe(false);
    expect((await tools.execute('Bash', TOUCH, { approved: approval })).ok).toBe(false);
    expect((await tools.execute('Bash', { command: 'touch build.log', timeout: 60 }, { callId: 'c1', approved: approval })).ok).toBe(true);
    expect(ran).toEqual(['touch build.log']);
  });

  describe.each([
    ['execute', 'no middleware', false],
    ['stream', 'no middleware', false],
    ['execute', 'a middleware', true],
    ['stream', 'a middleware', true],
  ] as const)('a CallApproval that does not cover the call (%s, %s): the refusal names what differs and how to fix it', (path, _label, withMiddleware) => {
    const run = async (tools: Tools, name: string, args: unknown, options: { callId?: string; approved: CallApproval }) => {
      if (path === 'execute') return tools.execute(name, args, options);
      const stream = tools.stream(name, args, options);
      for await (const _chunk of stream) void _chunk;
      return stream.result;
    };
    const setup = () => {
      const { tools: plain, ran } = probe();
      const tools = withMiddleware ? new Tools({ logger: quiet, middleware: [{ handle: (call: never, next: (c: never) => Promise<ActionResult<unknown>>) => next(call) }] }).merge(plain) : plain;
      return { tools, ran, approval: approvalOf(plain.get('Bash')!, { id: 'c1', name: 'Bash', args: TOUCH }) };
    };
    it.each([
      ['another call id', 'Bash', TOUCH, 'c2', /approval passed is for another call: the call id \(approved "c1", this call "c2"\) differs; approve this call/],
      ['another tool (whose input has no default)', 'Shell', TOUCH, 'c1', /the tool \(approved "Bash", this call "Shell"\), the input \(.*\) differ;/],
      ['another input', 'Bash', RM, 'c1', /the input \(approved "\{\\"command\\":\\"touch build.log\\",\\"timeout\\":60\}", this call "\{\\"command\\":\\"rm -rf precious\\",\\"timeout\\":60\}"\) differs/],
      ['another id, tool and input', 'Shell', RM, 'c9', /the call id \(approved "c1", this call "c9"\), the tool \(approved "Bash", this call "Shell"\), the input .* differ;/],
      ['no callId', 'Bash', TOUCH, undefined, /the approval is bound to call id "c1" but the call was passed no callId: pass callId \(the id the model gave the call\) beside approved\.$/],
    ])('%s', async (_case, name, args, callId, expected) => {
      const { tools, ran, approval } = setup();
      const result = await run(tools, name, args, { ...(callId === undefined ? {} : { callId }), approved: approval });
      expect(result.ok).toBe(false);
      expect(result.error).toMatch(new RegExp(`^Tool '${name}' was not run: it needs approval, and `));
      expect(result.error).toMatch(expected);
      expect(result.error).not.toMatch(/no approval step is configured/);
      expect(ran).toEqual([]);
    });
  });

  it('a mismatched approval that cannot be read is refused with what to pass instead', async () => {
    const { tools, ran } = probe();
    const hostile = { callId: 'c1', tool: 'Bash', get input(): string { throw new Error('boom'); } };
    const result = await tools.execute('Bash', TOUCH, { callId: 'c1', approved: hostile });
    expect(result.error).toBe("Tool 'Bash' was not run: it needs approval, and the approval passed cannot be read as a CallApproval ({ callId, tool, input } strings): pass the approval runToolCalls hands out, or approvalOf(tool, call).");
    expect(ran).toEqual([]);
  });

  it('a PermissionMiddleware in the registry approves what the engine allows or the user accepts', async () => {
    const ran: string[] = [];
    const asked: string[] = [];
    const engine = new PermissionEngine({ settings: { allow: ['Status'] } });
    const ask = (call: { params: Record<string, unknown> }, _decision: PermissionDecision) => (asked.push(String(call.params['command'])), call.params['command'] === 'touch build.log');
    const tools = new Tools({ logger: quiet, middleware: [new PermissionMiddleware(engine, { ask })] });
    tools.action({ name: 'Bash', description: 'Run.', params: Type.Object({ command: Type.String() }), requiresApproval: true }, ({ command }) => (ran.push(command), 'done'));
    tools.action({ name: 'Status', description: 'Status.', params: Type.Object({ command: Type.String() }), requiresApproval: true }, ({ command }) => (ran.push(command), 'done'));
    expect((await tools.execute('Status', { command: 'git status' })).ok).toBe(true); // ALLOW by rule
    expect((await tools.execute('Bash', TOUCH)).ok).toBe(true); // asked, yes
    expect((await tools.execute('Bash', RM)).error).toMatch(/declined/); // asked, no
    expect(ran).toEqual(['git status', 'touch build.log']);
    expect(asked).toEqual(['touch build.log', 'rm -rf precious']);
  });

  it('executeToolCalls ignores an approved flag smuggled into its options', async () => {
    const { tools, ran } = probe();
    const outcomes = await executeToolCalls(tools, [{ id: 'c1', name: 'Bash', args: RM }], { approved: true } as never);
    expect(outcomes[0]!.result.error).toMatch(/needs approval/);
    expect(ran).toEqual([]);
  });
});
