/**
 * Attacks on the OpenAI Agents adapter through the real SDK loop (`Runner.run`) and a scripted model: arguments made
 * to break an approval predicate (it must then ask, never skip approval), arguments that only pass the predicate
 * because they would not validate (the call must then not run), and failing tools whose exception (a stack, a cause, a
 * secret in a later line, a value that is no Error) must not reach the model; and the NestJS module's approval step
 * with an approver that fails or gives a non-boolean answer.
 */
import { Agent, Runner, Usage, setTracingDisabled, type AgentInputItem, type Model, type ModelRequest, type ModelResponse } from '@openai/agents-core';
import { Type } from '@sinclair/typebox';
import { ToolError, Tools, type ToolLogger } from '../../lib';
import { approvalStep } from '../../lib/nestjs/approval-step';
import { openAIAgentsTools } from '../../lib/openai-agents';

setTracingDisabled(true);
const quiet: ToolLogger = { warn: () => undefined, error: () => undefined };
type Output = ModelResponse['output'];

const callOf = (callId: string, name: string, args: unknown): Output[number] =>
  ({ type: 'function_call', callId, name, arguments: typeof args === 'string' ? args : JSON.stringify(args), status: 'completed' });

class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(private readonly turns: Output[]) {}
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    return { usage: new Usage(), output: this.turns[this.requests.length - 1] ?? [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }] };
  }
  // eslint-disable-next-line require-yield
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new ToolError('the scripted model does not stream');
  }
  results(index: number): Record<string, string> {
    const out: Record<string, string> = {};
    for (const item of this.requests[index]!.input as AgentInputItem[]) if (item.type === 'function_call_result') out[item.callId] = JSON.stringify(item.output);
    return out;
  }
}

function payments() {
  const ran: unknown[] = [];
  const tools = new Tools({ logger: quiet });
  tools.action({
    name: 'pay',
    description: 'Pay.',
    params: Type.Object({ amount: Type.Number(), to: Type.String(), memo: Type.Optional(Type.Object({ text: Type.String() })) }),
    // Throws for a memo without text, and for any `to` that makes toLowerCase() misbehave: it must fail closed.
    requiresApproval: (p: { amount: number; to: string; memo?: { text: string } }) => p.amount > 100 || p.to.toLowerCase() === 'mallory' || p.memo!.text.length > 1000,
  }, (p) => (ran.push(p), 'paid'));
  return { tools, ran };
}

describe('OpenAI Agents adapter: approval cannot be skipped by arguments', () => {
  it.each([
    ['a predicate that throws on a missing optional field', { amount: 5, to: 'bob' }],
    ['a predicate that holds', { amount: 500, to: 'bob', memo: { text: 'x' } }],
    ['a name that matches after case folding', { amount: 5, to: 'MALLORY', memo: { text: 'x' } }],
    ['JSON text with nulls for the optional field', '{"amount":5,"to":"bob","memo":null}'],
    ['an undeclared field claiming approval', { amount: 500, to: 'bob', memo: { text: 'x' }, approved: true, needsApproval: false }],
  ])('interrupts the run for %s, and runs nothing', async (_what, args) => {
    const { tools, ran } = payments();
    const model = new ScriptedModel([[callOf('c1', 'pay', args)]]);
    const agent = new Agent({ name: 'A', instructions: 'Pay.', model, tools: openAIAgentsTools(tools) });
    const result = await new Runner().run(agent, 'pay');
    expect(result.interruptions.map((i) => i.name)).toEqual(['pay']);
    expect(ran).toEqual([]);
  });

  it.each([
    ['a wrong type that would dodge the predicate', { amount: '500', to: 'bob', memo: { text: 'x' } }],
    ['arguments that are not JSON', '{"amount": 500, "to": "bob"'],
    ['an array for the object', [500, 'bob']],
  ])('never runs a call with %s, approved or not', async (_what, args) => {
    const { tools, ran } = payments();
    const model = new ScriptedModel([[callOf('c1', 'pay', args)]]);
    const agent = new Agent({ name: 'A', instructions: 'Pay.', model, tools: openAIAgentsTools(tools) });
    const runner = new Runner();
    let result = await runner.run(agent, 'pay');
    for (let i = 0; i < 3 && result.interruptions.length > 0; i++) {
      for (const interruption of result.interruptions) result.state.approve(interruption);
      result = await runner.run(agent, result.state);
    }
    expect(ran).toEqual([]);
  });

  it('runs a call the predicate clears, with the validated params', async () => {
    const { tools, ran } = payments();
    const model = new ScriptedModel([[callOf('c1', 'pay', { amount: 5, to: 'bob', memo: { text: 'hi' } })]]);
    const agent = new Agent({ name: 'A', instructions: 'Pay.', model, tools: openAIAgentsTools(tools) });
    const result = await new Runner().run(agent, 'pay');
    expect(result.interruptions).toEqual([]);
    expect(ran).toEqual([{ amount: 5, to: 'bob', memo: { text: 'hi' } }]);
  });
});

