// Model-facing failures stay failed results whatever the backend throws; the tools' own checks outside the engine.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_STATE, ToolContext, Tools } from '../../../lib';
import { PermissionContext, PermissionMode } from '../../../lib/permissions';
import { mcpCallTool } from '../../../lib/providers/mcp';
import { LocalWorkspace, type Workspace } from '../../../lib/workspace';
import { fileTools } from '../../../lib/builtins';

let base: string;
let root: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'builtins-robust-')));
  root = join(base, 'project');
  mkdirSync(root);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function registry(workspace: Workspace, rootPath?: string) {
  const files = fileTools({ workspace, root: rootPath });
  const tools = new Tools({ context: new ToolContext().provide(AGENT_STATE, {}), logger: { warn: jest.fn(), error: jest.fn() } })
    .register(files.read, files.write, files.edit, files.glob);
  return { files, tools };
}

describe('failures from the backend', () => {
  it('a backend that throws plain errors gives failed results, never exceptions', async () => {
    const broken = new Proxy(new LocalWorkspace(root), {
      get(target, key) {
        if (key === 'root') return target.root;
        return () => Promise.reject(new Error(`disk on fire (${String(key)})`));
      },
    });
    const { tools } = registry(broken);
    for (const [name, args] of [
      ['Read', { file_path: 'a' }], ['Write', { file_path: 'a', content: 'x' }], ['Edit', { file_path: 'a', old_string: 'a', new_string: 'b' }], ['Glob', { pattern: '*' }],
    ] as const) {
      const result = await tools.execute(name, args);
      expect([name, result.ok, result.error]).toEqual([name, false, expect.stringMatching(/^Could not (read|write|edit|search for) '.*': disk on fire/)]);
    }
    const odd = new Proxy(new LocalWorkspace(root), {
      get: (target, key) => (key === 'root' ? target.root : () => Promise.reject('a string')),
    });
    expect((await registry(odd).tools.execute('Read', { file_path: 'a' })).error).toBe("Could not read 'a': a string");
  });

  it('over the size limit: the limit, in the tools\' words', async () => {
    writeFileSync(join(root, 'big.txt'), 'x'.repeat(100));
    const { tools } = registry(new LocalWorkspace(root, { maxFileSize: 10 }));
    expect((await tools.execute('Read', { file_path: 'big.txt' })).error).toBe("'big.txt' is 100 bytes, over the workspace limit of 10 bytes.");
    expect((await tools.execute('Write', { file_path: 'new.txt', content: 'y'.repeat(11) })).error).toBe("'new.txt' is 11 bytes, over the workspace limit of 10 bytes.");
  });

  it('a very long failure text is capped and well-formed', async () => {
    const { tools } = registry(new LocalWorkspace(root));
    const result = await tools.execute('Read', { file_path: `${'é'.repeat(3000)}\u{1F600}` });
    expect(result.ok).toBe(false);
    expect(result.error!.length).toBeLessThanOrEqual(2000);
    expect(result.error!.isWellFormed()).toBe(true);
  });
});

describe('confinement holds through the tools (the workspace refuses, the tool reports)', () => {
  it.each([
    ['a link to a file outside', (dir: string) => { writeFileSync(join(base, 'secret.txt'), 'S'); symlinkSync(join(base, 'secret.txt'), join(dir, 'l')); return 'l'; }],
    ['a link to a folder outside', (dir: string) => { mkdirSync(join(base, 'out')); symlinkSync(join(base, 'out'), join(dir, 'l')); return 'l/new.txt'; }],
    ['a relative link climbing out', (dir: string) => { symlinkSync('../', join(dir, 'l')); return 'l/secret2.txt'; }],
    ['a dangling link to outside', (dir: string) => { symlinkSync(join(base, 'nothing-yet'), join(dir, 'l')); return 'l'; }],
  ])('%s', async (_label, plant) => {
    const path = plant(root);
    const { tools } = registry(new LocalWorkspace(root));
    expect((await tools.execute('Read', { file_path: path })).ok).toBe(false);
    expect((await tools.execute('Write', { file_path: path, content: 'pwned' })).ok).toBe(false);
    expect(existsSync(join(base, 'nothing-yet'))).toBe(false);
    expect(existsSync(join(base, 'out', 'new.txt'))).toBe(false);
    if (existsSync(join(base, 'secret.txt'))) expect(readFileSync(join(base, 'secret.txt'), 'utf8')).toBe('S');
  });
});

describe('the tools\' own verdicts, outside any engine', () => {
  it('Read and Glob allow ordinary calls; hooks ignore inputs without a path', () => {
    const { files } = registry(new LocalWorkspace(root));
    const context = new PermissionContext({ cwd: root });
    expect(files.read.checkPermissions({ file_path: 'a.ts' }, context).behavior).toBe('allow');
    expect(files.glob.checkPermissions({ pattern: '*.ts' }, context).behavior).toBe('allow');
    expect(files.read.generateSuggestions({})).toEqual([]);
    expect(files.edit.generateSuggestions({})).toEqual([]);
    expect(files.read.generateSuggestions({ file_path: 'src/a.ts' }).length).toBe(1);
    expect(files.read.checkReadOnly({})).toBe(false);
    expect(files.glob.checkReadOnly({})).toBe(true);
    expect(files.edit.matchRule('**', {}, context, 'deny' as never)).toBe(false);
    expect(files.read.matchRule('**', {}, context, 'deny' as never)).toBe(false);
    expect(files.write.checkPermissions({ file_path: 'a.ts', content: '' }, new PermissionContext({ mode: PermissionMode.ACCEPT_EDITS, cwd: root })).behavior).toBe('passthrough');
  });

  it('a workspace given an explicit root judges paths under that root', async () => {
    const workspace = new LocalWorkspace(root);
    const { files } = registry(workspace, workspace.root);
    const context = new PermissionContext({ cwd: root, workingDirectories: [root], mode: PermissionMode.ACCEPT_EDITS });
    expect(files.edit.checkPermissions({ file_path: 'x.ts', old_string: 'a', new_string: 'b' }, context).behavior).toBe('allow');
  });
});

describe('streaming and MCP', () => {
  it('tools.stream yields the Read text as a chunk, and an MCP call returns it as content', async () => {
    writeFileSync(join(root, 'a.txt'), 'hello\n');
    const { tools } = registry(new LocalWorkspace(root));
    const stream = tools.stream('Read', { file_path: 'a.txt' });
    const texts: string[] = [];
    for await (const chunk of stream) for (const block of chunk.content) if (block.type === 'text') texts.push(block.text);
    expect(texts.join('')).toBe('     1\thello');
    expect((await stream.result).ok).toBe(true);
    const mcp = await mcpCallTool(tools, { name: 'Edit', arguments: { file_path: 'a.txt', old_string: 'hello', new_string: 'bye' } });
    expect(mcp).toEqual({ content: [{ type: 'text', text: "Edited 'a.txt': 1 replacement." }], isError: false });
    const refused = await mcpCallTool(tools, { name: 'Write', arguments: { file_path: '../x', content: 'x' } });
    expect(refused.isError).toBe(true);
  });
});
