/**
 * `run_code` (agenttoolkit/code-mode) through openAIAgentsTools and the real Agents SDK Runner, driven by a scripted
 * model: a program's nested calls, a nested call that needs approval (approved and declined through CodeMode's
 * `approve`; the outer run is not interrupted, since run_code itself needs no approval), and a failing program.
 */
import { Type } from '@sinclair/typebox';
import { Agent, Runner, Usage, setTracingDisabled, type AgentInputItem, type Model, type ModelRequest, type ModelResponse } from '@openai/agents-core';
import { ToolError, Tools, type ToolLogger } from '../../lib';
import { CodeMode } from '../../lib/code-mode';
import { openAIAgentsTools } from '../../lib/openai-agents';

setTracingDisabled(true);
jest.setTimeout(60_000);

const quiet: ToolLogger = { warn: () => undefined, error: () => undefined };
type Output = ModelResponse['output'];

/** Calls run_code with `code` in its first turn, then answers "done"; keeps the requests. */
class OneProgram implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(private readonly code: string) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const output: Output =
      this.requests.length === 1
        ? [{ type: 'function_call', callId: 'r1', name: 'run_code', arguments: JSON.stringify({ code: this.code }), status: 'completed' }]
        : [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }];
    return { usage: new Usage(), output };
  }

  // eslint-disable-next-line require-yield
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new ToolError('the scripted model does not stream');
  }

  /** What the model was sent as run_code's output. */
  sent(): unknown {
    const input = this.requests[1]!.input as AgentInputItem[];
    return input.find((item) => item.type === 'function_call_result' && item.callId === 'r1') as unknown;
  }
}

function registry(approve?: (args: unknown) => boolean) {
  const ran: string[] = [];
  const tools = new Tools({ logger: quiet });
  tools.action({ name: 'add', description: 'Add two integers.', params: Type.Object({ a: Type.Integer(), b: Type.Integer() }) }, ({ a, b }) => {
    ran.push(`add ${a} ${b}`);
    return a + b;
  });
  tools.action({ name: 'delete_file', description: 'Delete a file.', params: Type.Object({ path: Type.String() }), requiresApproval: true }, ({ path }) => {
    ran.push(`delete ${path}`);
    return `deleted ${path}`;
  });
  tools.register(new CodeMode(tools, { approve: approve === undefined ? undefined : (_, request) => approve(request.args) }).tool());
  return { tools, ran };
}

async function runCode(tools: Tools, code: string) {
  const model = new OneProgram(code);
  const agent = new Agent({ name: 'Assistant', instructions: 'Help.', model, tools: openAIAgentsTools(tools, { names: ['run_code'] }) });
  const result = await new Runner().run(agent, 'go');
  return { result, text: (model.sent() as { output: { text: string } }).output.text, model };
}

describe('run_code through openAIAgentsTools', () => {
  it('is listed as a strict function tool taking { code }, with the declarations in its description', () => {
    const { tools } = registry();
    const [runCodeTool] = openAIAgentsTools(tools, { names: ['run_code'] });
    expect(runCodeTool).toMatchObject({ type: 'function', name: 'run_code', strict: true, parameters: { type: 'object', required: ['code'], additionalProperties: false } });
    expect(runCodeTool!.description).toContain('delete_file(args: {');
  });

  it('runs the nested calls through the registry, in sequence and in parallel, and the model reads only what the program printed and returned', async () => {
    const { tools, ran } = registry();
    const { result, text } = await runCode(tools, 'const x = await tools.add({ a: 1, b: 2 });\nconst all = await Promise.all([1, 2, 3].map((b) => tools.add({ a: x, b })));\nconsole.log("got", all.length);\nreturn all;');
    expect(result.finalOutput).toBe('done');
    expect(text).toBe('got 3\n[\n  4,\n  5,\n  6\n]');
    expect(ran).toHaveLength(4);
    expect(ran[0]).toBe('add 1 2');
  });

  it('a nested call that needs approval is asked through CodeMode approve: approved it runs, declined it rejects in the program and never runs; the outer run is not interrupted', async () => {
    const { tools, ran } = registry((args) => (args as { path: string }).path === 'scratch.txt');
    const { result, text } = await runCode(tools, 'const a = await tools.delete_file({ path: "scratch.txt" });\nconst b = await tools.delete_file({ path: "notes.txt" }).catch((e) => "refused: " + e.message);\nreturn [a, b];');
    expect(result.interruptions ?? []).toEqual([]);
    expect(ran).toEqual(['delete scratch.txt']);
    const [a, b] = JSON.parse(text) as [string, string];
    expect(a).toBe('deleted scratch.txt');
    expect(b).toMatch(/^refused: .*declined/i);
  });

  it('a program that fails is output text naming the line, not an exception of the run', async () => {
    const { tools } = registry();
    const { result, text } = await runCode(tools, 'const x = await tools.add({ a: 1, b: 2 });\nx.missing.field;');
    expect(result.finalOutput).toBe('done');
    expect(text).toMatch(/^The program failed at line 2: TypeError: /);
  });
});