describe('OpenAI Agents adapter: a failing tool does not leak its exception to the model', () => {
  const secret = 'postgres://admin:hunter2@db.internal/prod';
  const thrown: Array<[string, () => unknown]> = [
    ['an Error with a stack and a secret in its cause', () => { throw new Error('connect failed', { cause: new Error(secret) }); }],
    ['an Error whose message has the secret on a later line', () => { throw new Error(`connect failed\n    at Pool.connect (${secret})`); }],
    // The first line of what a tool throws is what the model reads (docs/errors.md): later lines never are.
    ['a string with the secret on a later line', () => { throw `connect failed\n${secret}`; }],
    ['a plain object', () => { throw { dsn: secret }; }],
    ['an object whose message getter throws', () => { throw Object.defineProperty(new Error('x'), 'message', { get: () => { throw new Error(secret); } }); }],
    ['a rejected promise with a long multi-line message', () => Promise.reject(new Error(`${'first line '.repeat(20)}\n${secret}\n${'y'.repeat(100_000)}`))],
  ];

  it.each(thrown)('for %s', async (_what, fail) => {
    const tools = new Tools({ logger: quiet });
    tools.action({ name: 'query', description: 'Query.' }, fail as () => string);
    const model = new ScriptedModel([[callOf('c1', 'query', {})]]);
    const agent = new Agent({ name: 'A', instructions: 'Query.', model, tools: openAIAgentsTools(tools) });
    await new Runner().run(agent, 'go');
    const output = model.results(1).c1!;
    expect(output).toBeDefined();
    expect(output).not.toContain('hunter2');
    expect(output).not.toMatch(/\bat \S+ \(|\\n\s+at /);
    expect(output.length).toBeLessThan(2000);
  });
});

describe('NestJS module approval step: an approver that fails or answers anything but true never lets a call run', () => {
  it.each([
    ['throws (a stack on its second line)', () => { throw new Error('approver down\n    at Approver.ask (/srv/secret.ts:1:1)'); }],
    ['rejects', () => Promise.reject(new Error('approver down'))],
    ['answers a truthy string', () => 'yes'],
    ['answers 1', () => 1],
    ['answers an object', () => ({ approved: true })],
    ['answers a promise of a truthy non-boolean', () => Promise.resolve('true')],
  ])('when it %s', async (_what, approve) => {
    const ran: unknown[] = [];
    const tools = new Tools({ logger: quiet, middleware: [approvalStep(approve as never)] });
    tools.action({ name: 'pay', description: 'Pay.', params: Type.Object({ amount: Type.Number() }), requiresApproval: true }, (p) => (ran.push(p), 'paid'));
    const result = await tools.execute('pay', { amount: 1 });
    expect(result.ok).toBe(false);
    expect(result.error).not.toMatch(/secret\.ts|\n/);
    expect(ran).toEqual([]);
  });
});
