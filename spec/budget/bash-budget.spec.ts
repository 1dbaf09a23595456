import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LinkedContent, OUTPUT_FOLDER, Tools } from '../../lib';
import { BASH_MAX_OUTPUT_CHARS, bashTool, readToolOutput } from '../../lib/builtins';
import { SandboxPolicy, UnsafeLocalSandbox } from '../../lib/sandbox';
import { LocalWorkspace } from '../../lib/workspace';

const quiet = () => ({ warn: jest.fn(), error: jest.fn() });
const sandbox = () => new UnsafeLocalSandbox(new SandboxPolicy());
const seq = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1)).join('\n');

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'bash-budget-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('Bash output under output budgets', () => {
  it('has a default budget of 30,000 characters, head and tail kept', async () => {
    const tools = new Tools({ logger: quiet() }).register(bashTool({ sandbox: sandbox() }));
    const text = (await tools.execute('Bash', { command: 'seq 1 20000' })).result as string;
    expect(text).toHaveLength(BASH_MAX_OUTPUT_CHARS);
    expect(text.startsWith('1\n2\n3\n')).toBe(true);
    expect(text.endsWith('19999\n20000')).toBe(true);
    expect(text).toMatch(/cut here and not kept/);
    expect(tools.get('Bash')!.resolveDescription()).toMatch(/Output longer than 30000 characters keeps its beginning and end\.$/);
  });

  it('takes its own budget, which overrides the registry\'s and saves to the registry\'s workspace', async () => {
    const workspace = new LocalWorkspace(dir);
    const tools = new Tools({ outputBudget: { maxChars: 200_000, workspace }, logger: quiet() }).register(bashTool({ sandbox: sandbox(), outputBudget: { maxChars: 1000 } }), readToolOutput({ workspace }));
    const value = (await tools.execute('Bash', { command: 'seq 1 20000' })).result as LinkedContent;
    expect(value.text).toHaveLength(1000);
    const [file] = readdirSync(join(dir, OUTPUT_FOLDER));
    expect(readFileSync(join(dir, OUTPUT_FOLDER, file!), 'utf8')).toBe(seq(20000));
    const path = `${OUTPUT_FOLDER}/${file!}`;
    const page = (await tools.execute('read_output', { path, offset: seq(19999).length + 1, limit: 100 })).result as string;
    expect(page.endsWith('\n20000')).toBe(true);
  });

  it('cuts a failure\'s text the same way, and false turns the budget off', async () => {
    const tools = new Tools({ logger: quiet() }).register(bashTool({ sandbox: sandbox(), outputBudget: { maxChars: 500 } }), bashTool({ sandbox: sandbox(), name: 'Raw', outputBudget: false }));
    const failed = await tools.execute('Bash', { command: 'seq 1 5000; exit 3' });
    expect(failed.ok).toBe(false);
    expect(failed.error).toHaveLength(500);
    expect(failed.error!.startsWith('Command failed with exit code 3: seq 1 5000; exit 3\n1\n2\n')).toBe(true);
    expect(failed.error!.endsWith('4999\n5000')).toBe(true);
    expect((await tools.execute('Raw', { command: 'seq 1 20000' })).result).toBe(seq(20000));
    expect(tools.get('Raw')!.resolveDescription()).not.toMatch(/keeps its beginning/);
    const byTokens = bashTool({ sandbox: sandbox(), outputBudget: { maxTokens: 100, estimateTokens: (t) => t.length } });
    expect(byTokens.resolveDescription()).toMatch(/ Long output keeps its beginning and end\.$/);
  });

  it('streams its live output while the budget holds the final text', async () => {
    const tools = new Tools({ logger: quiet() }).register(bashTool({ sandbox: sandbox(), outputBudget: { maxChars: 800, maxTokens: 100, estimateTokens: (t) => Math.ceil(t.length / 4) } }));
    const stream = tools.stream('Bash', { command: 'seq 1 3000' });
    let text = '';
    for await (const chunk of stream) for (const block of chunk.content) if (block.type === 'text') text += block.text;
    const result = await stream.result;
    expect(result.result).toBe(text);
    expect(Math.ceil(text.length / 4)).toBeLessThanOrEqual(100);
    expect(text.endsWith('2999\n3000')).toBe(true);
    expect(tools.get('Bash')!.resolveDescription()).toMatch(/Output longer than 800 characters/);
  });
});
