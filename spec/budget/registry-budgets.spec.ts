import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import {
  Action, ActionResult, CoreError, FunctionTool, LinkedContent, OUTPUT_FOLDER, ToolBase, ToolChunk, ToolResultState, Tools,
  type OutputBudget, type OutputWorkspace,
} from '../../lib';
import { PermissionDecision } from '../../lib/permissions';
import { LocalWorkspace } from '../../lib/workspace';

const quiet = () => ({ warn: jest.fn(), error: jest.fn() });
let dir: string;
let workspace: LocalWorkspace;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'budget-'));
  workspace = new LocalWorkspace(dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const saved = () => {
  try {
    return readdirSync(join(dir, OUTPUT_FOLDER));
  } catch {
    return [];
  }
};
const big = (n: number) => Array.from({ length: n }, (_, i) => `row ${i}`).join('\n');

describe('output budgets on a registry', () => {
  it('cuts a text result over the registry-wide budget, keeping head and tail, and leaves short ones alone', async () => {
    const tools = new Tools({ outputBudget: { maxChars: 1000 }, logger: quiet() });
    tools.action({ name: 'dump', description: 'Dump.', params: Type.Object({ n: Type.Integer() }) }, ({ n }) => big(n));
    expect((await tools.execute('dump', { n: 10 })).result).toBe(big(10));
    const cut = (await tools.execute('dump', { n: 5000 })).result as string;
    expect(cut).toHaveLength(1000);
    expect(cut.startsWith('row 0\nrow 1\n')).toBe(true);
    expect(cut.endsWith('row 4998\nrow 4999')).toBe(true);
    expect(cut).toMatch(/\[\.\.\. \d+ of \d+ characters \(\d+ line breaks\) cut here and not kept/);
  });

  it('a tool\'s own budget overrides the registry\'s field by field, and false turns it off', async () => {
    const tools = new Tools({ outputBudget: { maxChars: 1000, workspace }, logger: quiet() });
    tools.action({ name: 'wide', description: 'Wide.', outputBudget: { maxChars: 3000 } }, () => big(5000));
    tools.action({ name: 'off', description: 'Off.', outputBudget: false }, () => big(5000));
    tools.action({ name: 'plain', description: 'Plain.' }, () => big(5000));
    const wide = await tools.execute('wide', {});
    expect((wide.result as LinkedContent).text).toHaveLength(3000);
    expect(saved()).toHaveLength(1); // the registry's workspace is inherited
    expect((await tools.execute('off', {})).result).toBe(big(5000));
    expect(((await tools.execute('plain', {})).result as LinkedContent).text).toHaveLength(1000);
  });

  it('@Action, ToolBase and FunctionTool take outputBudget', async () => {
    class Reports {
      @Action('A report.', { outputBudget: { maxChars: 300 } })
      report(): string {
        return 'r'.repeat(5000);
      }
    }
    class Big extends ToolBase {
      constructor() {
        super({ name: 'big', description: 'Big.', inputSchema: Type.Object({}), outputBudget: { maxChars: 400 } });
      }
      checkPermissions() {
        return PermissionDecision.allow('ok');
      }
      override call() {
        return 'b'.repeat(5000);
      }
    }
    const fn = new FunctionTool(() => 'f'.repeat(5000), { name: 'fn', description: 'Fn.', outputBudget: { maxChars: 500 } });
    const tools = new Tools({ logger: quiet() }).register(new Reports(), new Big(), fn);
    expect(((await tools.execute('report', {})).result as string).length).toBe(300);
    expect(((await tools.execute('big', {})).result as string).length).toBe(400);
    expect(((await tools.execute('fn', {})).result as string).length).toBe(500);
  });

  it('a token budget counts with the estimator the user supplies', async () => {
    const estimateTokens = (text: string) => text.split(/\s+/).filter(Boolean).length;
    const tools = new Tools({ outputBudget: { maxTokens: 100, estimateTokens }, logger: quiet() });
    tools.action({ name: 'words', description: 'Words.' }, () => 'lorem ipsum '.repeat(1000));
    tools.action({ name: 'few', description: 'Few.' }, () => 'one two three');
    const cut = (await tools.execute('words', {})).result as string;
    expect(estimateTokens(cut)).toBeLessThanOrEqual(100);
    expect(estimateTokens(cut)).toBeGreaterThan(80);
    expect((await tools.execute('few', {})).result).toBe('one two three');
  });

  it('with a workspace, writes the full result to a new file under the outputs folder and gives its path and a link', async () => {
    const tools = new Tools({ outputBudget: { maxChars: 2000, workspace }, logger: quiet() });
    tools.action({ name: 'dump', description: 'Dump.' }, () => big(3000));
    const first = await tools.execute('dump', {});
    const second = await tools.execute('dump', {});
    const files = saved();
    expect(files).toHaveLength(2);
    for (const file of files) {
      expect(file).toMatch(/^dump-\d+-[0-9a-f-]{36}-[0-9a-f]{32}\.txt$/);
      expect(readFileSync(join(dir, OUTPUT_FOLDER, file), 'utf8')).toBe(big(3000));
    }
    const value = first.result as LinkedContent;
    expect(value).toBeInstanceOf(LinkedContent);
    expect(value.text).toHaveLength(2000);
    const path = /saved at (\S+):/.exec(value.text)![1]!;
    expect(files).toContain(path.slice(OUTPUT_FOLDER.length + 1));
    expect(value.text).toContain(`call read_output with {"path": "${path}", "offset": `);
    expect(value.links).toHaveLength(1);
    expect(value.links[0]!.toJSON()).toEqual({
      type: 'resource_link', uri: `tool-output://${path.slice(OUTPUT_FOLDER.length + 1)}`, name: path.slice(OUTPUT_FOLDER.length + 1),
      title: 'Full output of dump', description: `The full output of the tool 'dump' (${big(3000).length} characters), cut in the result.`, mimeType: 'text/plain',
    });
    expect((second.result as LinkedContent).links[0]!.uri).not.toBe(value.links[0]!.uri);
    expect(await tools.outputBudgets.read(path)).toBe(big(3000));
    expect(await tools.outputBudgets.read('nothing.txt')).toBeUndefined();
  });

  it('the marker\'s offset is where the cut starts in the saved text', async () => {
    const tools = new Tools({ outputBudget: { maxChars: 600, workspace }, logger: quiet() });
    tools.action({ name: 'dump', description: 'Dump.' }, () => big(400));
    const text = ((await tools.execute('dump', {})).result as LinkedContent).text;
    const offset = Number(/"offset": (\d+)\}/.exec(text)![1]);
    expect(text.slice(0, offset)).toBe(big(400).slice(0, offset));
    expect(text[offset]).toBe('\n');
  });

  it('a workspace that cannot save is logged and the text is cut without a copy', async () => {
    const logger = quiet();
    const broken: OutputWorkspace = { writeFile: () => Promise.reject(new Error('disk full')), readFile: () => Promise.reject(new Error('no')), stat: () => Promise.resolve(null) };
    const tools = new Tools({ outputBudget: { maxChars: 500, workspace: broken }, logger });
    tools.action({ name: 'dump', description: 'Dump.' }, () => big(1000));
    const result = await tools.execute('dump', {});
    expect(result.result).toMatch(/cut here and not kept/);
    expect(logger.warn).toHaveBeenCalledWith("The full output of tool 'dump' could not be saved; it is cut without a copy", { error: 'disk full' });
  });

  it('an output longer than maxSavedChars is cut without being saved', async () => {
    const tools = new Tools({ outputBudget: { maxChars: 500, workspace, maxSavedChars: 1000 }, logger: quiet() });
    tools.action({ name: 'dump', description: 'Dump.' }, () => big(1000));
    expect((await tools.execute('dump', {})).result).toMatch(/not kept/);
    expect(saved()).toEqual([]);
  });

  it('budgets JSON results and failures, and keeps the result class', async () => {
    class Traced<T = unknown> extends ActionResult<T> {
      static override readonly fields = ActionResult.extendFields('traceId');
      declare readonly traceId?: string;
    }
    const tools = new Tools({ outputBudget: { maxChars: 300 }, resultType: Traced, logger: quiet() });
    tools.action({ name: 'rows', description: 'Rows.' }, () => Array.from({ length: 500 }, (_, i) => ({ i })));
    tools.action({ name: 'fails', description: 'Fails.' }, () => new Traced({ ok: false, error: 'e'.repeat(2000), traceId: 't-1' }));
    const rows = await tools.execute('rows', {});
    expect(rows.result).toMatch(/^\[\{"i":0\},\{"i":1\}/);
    expect((rows.result as string).length).toBe(300);
    const failed = await tools.execute('fails', {});
    expect(failed).toBeInstanceOf(Traced);
    expect([failed.ok, failed.error!.length, failed.traceId]).toEqual([false, 300, 't-1']);
  });

  it('leaves binary results, declared outputs and values without JSON alone', async () => {
    const tools = new Tools({ outputBudget: { maxChars: 50 }, logger: quiet() });
    tools.action({ name: 'file', description: 'File.' }, () => ActionResult.file(Buffer.alloc(1000, 1)));
    tools.action({ name: 'files', description: 'Files.' }, () => [new Uint8Array(500), 'x'.repeat(100)]);
    tools.action({ name: 'typed', description: 'Typed.', returns: Type.Object({ s: Type.String() }) }, () => ({ s: 's'.repeat(500) }));
    tools.action({ name: 'cyclic', description: 'Cyclic.' }, () => {
      const a: Record<string, unknown> = {};
      a.self = a;
      return a;
    });
    tools.action({ name: 'nothing', description: 'Nothing.' }, () => undefined);
    tools.action({ name: 'fn', description: 'Fn.' }, () => () => 1);
    expect((await tools.execute('file', {})).ok).toBe(true);
    expect(((await tools.execute('files', {})).result as unknown[]).length).toBe(2);
    expect((await tools.execute('typed', {})).result).toEqual({ s: 's'.repeat(500) });
    expect((await tools.execute('cyclic', {})).ok).toBe(true);
    expect((await tools.execute('nothing', {})).result).toBeUndefined();
    expect(typeof (await tools.execute('fn', {})).result).toBe('function');
  });

  it('keeps the links of a resource-link result that it cuts, beside the saved output', async () => {
    const tools = new Tools({ outputBudget: { maxChars: 400, workspace }, logger: quiet() });
    tools.action({ name: 'report', description: 'Report.' }, () => ActionResult.resourceLink({ uri: 'https://example.com/r', name: 'r' }, 'x'.repeat(1000)));
    const value = (await tools.execute('report', {})).result as LinkedContent;
    expect(value.text).toHaveLength(400);
    expect(value.links.map((link) => link.uri)).toEqual(['https://example.com/r', expect.stringMatching(/^tool-output:\/\/report-/)]);
    const without = new Tools({ outputBudget: { maxChars: 400 }, logger: quiet() });
    without.action({ name: 'report', description: 'Report.' }, () => ActionResult.resourceLink({ uri: 'https://example.com/r', name: 'r' }, 'x'.repeat(1000)));
    expect(((await without.execute('report', {})).result as LinkedContent).links).toHaveLength(1);
  });

  it('leaves an external tool\'s execution request alone, and checks and serves the budgets of merged tools', async () => {
    const tools = new Tools({ outputBudget: { maxChars: 100 }, logger: quiet() });
    class Remote extends ToolBase {
      constructor() {
        super({ name: 'remote', description: 'Runs on the host.', inputSchema: Type.Object({ text: Type.String() }), isExternalTool: true });
      }
      checkPermissions() {
        return PermissionDecision.allow('ok');
      }
    }
    tools.register(new Remote());
    const request = await tools.execute('remote', { text: 'x'.repeat(1000) });
    expect(request.result).toMatchObject({ name: 'remote', params: { text: 'x'.repeat(1000) } });
    const other = new Tools({ logger: quiet() });
    other.action({ name: 'dump', description: 'Dump.', outputBudget: { maxChars: 200, workspace } }, () => big(100));
    tools.merge(other);
    const value = (await tools.execute('dump', {})).result as LinkedContent;
    expect(await tools.outputBudgets.read(value.links[0]!.uri)).toBe(big(100));
  });

  it('budgets calls that run through registry middleware too', async () => {
    const seen: string[] = [];
    const tools = new Tools({ outputBudget: { maxChars: 100 }, middleware: [{ handle: (call, next) => (seen.push(call.name), next(call)) }], logger: quiet() });
    tools.action({ name: 'dump', description: 'Dump.' }, () => big(100));
    expect(((await tools.execute('dump', {})).result as string).length).toBe(100);
    expect(seen).toEqual(['dump']);
  });

  it.each<[string, unknown]>([
    ['a number', 5],
    ['an unknown key', { maxChars: 10, max: 1 }],
    ['a zero limit', { maxChars: 0 }],
    ['a fractional limit', { maxChars: 1.5 }],
    ['maxTokens without an estimator', { maxTokens: 10 }],
    ['an estimator without maxTokens', { estimateTokens: () => 1 }],
    ['an estimator that is not a function', { maxTokens: 10, estimateTokens: 'chars/4' }],
    ['an empty readTool', { maxChars: 10, readTool: '' }],
    ['a workspace without stat', { maxChars: 10, workspace: { writeFile() {}, readFile() {} } }],
    ['null', null],
  ])('refuses %s as a budget, on the registry and on a tool', (_name, budget) => {
    expect(() => new Tools({ outputBudget: budget as OutputBudget })).toThrow(CoreError);
    expect(() => new Tools({ outputBudget: budget as OutputBudget })).toThrow(/outputBudget .*docs\/output-budgets\.md/);
    const tools = new Tools();
    expect(() => tools.action({ name: 't', description: 'T.', outputBudget: budget as OutputBudget }, () => 1)).toThrow(/tool 't': outputBudget/);
    expect(tools.list()).toEqual([]);
  });
});

describe('output budgets on streamed output', () => {
  /** A tool streaming `count` chunks of `piece`, recording how many it produced. */
  function streaming(tools: Tools, count: number, piece: (i: number) => string, produced: number[] = []) {
    tools.action({ name: 'stream', description: 'Streams.' }, async function* () {
      for (let i = 0; i < count; i++) {
        produced.push(i);
        yield piece(i);
      }
    });
    return produced;
  }

  it('passes the head through as it streams, holds the rest, and ends with the marker and the tail', async () => {
    const tools = new Tools({ outputBudget: { maxChars: 1000 }, logger: quiet() });
    streaming(tools, 500, (i) => `chunk ${String(i).padStart(3, '0')}\n`);
    const stream = tools.stream('stream', {});
    const seen: string[] = [];
    for await (const chunk of stream) seen.push(chunk.content.map((block) => (block.type === 'text' ? block.text : '')).join(''));
    const result = await stream.result;
    const text = result.result as string;
    expect(text).toHaveLength(1000);
    expect(seen.join('')).toBe(text);
    expect(text.startsWith('chunk 000\nchunk 001\n')).toBe(true);
    expect(text.endsWith('chunk 498\nchunk 499\n')).toBe(true);
    const full = Array.from({ length: 500 }, (_, i) => `chunk ${String(i).padStart(3, '0')}\n`).join('');
    const cutChars = full.length - 1000 + /\n\n\[\.\.\. .*? \.\.\.\]\n\n/s.exec(text)![0].length;
    expect(text).toContain(`[... ${cutChars} of ${full.length} characters`);
    // The head passed as it came: the first chunks arrived whole.
    expect(seen.slice(0, 3)).toEqual(['chunk 000\n', 'chunk 001\n', 'chunk 002\n']);
  });

  it('with execute (no consumer), a streaming body is held to the budget too, and its full text saved', async () => {
    const tools = new Tools({ outputBudget: { maxChars: 500, workspace }, logger: quiet() });
    streaming(tools, 1000, (i) => `line ${i}\n`);
    const result = await tools.execute('stream', {});
    const value = result.result as LinkedContent;
    expect(value.text).toHaveLength(500);
    expect(value.links).toHaveLength(1);
    const full = Array.from({ length: 1000 }, (_, i) => `line ${i}\n`).join('');
    expect(readFileSync(join(dir, OUTPUT_FOLDER, saved()[0]!), 'utf8')).toBe(full);
    expect(value.text).toContain(`saved at ${OUTPUT_FOLDER}/${saved()[0]!}`);
  });

  it('passes everything when the whole stream fits, even past half the budget', async () => {
    const tools = new Tools({ outputBudget: { maxChars: 1000 }, logger: quiet() });
    streaming(tools, 8, () => 'x'.repeat(100));
    const stream = tools.stream('stream', {});
    const chunks: ToolChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect((await stream.result).result).toBe('x'.repeat(800));
    const texts = chunks.map((chunk) => chunk.content.map((block) => (block.type === 'text' ? block.text : '')).join(''));
    expect(texts.join('')).toBe('x'.repeat(800));
    // The held-back rest comes last, then the empty chunk that closes the stream (isLast).
    expect(texts.at(-1)).toBe('');
    expect(chunks.at(-1)!.isLast).toBe(true);
    expect(texts.at(-2)!.length).toBeGreaterThan(0);
    expect(texts.slice(0, -2).join('').length).toBeLessThan(500);
  });

  it('keeps memory bounded: a stream a hundred times the budget holds no more than the budget', async () => {
    const tools = new Tools({ outputBudget: { maxChars: 2000 }, logger: quiet() });
    streaming(tools, 20_000, (i) => `${i}`.padEnd(10, '.'));
    const result = await tools.execute('stream', {});
    expect((result.result as string).length).toBeLessThanOrEqual(2000);
    expect((result.result as string).endsWith('19999.....')).toBe(true);
  });

  it('never splits a surrogate pair across the head, the held tail or a dropped part', async () => {
    for (const max of [301, 302, 303, 310]) {
      const tools = new Tools({ outputBudget: { maxChars: max }, logger: quiet() });
      streaming(tools, 300, (i) => (i % 2 === 0 ? '😀a😀' : 'é😀'));
      const stream = tools.stream('stream', {});
      for await (const chunk of stream) for (const block of chunk.content) if (block.type === 'text') expect(block.text.isWellFormed()).toBe(true);
      const text = (await stream.result).result as string;
      expect(text.length).toBeLessThanOrEqual(max);
      expect(text.isWellFormed() && !text.includes('\uFFFD')).toBe(true);
    }
  });

  it('keeps a token budget while streaming', async () => {
    const estimateTokens = (text: string) => Math.ceil(text.length / 4);
    const tools = new Tools({ outputBudget: { maxTokens: 200, estimateTokens }, logger: quiet() });
    streaming(tools, 300, (i) => `token ${i} `);
    const text = (await tools.execute('stream', {})).result as string;
    expect(estimateTokens(text)).toBeLessThanOrEqual(200);
    expect(text.startsWith('token 0 token 1 ')).toBe(true);
    expect(text.endsWith('token 299 ')).toBe(true);
  });

  it('keeps the final state and metadata of chunks it held, and data blocks pass', async () => {
    const tools = new Tools({ outputBudget: { maxChars: 300 }, logger: quiet() });
    tools.action({ name: 'mixed', description: 'Mixed.' }, async function* () {
      yield ToolChunk.text('a'.repeat(200));
      yield ToolChunk.json({ n: 1 });
      yield new ToolChunk({ metadata: { step: 1 } });
      yield ToolChunk.text('b'.repeat(500), { metadata: { step: 2 } });
      yield ToolChunk.text('c'.repeat(100), { state: ToolResultState.ERROR, isLast: true });
    });
    const stream = tools.stream('mixed', {});
    const chunks: ToolChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const result = await stream.result;
    expect(result.ok).toBe(false);
    expect(result.error!.length).toBeLessThanOrEqual(300);
    expect(result.error!.endsWith('ccc')).toBe(true);
    expect(chunks.at(-1)!.state).toBe(ToolResultState.ERROR);
    expect(chunks.at(-1)!.isLast).toBe(true);
    expect(chunks.slice(0, -1).every((chunk) => chunk.state === ToolResultState.RUNNING)).toBe(true);
    expect(chunks.some((chunk) => chunk.content.some((block) => block.type === 'data'))).toBe(true);
    expect(chunks.some((chunk) => chunk.metadata.step === 2)).toBe(true);
  });

  it('a stream longer than maxSavedChars is cut without being saved', async () => {
    const tools = new Tools({ outputBudget: { maxChars: 200, workspace, maxSavedChars: 1000 }, logger: quiet() });
    streaming(tools, 200, () => 'x'.repeat(10));
    expect((await tools.execute('stream', {})).result).toMatch(/not kept/);
    expect(saved()).toEqual([]);
  });

  it('a budget smaller than the marker keeps the tail alone, within the budget', async () => {
    const tools = new Tools({ outputBudget: { maxChars: 100, workspace }, logger: quiet() });
    streaming(tools, 100, (i) => `${i}`.padEnd(10, '-'));
    const value = (await tools.execute('stream', {})).result as LinkedContent;
    expect(value.text).toBe('90--------91--------92--------93--------94--------95--------96--------97--------98--------99--------');
    expect(value.links).toHaveLength(1);
  });

  it('a tool with per-tool middleware (the chunk path) is budgeted as it streams', async () => {
    const tools = new Tools({ outputBudget: { maxChars: 600, workspace }, logger: quiet() });
    tools.action({ name: 'wrapped', description: 'Wrapped.', middlewares: [{ onToolCall: (_tool, input, next) => next(input) }] }, async function* () {
      for (let i = 0; i < 100; i++) yield `part ${i}\n`;
    });
    const value = (await tools.execute('wrapped', {})).result as LinkedContent;
    expect(value.text.length).toBeLessThanOrEqual(600);
    expect(value.text.endsWith('part 99\n')).toBe(true);
    expect(value.links).toHaveLength(1);
  });
});

describe('saved outputs are confined', () => {
  it('reads only saved outputs of a budget\'s workspaces, not links or other files', async () => {
    const tools = new Tools({ outputBudget: { maxChars: 100, workspace }, logger: quiet() });
    writeFileSync(join(dir, 'secret.txt'), 'secret');
    mkdirSync(join(dir, OUTPUT_FOLDER), { recursive: true });
    symlinkSync(join(dir, 'secret.txt'), join(dir, OUTPUT_FOLDER, 'link.txt'));
    mkdirSync(join(dir, OUTPUT_FOLDER, 'folder.txt'));
    for (const reference of ['secret.txt', '../secret.txt', `${OUTPUT_FOLDER}/../../secret.txt`, `${OUTPUT_FOLDER}/link.txt`, 'link.txt', 'folder.txt', join(dir, 'secret.txt'), 'tool-output://../secret.txt']) {
      expect(await tools.outputBudgets.read(reference)).toBeUndefined();
    }
  });
});
