import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LinkedContent, OUTPUT_FOLDER, Tools } from '../../lib';
import { READ_OUTPUT_DEFAULT_LIMIT, ReadToolOutput, readToolOutput, BuiltinToolError } from '../../lib/builtins';
import { LocalWorkspace } from '../../lib/workspace';

const quiet = () => ({ warn: jest.fn(), error: jest.fn() });
let dir: string;
let outside: string;
let workspace: LocalWorkspace;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paging-'));
  outside = mkdtempSync(join(tmpdir(), 'paging-outside-'));
  workspace = new LocalWorkspace(dir);
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** A registry whose `dump` tool returns `text`, budgeted to `maxChars` and saved, with the paging tool. */
function setup(text: string, maxChars = 1000) {
  const tools = new Tools({ outputBudget: { maxChars, workspace }, logger: quiet() });
  tools.action({ name: 'dump', description: 'Dump.' }, () => text);
  tools.register(readToolOutput({ workspace }));
  return tools;
}

const pathOf = (value: unknown) => /saved at (\S+):/.exec((value as LinkedContent).text)![1]!;

describe('read_output: the paging tool of output budgets', () => {
  it('reads a saved output back page by page from the offset the marker gives, to the end', async () => {
    const full = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n');
    const tools = setup(full);
    const cut = (await tools.execute('dump', {})).result as LinkedContent;
    const path = pathOf(cut);
    const offset = Number(/"offset": (\d+)/.exec(cut.text)![1]);
    let text = full.slice(0, offset);
    let next: number | undefined = offset;
    while (next !== undefined) {
      const page = (await tools.execute('read_output', { path, offset: next, limit: 7000 })).result as string;
      const header = /^\[(.+?): characters (\d+) to (\d+) of (\d+); (?:next offset (\d+)|end of output)\]\n/.exec(page)!;
      expect([header[1], Number(header[2]), Number(header[4])]).toEqual([path, next, full.length]);
      text += page.slice(header[0].length);
      next = header[5] === undefined ? undefined : Number(header[5]);
    }
    expect(text).toBe(full);
  });

  it('defaults to offset 0 and the default limit, and is never budgeted itself', async () => {
    const full = 'z'.repeat(50_000);
    const tools = setup(full, 500);
    const path = pathOf((await tools.execute('dump', {})).result);
    const page = (await tools.execute('read_output', { path })).result as string;
    expect(page).toBe(`[${path}: characters 0 to ${READ_OUTPUT_DEFAULT_LIMIT} of 50000; next offset ${READ_OUTPUT_DEFAULT_LIMIT}]\n${'z'.repeat(READ_OUTPUT_DEFAULT_LIMIT)}`);
  });

  it('takes the file name and the tool-output URI as well as the path', async () => {
    const tools = setup('q'.repeat(5000));
    const cut = (await tools.execute('dump', {})).result as LinkedContent;
    const id = readdirSync(join(dir, OUTPUT_FOLDER))[0]!;
    for (const path of [id, `./${OUTPUT_FOLDER}/${id}`, cut.links[0]!.uri]) {
      expect((await tools.execute('read_output', { path, offset: 4990 })).result).toMatch(/characters 4990 to 5000 of 5000; end of output\]\nq{10}$/);
    }
  });

  it('never starts or ends a page inside a surrogate pair', async () => {
    const full = '😀'.repeat(3000);
    const tools = setup(full);
    const path = pathOf((await tools.execute('dump', {})).result);
    for (const [offset, limit] of [[1, 10], [3, 1], [2, 11], [5999, 5]] as const) {
      const page = (await tools.execute('read_output', { path, offset, limit })).result as string;
      const body = page.slice(page.indexOf('\n') + 1);
      expect(body.isWellFormed()).toBe(true);
      expect(body.length).toBeGreaterThan(0);
    }
  });

  it('fails, for the model, an offset past the end and a path that is no saved output', async () => {
    const tools = setup('w'.repeat(5000));
    const path = pathOf((await tools.execute('dump', {})).result);
    expect((await tools.execute('read_output', { path, offset: 5000 })).error).toBe(`offset 5000 is past the end of '${path}' (5000 characters).`);
    expect((await tools.execute('read_output', { path: `${OUTPUT_FOLDER}/dump-1-none.txt` })).error).toMatch(/is not a saved output/);
  });

  describe('path confinement: only saved outputs can be read', () => {
    beforeEach(() => {
      writeFileSync(join(dir, 'secret.txt'), 'workspace secret');
      writeFileSync(join(outside, 'secret.txt'), 'outside secret');
      mkdirSync(join(dir, OUTPUT_FOLDER), { recursive: true });
      writeFileSync(join(dir, '.agenttoolkit', 'other.txt'), 'beside the outputs');
      symlinkSync(join(dir, 'secret.txt'), join(dir, OUTPUT_FOLDER, 'inside-link.txt'));
      symlinkSync(join(outside, 'secret.txt'), join(dir, OUTPUT_FOLDER, 'outside-link.txt'));
      symlinkSync(outside, join(dir, OUTPUT_FOLDER, 'dirlink'));
      mkdirSync(join(dir, OUTPUT_FOLDER, 'folder.txt'));
    });

    it.each([
      'secret.txt',
      '../secret.txt',
      '../../secret.txt',
      `${OUTPUT_FOLDER}/../../secret.txt`,
      `${OUTPUT_FOLDER}/../other.txt`,
      `${OUTPUT_FOLDER}/..`,
      '.agenttoolkit/other.txt',
      'other.txt/../../secret.txt',
      'inside-link.txt',
      `${OUTPUT_FOLDER}/inside-link.txt`,
      'outside-link.txt',
      'dirlink/secret.txt',
      `${OUTPUT_FOLDER}/dirlink/secret.txt`,
      'folder.txt',
      '/etc/passwd',
      '/etc/hostname.txt',
      'PLACEHOLDER_ABSOLUTE',
      'tool-output://../secret.txt',
      'tool-output:///etc/passwd',
      'file:///etc/passwd',
      `${OUTPUT_FOLDER}\\..\\..\\secret.txt`,
      '..\\secret.txt',
      `${OUTPUT_FOLDER}/x.txt\u0000.txt`,
      `${OUTPUT_FOLDER}/%2e%2e/secret.txt`,
      '.txt',
      '~/secret.txt',
    ])('refuses %j', async (reference) => {
      const path = reference === 'PLACEHOLDER_ABSOLUTE' ? join(dir, 'secret.txt') : reference;
      const tools = setup('nothing to cut');
      const result = await tools.execute('read_output', { path });
      expect(result.ok).toBe(false);
      expect(result.error).toMatch(/is not a saved output/);
      expect(result.error).not.toMatch(/workspace secret|outside secret|beside the outputs/);
    });
  });

  it('refuses a workspace that is not one, and can be renamed', () => {
    expect(() => new ReadToolOutput({ workspace: {} as never })).toThrow(BuiltinToolError);
    expect(new ReadToolOutput({ workspace, name: 'page' }).name).toBe('page');
    expect(new ReadToolOutput({ workspace }).isReadOnly).toBe(true);
  });

  it('turns a workspace error into a failed result', async () => {
    const failing = { writeFile: () => Promise.resolve(), stat: () => Promise.resolve({ isSymlink: false, isDirectory: false }), readFile: () => Promise.reject(new Error('device gone')) };
    const tools = new Tools({ logger: quiet() }).register(readToolOutput({ workspace: failing }));
    expect((await tools.execute('read_output', { path: `dump-1-${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}-${'0'.repeat(32)}.txt` })).error).toBe('Could not read the saved output: device gone');
  });
});
