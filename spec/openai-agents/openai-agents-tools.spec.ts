/**
 * agenttoolkit/openai-agents against the real OpenAI Agents SDK loop (`Runner.run`), driven by a fake model that
 * implements the SDK's `Model` interface and answers each turn from a script.
 */
import 'reflect-metadata';
import { Type } from '@sinclair/typebox';
import { Agent, RunContext, Runner, Usage, setTracingDisabled, type AgentInputItem, type Model, type ModelRequest, type ModelResponse } from '@openai/agents-core';
import { Action, BinaryContent, CoreError, Param, RequiresApproval, TimeoutMiddleware, ToolChunk, ToolError, ToolGroup, Tools, type ToolLogger } from '../../lib';
import { openAIAgentsTools } from '../../lib/openai-agents';

setTracingDisabled(true);

const quiet: ToolLogger = { warn: () => undefined, error: () => undefined };

type Output = ModelResponse['output'];

function functionCall(callId: string, name: string, args: unknown): Output[number] {
  return { type: 'function_call', callId, name, arguments: typeof args === 'string' ? args : JSON.stringify(args), status: 'completed' };
}

function message(text: string): Output[number] {
  return { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] };
}

/** A `Model` that answers each request with the next scripted output, then a final "done" message; it records the requests. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(private readonly turns: Output[]) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    return { usage: new Usage(), output: this.turns[this.requests.length - 1] ?? [message('done')] };
  }

  // eslint-disable-next-line require-yield
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new ToolError('the fake model does not stream');
  }

  /** The function_call_result items the model was sent in request `index`, by call id. */
  results(index: number): Record<string, unknown> {
    const input = this.requests[index]!.input as AgentInputItem[];
    const out: Record<string, unknown> = {};
    for (const item of input) if (item.type === 'function_call_result') out[item.callId] = item.output;
    return out;
  }
}

@ToolGroup('files')
class Files {
  readonly deleted: string[] = [];

  @Action('Delete a file.')
  @RequiresApproval((p: { path: string }) => !p.path.startsWith('tmp/'))
  delete(@Param('path', { description: 'The file to delete.' }) path: string): string {
    this.deleted.push(path);
    return `deleted ${path}`;
  }

  @Action('Read a file.')
  read(@Param('path') path: string, @Param('limit', { optional: true }) limit?: number): string {
    return `contents of ${path}${limit === undefined ? '' : ` (${limit} lines)`}`;
  }
}

function registry() {
  const files = new Files();
  const tools = new Tools({ logger: quiet }).register(files);
  tools.action({ name: 'broken', description: 'Always fails.', params: Type.Object({}) }, () => {
    throw new ToolError('the ledger is closed');
  });
  return { tools, files };
}

