/**
 * `run_code` (agenttoolkit/code-mode) through aiSdkTools and the real AI SDK 7 loop, driven by the SDK's mock model:
 * a program's nested calls, a nested call that needs approval (approved and declined through CodeMode's `approve`),
 * and a failing program, as the model reads them. Runs on Node 22 (jest.node22.config.js).
 */
import { Type } from '@sinclair/typebox';
import { generateText, stepCountIs } from 'ai';
import { Tools } from '../../lib';
import { aiSdkTools, type AiSdkToolOutput } from '../../lib/ai-sdk';
import { CodeMode } from '../../lib/code-mode';
import { call, quiet, scripted, toolOutputs } from './support/scripted-model';

jest.setTimeout(60_000);

function registry(approve?: (name: string, args: unknown) => boolean) {
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
  const asked: string[] = [];
  const codeMode = new CodeMode(tools, {
    approve: approve === undefined ? undefined : (tool, request) => (asked.push(`${tool.name} ${request.id}`), approve(tool.name, request.args)),
  });
  tools.register(codeMode.tool());
  return { tools, ran, asked };
}

async function runCode(tools: Tools, code: string) {
  const { model, prompts } = scripted([call('r1', 'run_code', { code })]);
  const result = await generateText({ model, prompt: 'go', ...aiSdkTools(tools, { names: ['run_code'] }), stopWhen: stepCountIs(3) });
  return { output: result.steps[0]!.toolResults[0]!.output as AiSdkToolOutput, sent: toolOutputs(prompts[1]!).r1, result };
}

describe('run_code through aiSdkTools', () => {
  it('runs a program whose nested calls go through the registry, in sequence and in parallel; only the printed and returned text reaches the model', async () => {
    const { tools, ran } = registry();
    const { output, sent, result } = await runCode(tools, 'const x = await tools.add({ a: 1, b: 2 });\nconst [y, z] = await Promise.all([tools.add({ a: x, b: 1 }), tools.add({ a: x, b: 2 })]);\nconsole.log("sum", y + z);\nreturn { y, z };');
    expect(output).toEqual({ ok: true, text: 'sum 9\n{\n  "y": 4,\n  "z": 5\n}' });
    expect(sent).toEqual({ type: 'text', value: 'sum 9\n{\n  "y": 4,\n  "z": 5\n}' });
    expect(ran.slice(0, 1)).toEqual(['add 1 2']);
    expect([...ran.slice(1)].sort()).toEqual(['add 3 1', 'add 3 2']);
    expect(result.text).toBe('done');
  });

  it('asks CodeMode approve for a nested call that needs it: the approved one runs, the declined one rejects in the program and never runs', async () => {
    const { tools, ran, asked } = registry((_, args) => (args as { path: string }).path === 'scratch.txt');
    const { output } = await runCode(
      tools,
      'const ok = await tools.delete_file({ path: "scratch.txt" });\nlet no;\ntry { await tools.delete_file({ path: "notes.txt" }); } catch (e) { no = e.message; }\nreturn { ok, no };',
    );
    expect(ran).toEqual(['delete scratch.txt']);
    expect(asked).toEqual([expect.stringMatching(/^delete_file delete_file-\d+-1$/), expect.stringMatching(/^delete_file delete_file-\d+-2$/)]);
    expect(output.ok).toBe(true);
    const shown = JSON.parse((output as { text: string }).text) as { ok: string; no: string };
    expect(shown.ok).toBe('deleted scratch.txt');
    expect(shown.no).toMatch(/declined/i);
  });

  it('without approve, a nested call that needs approval is unapproved: nothing runs and the program sees why', async () => {
    const { tools, ran } = registry();
    const { output } = await runCode(tools, 'return await tools.delete_file({ path: "notes.txt" });');
    expect(ran).toEqual([]);
    expect(output).toEqual({ ok: false, error: expect.stringMatching(/^The program failed at line 1: ToolCallError: .*approv/i) });
  });

  it('a program that throws is a failed result the model reads as error text, with the line and what it printed', async () => {
    const { tools } = registry();
    const { output, sent } = await runCode(tools, 'console.log("before");\nawait tools.add({ a: 1, b: 1 });\nthrow new Error("boom");');
    expect(output).toEqual({ ok: false, error: 'The program failed at line 3: Error: boom\nOutput before it stopped:\nbefore\n' });
    expect(sent).toEqual({ type: 'error-text', value: 'The program failed at line 3: Error: boom\nOutput before it stopped:\nbefore\n' });
  });
});