describe('openAIAgentsTools with the Agents SDK Runner', () => {
  it('lists strict function tools from the strict converter, with the approval predicate as needsApproval', async () => {
    const { tools } = registry();
    const list = openAIAgentsTools(tools);
    expect(list.map((t) => [t.type, t.name, t.strict])).toEqual([
      ['function', 'delete', true],
      ['function', 'read', true],
      ['function', 'broken', true],
    ]);
    const read = list.find((t) => t.name === 'read')!;
    expect(read.parameters).toMatchObject({ type: 'object', required: ['path', 'limit'], additionalProperties: false });
    const del = list.find((t) => t.name === 'delete')!;
    const run = {} as never;
    expect(await del.needsApproval(run, { path: 'notes.txt' } as never)).toBe(true);
    expect(await del.needsApproval(run, { path: 'tmp/x' } as never)).toBe(false);
    expect(openAIAgentsTools(tools, { strict: false }).find((t) => t.name === 'read')!.strict).toBe(false);
    expect(openAIAgentsTools(tools, { groups: ['files'] }).map((t) => t.name)).toEqual(['delete', 'read']);
    expect(openAIAgentsTools(tools, { names: ['broken'] }).map((t) => t.name)).toEqual(['broken']);
    expect(() => openAIAgentsTools(tools, { names: ['nope'] })).toThrow(CoreError);
  });

  it('runs calls through the pipeline: strict-mode nulls stripped, invalid arguments and a failing tool reach the model as output text', async () => {
    const { tools } = registry();
    const model = new ScriptedModel([[functionCall('c1', 'read', { path: 'a.md', limit: null }), functionCall('c2', 'broken', {}), functionCall('c3', 'read', { path: 7, limit: null }), functionCall('c4', 'read', '{not json')]]);
    const agent = new Agent({ name: 'Assistant', instructions: 'Help.', model, tools: openAIAgentsTools(tools) });
    const result = await new Runner().run(agent, 'read it');
    expect(result.finalOutput).toBe('done');
    const sent = model.results(1);
    expect(sent.c1).toEqual({ type: 'text', text: 'contents of a.md' });
    expect(sent.c2).toEqual({ type: 'text', text: 'the ledger is closed' });
    expect(sent.c3).toMatchObject({ type: 'text', text: expect.stringContaining('path') });
    expect(sent.c4).toMatchObject({ type: 'text', text: expect.stringMatching(/JSON/i) });
    expect(model.requests[0]!.tools.map((t) => t.name)).toEqual(['delete', 'read', 'broken']);
  });

  it('interrupts a call that needs approval; approved, the resumed run executes it', async () => {
    const { tools, files } = registry();
    const model = new ScriptedModel([[functionCall('d1', 'delete', { path: 'notes.txt' })]]);
    const agent = new Agent({ name: 'Assistant', instructions: 'Help.', model, tools: openAIAgentsTools(tools) });
    const runner = new Runner();
    const first = await runner.run(agent, 'clean up');
    expect(files.deleted).toEqual([]);
    expect(first.interruptions).toHaveLength(1);
    const interruption = first.interruptions[0]!;
    expect(interruption.name).toBe('delete');
    first.state.approve(interruption);
    const resumed = await runner.run(agent, first.state);
    expect(files.deleted).toEqual(['notes.txt']);
    expect(resumed.finalOutput).toBe('done');
    expect(model.results(model.requests.length - 1).d1).toEqual({ type: 'text', text: 'deleted notes.txt' });
  });

  it('attack: a tool invoked by hand runs no call that needs approval the run did not approve', async () => {
    const { tools, files } = registry();
    const del = openAIAgentsTools(tools).find((t) => t.name === 'delete')!;
    const details = (callId: string, args: unknown) => ({ toolCall: { type: 'function_call' as const, callId, name: 'delete', arguments: JSON.stringify(args) } });
    for (const [context, callId] of [[new RunContext(), 'x1'], [new RunContext(), ''], [{} as RunContext, 'x2'], [undefined as unknown as RunContext, 'x3']] as const) {
      expect(await del.invoke(context, JSON.stringify({ path: 'precious' }), details(callId, { path: 'precious' }))).toMatch(/was not run: it needs approval/);
    }
    expect(await del.invoke(new RunContext(), JSON.stringify({ path: 'precious' }))).toMatch(/was not run: it needs approval/);
    expect(files.deleted).toEqual([]);
    // A call the predicate lets through needs no approval.
    expect(await del.invoke(new RunContext(), JSON.stringify({ path: 'tmp/x' }), details('x4', { path: 'tmp/x' }))).toBe('deleted tmp/x');

    // The run's approval of d1 approves d1 only: invoking another call id with that run's context is refused.
    const model = new ScriptedModel([[functionCall('d1', 'delete', { path: 'notes.txt' })]]);
    const agent = new Agent({ name: 'Assistant', instructions: 'Help.', model, tools: [del] });
    const first = await new Runner().run(agent, 'clean up');
    first.state.approve(first.interruptions[0]!);
    const approvedContext = (first.state as unknown as { _context: RunContext })._context;
    expect(await del.invoke(approvedContext, JSON.stringify({ path: 'precious' }), details('d2', { path: 'precious' }))).toMatch(/needs approval/);
    expect(files.deleted).toEqual(['tmp/x']);
    await new Runner().run(agent, first.state);
    expect(files.deleted).toEqual(['tmp/x', 'notes.txt']);
  });

  it('interrupts a call that needs approval; rejected, the tool never runs and the model reads the rejection', async () => {
    const { tools, files } = registry();
    const model = new ScriptedModel([[functionCall('d1', 'delete', { path: 'notes.txt' }), functionCall('d2', 'delete', { path: 'tmp/scratch' })]]);
    const agent = new Agent({ name: 'Assistant', instructions: 'Help.', model, tools: openAIAgentsTools(tools) });
    const runner = new Runner();
    const first = await runner.run(agent, 'clean up');
    expect(first.interruptions.map((i) => i.name)).toEqual(['delete']);
    first.state.reject(first.interruptions[0]!);
    const resumed = await runner.run(agent, first.state);
    expect(files.deleted).toEqual(['tmp/scratch']);
    expect(resumed.finalOutput).toBe('done');
    const sent = model.results(model.requests.length - 1);
    expect(sent.d1).toMatchObject({ type: 'text', text: expect.stringMatching(/not approved|rejected|declined/i) });
    expect(sent.d2).toEqual({ type: 'text', text: 'deleted tmp/scratch' });
  });

  it("passes the run's abort signal to the tool: aborting the run aborts the call", async () => {
    const tools = new Tools({ logger: quiet });
    let toolSignal: AbortSignal | undefined;
    let onStart = () => {};
    const started = new Promise<void>((resolve) => (onStart = resolve));
    tools.action({ name: 'wait', description: 'Wait.', params: Type.Object({}) }, (_p, _deps, { signal }) => {
      toolSignal = signal;
      onStart();
      return new Promise<string>(() => undefined);
    });
    const model = new ScriptedModel([[functionCall('w1', 'wait', {})]]);
    const agent = new Agent({ name: 'Assistant', instructions: 'Help.', model, tools: openAIAgentsTools(tools) });
    const controller = new AbortController();
    const running = new Runner().run(agent, 'go', { signal: controller.signal });
    await started;
    controller.abort();
    await running.catch(() => undefined);
    expect(toolSignal?.aborted).toBe(true);
  });

  it('fits an agent with its own context type', () => {
    const { tools } = registry();
    const agent = new Agent<{ user: string }>({ name: 'Assistant', instructions: 'Help.', tools: openAIAgentsTools(tools) });
    expect(agent.tools).toHaveLength(3);
  });

  it('applies the registry middleware (a timeout), and sends a binary result as an image output item', async () => {
    const tools = new Tools({ logger: quiet, middleware: [new TimeoutMiddleware(20)] });
    tools.action({ name: 'slow', description: 'Slow.', params: Type.Object({}) }, () => new Promise<string>(() => undefined));
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    tools.action({ name: 'shot', description: 'Screenshot.', params: Type.Object({}) }, () => BinaryContent.from(png, 'image/png'));
    tools.action({ name: 'doc', description: 'A document.', params: Type.Object({}) }, () => [BinaryContent.from(Buffer.from('%PDF-1.4'), 'application/pdf', 'a.pdf'), BinaryContent.from(Buffer.from('%PDF-1.5'), 'application/pdf')]);
    tools.action({ name: 'captioned', description: 'A captioned image.', params: Type.Object({}) }, async function* () {
      yield ToolChunk.text('a caption');
      yield new ToolChunk({ content: [{ type: 'data', source: { type: 'base64', mediaType: 'image/png', data: png.toString('base64') } }] });
    });
    const model = new ScriptedModel([[functionCall('s1', 'slow', {}), functionCall('i1', 'shot', {}), functionCall('f1', 'doc', {}), functionCall('t1', 'captioned', {})]]);
    const agent = new Agent({ name: 'Assistant', instructions: 'Help.', model, tools: openAIAgentsTools(tools) });
    await new Runner().run(agent, 'go');
    const sent = model.results(1);
    expect(sent.s1).toMatchObject({ type: 'text', text: expect.stringContaining('20 ms') });
    expect(JSON.stringify(sent.i1)).toContain(png.toString('base64'));
    expect(JSON.stringify(sent.f1)).toContain(Buffer.from('%PDF-1.4').toString('base64'));
    expect(JSON.stringify(sent.f1)).toContain(Buffer.from('%PDF-1.5').toString('base64'));
    expect(JSON.stringify(sent.t1)).toContain('a caption');
    expect(JSON.stringify(sent.t1)).toContain(png.toString('base64'));
  });
});
