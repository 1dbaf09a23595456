// Grep on the real ripgrep binary over real files: output modes, filters, context, paging, hidden files, formats.
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { AGENT_STATE, ToolContext, ToolSchemaFormat, Tools, type ActionResult } from '../../../lib';
import { LocalWorkspace } from '../../../lib/workspace';
import { BuiltinToolError, GREP_MAX_OUTPUT, GrepTool, fileTools, ripgrepPath, type GrepToolOptions } from '../../../lib/builtins';

let base: string;
let root: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'builtins-grep-')));
  root = join(base, 'project');
  mkdirSync(root);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function write(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

function tools(options: Partial<GrepToolOptions> = {}): Tools {
  return new Tools({ context: new ToolContext().provide(AGENT_STATE, {}) }).register(new GrepTool({ workspace: new LocalWorkspace(root), ...options }));
}

async function run(args: Record<string, unknown>, options: Partial<GrepToolOptions> = {}): Promise<ActionResult> {
  return tools(options).execute('Grep', args);
}

async function text(args: Record<string, unknown>, options: Partial<GrepToolOptions> = {}): Promise<string> {
  const result = await run(args, options);
  if (!result.ok) throw new Error(`expected success, got: ${result.error}`);
  return result.result as string;
}

async function error(args: Record<string, unknown>, options: Partial<GrepToolOptions> = {}): Promise<string> {
  const result = await run(args, options);
  if (result.ok) throw new Error(`expected failure, got: ${String(result.result)}`);
  return result.error!;
}

describe('output modes', () => {
  beforeEach(() => write({ 'src/a.ts': 'const alpha = 1;\nconst beta = 2;\nalpha();\n', 'src/b.ts': 'beta\n', 'docs/c.md': 'Alpha\n' }));

  it('files_with_matches by default, in path order', async () => {
    expect(await text({ pattern: 'beta' })).toBe('Found 2 files\nsrc/a.ts\nsrc/b.ts');
    expect(await text({ pattern: 'alpha', output_mode: 'files_with_matches' })).toBe('Found 1 file\nsrc/a.ts');
  });

  it('content with line numbers (default) or without', async () => {
    expect(await text({ pattern: 'alpha', output_mode: 'content' })).toBe('src/a.ts:1:const alpha = 1;\nsrc/a.ts:3:alpha();');
    expect(await text({ pattern: 'alpha', output_mode: 'content', line_number: false })).toBe('src/a.ts:const alpha = 1;\nsrc/a.ts:alpha();');
  });

  it('count: matching lines per file and the sum', async () => {
    expect(await text({ pattern: 'alpha|beta', output_mode: 'count' })).toBe('src/a.ts:3\nsrc/b.ts:1\n\n(4 matching lines in 2 files.)');
    expect(await text({ pattern: 'beta', output_mode: 'count', path: 'src/b.ts' })).toBe('src/b.ts:1\n\n(1 matching line in 1 file.)');
  });

  it('says so when nothing matches: a success, not a failure', async () => {
    expect(await text({ pattern: 'gamma' })).toBe("No matches for 'gamma'.");
    expect(await text({ pattern: 'gamma', path: 'src' })).toBe("No matches for 'gamma' in 'src'.");
  });

  it('ignore_case searches without regard to case', async () => {
    expect(await text({ pattern: 'ALPHA', ignore_case: true })).toBe('Found 2 files\ndocs/c.md\nsrc/a.ts');
    expect(await text({ pattern: 'ALPHA' })).toBe("No matches for 'ALPHA'.");
  });

  it('a path narrows the search to a folder or one file', async () => {
    expect(await text({ pattern: 'lpha', path: 'docs' })).toBe('Found 1 file\ndocs/c.md');
    expect(await text({ pattern: 'beta', path: 'src/b.ts', output_mode: 'content' })).toBe('src/b.ts:1:beta');
    expect(await text({ pattern: 'beta', path: join(root, 'src') })).toBe('Found 2 files\nsrc/a.ts\nsrc/b.ts');
  });
});

describe('filters and context', () => {
  it('glob and type filters', async () => {
    write({ 'a.ts': 'x', 'b.js': 'x', 'lib/c.ts': 'x', 'd.py': 'x' });
    expect(await text({ pattern: 'x', glob: '*.ts' })).toBe('Found 2 files\na.ts\nlib/c.ts');
    expect(await text({ pattern: 'x', glob: '*.{js,py}' })).toBe('Found 2 files\nb.js\nd.py');
    expect(await text({ pattern: 'x', type: 'py' })).toBe('Found 1 file\nd.py');
    expect(await text({ pattern: 'x', type: 'js' })).toBe('Found 1 file\nb.js');
    expect(await error({ pattern: 'x', type: 'nosuchtype' })).toMatch(/failed: .*nosuchtype/);
  });

  it('after_context, before_context and context add context lines, groups separated by --', async () => {
    write({ 'f.txt': '1\n2\nhit\n4\n5\n6\n7\nhit\n9\n' });
    expect(await text({ pattern: 'hit', output_mode: 'content', after_context: 1 })).toBe('f.txt:3:hit\nf.txt-4-4\n--\nf.txt:8:hit\nf.txt-9-9');
    expect(await text({ pattern: 'hit', output_mode: 'content', before_context: 1 })).toBe('f.txt-2-2\nf.txt:3:hit\n--\nf.txt-7-7\nf.txt:8:hit');
    expect(await text({ pattern: 'hit', output_mode: 'content', context: 2 })).toBe('f.txt-1-1\nf.txt-2-2\nf.txt:3:hit\nf.txt-4-4\nf.txt-5-5\nf.txt-6-6\nf.txt-7-7\nf.txt:8:hit\nf.txt-9-9');
  });

  it('multiline lets a pattern span lines, and . match newlines', async () => {
    write({ 'm.ts': 'function f(\n  a,\n) {}\n', 'n.ts': 'function g() {}\n' });
    expect(await error({ pattern: 'f\\(\\n\\s+a' })).toMatch(/--multiline/);
    expect(await text({ pattern: 'f\\(\\n\\s+a', multiline: true })).toBe('Found 1 file\nm.ts');
    expect(await text({ pattern: 'f\\(.*\\)', multiline: true, output_mode: 'content' })).toBe('m.ts:1:function f(\nm.ts:2:  a,\nm.ts:3:) {}');
  });
});

describe('paging', () => {
  beforeEach(() => write(Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`f${i}.txt`, 'needle\nneedle\n']))));

  it('head_limit and offset page through the result, and say how', async () => {
    expect(await text({ pattern: 'needle', head_limit: 3 })).toBe('Found 7 files\nf0.txt\nf1.txt\nf2.txt\n\n(Showing files 1-3 of 7. Pass offset: 3 for the next page.)');
    expect(await text({ pattern: 'needle', head_limit: 3, offset: 3 })).toBe('Found 7 files\nf3.txt\nf4.txt\nf5.txt\n\n(Showing files 4-6 of 7. Pass offset: 6 for the next page.)');
    expect(await text({ pattern: 'needle', head_limit: 3, offset: 6 })).toBe('Found 7 files\nf6.txt\n\n(Showing files 7-7 of 7.)');
    expect(await text({ pattern: 'needle', offset: 9 })).toBe('No results at offset 9 (7 in all).');
    expect(await text({ pattern: 'needle', output_mode: 'content', head_limit: 2, offset: 1 })).toBe('f0.txt:2:needle\nf1.txt:1:needle\n\n(Showing lines 2-3 of 14. Pass offset: 3 for the next page.)');
    expect(await text({ pattern: 'needle', output_mode: 'count', head_limit: 1 })).toBe('f0.txt:2\n\n(Showing files 1-1 of 7. Pass offset: 1 for the next page.)');
  });

  it('cuts a long answer and a long line', async () => {
    write({ 'long.txt': `${'word '.repeat(2000)}\n`.repeat(200) });
    const out = await text({ pattern: 'word', output_mode: 'content', head_limit: 5000 });
    expect(out.length).toBeLessThanOrEqual(GREP_MAX_OUTPUT);
    expect(out).toContain('[... ');
    expect(out).toContain('(output cut; narrow the search or lower head_limit)');
  });
});

describe('hidden files and version-control folders', () => {
  it('searches hidden files and folders, never .git, .hg or .svn, even when a glob asks for them', async () => {
    write({ '.hidden.ts': 'needle', '.config/tool.json': 'needle', '.git/config': 'needle', 'sub/.git/HEAD': 'needle', '.hg/store': 'needle', '.svn/entries': 'needle', 'a.ts': 'needle' });
    expect(await text({ pattern: 'needle' })).toBe('Found 3 files\n.config/tool.json\n.hidden.ts\na.ts');
    expect(await text({ pattern: 'needle', glob: '.git/**' })).toBe("No matches for 'needle'.");
    expect(await text({ pattern: 'needle', glob: '**/.git/*' })).toBe("No matches for 'needle'.");
  });
});

describe('failures are failed results', () => {
  it('a bad regular expression, a missing path', async () => {
    write({ 'a.txt': 'x' });
    expect(await error({ pattern: '(unclosed' })).toMatch(/^Grep '\(unclosed' failed: .*regex/s);
    expect(await error({ pattern: 'x', path: 'nope' })).toMatch(/failed: .*nope/);
  });

  it('a ripgrep that cannot be run is a coded failure; a bad rgPath or timeout option throws', async () => {
    write({ 'a.txt': 'x' });
    expect(await error({ pattern: 'x' }, { rgPath: join(base, 'no-rg') })).toMatch(/^RIPGREP_NOT_FOUND: /);
    expect(() => new GrepTool({ workspace: new LocalWorkspace(root), rgPath: 'rg' })).toThrow(BuiltinToolError);
    expect(() => new GrepTool({ workspace: new LocalWorkspace(root), timeoutMs: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_BUILTIN_OPTION' }));
  });

  it('finds the binary @vscode/ripgrep ships, and runs the one given as rgPath', async () => {
    write({ 'a.txt': 'x' });
    expect(ripgrepPath()).toMatch(/@vscode\/ripgrep-[a-z0-9]+-[a-z0-9]+\/bin\/rg$/);
    expect(await text({ pattern: 'x' }, { rgPath: ripgrepPath() })).toBe('Found 1 file\na.txt');
    if (existsSync('/usr/bin/rg')) expect(await text({ pattern: 'x' }, { rgPath: '/usr/bin/rg' })).toBe('Found 1 file\na.txt');
  });

  it('is unavailable over a workspace that is not on the local disk, and fails if called anyway', async () => {
    const local = new LocalWorkspace(root);
    // A workspace whose root is not a path on this disk (a container's, say): ripgrep on the host must not search it.
    const plain = { root, readFile: local.readFile.bind(local) } as unknown as LocalWorkspace;
    const grep = new GrepTool({ workspace: plain });
    const registry = new Tools({ context: new ToolContext().provide(AGENT_STATE, {}) }).register(grep);
    expect(registry.getSchema(ToolSchemaFormat.OPENAI)).toHaveLength(0);
    const direct = await grep.call({ pattern: 'x' }, { context: new ToolContext(), signal: new AbortController().signal }) as ActionResult;
    expect(direct.ok).toBe(false);
    expect(direct.error).toMatch(/needs a LocalWorkspace/);
  });
});

describe('provider formats', () => {
  it.each(Object.keys(ToolSchemaFormat))('%s lists Grep with its parameters', (format) => {
    const files = fileTools({ workspace: new LocalWorkspace(root) });
    const registry = new Tools({ context: new ToolContext().provide(AGENT_STATE, {}) }).register(files.grep);
    const entries = registry.getSchema(ToolSchemaFormat[format as keyof typeof ToolSchemaFormat]);
    expect(entries).toHaveLength(1);
    const json = JSON.stringify(entries);
    for (const key of ['"Grep"', '"pattern"', '"output_mode"', '"files_with_matches"', '"after_context"', '"head_limit"', '"offset"', '"multiline"']) expect(json).toContain(key);
  });

  it('MCP advertises it read-only', () => {
    const registry = new Tools({ context: new ToolContext().provide(AGENT_STATE, {}) }).register(new GrepTool({ workspace: new LocalWorkspace(root) }));
    const [entry] = registry.getSchema(ToolSchemaFormat.MCP) as unknown as Array<{ annotations?: { readOnlyHint?: boolean } }>;
    expect(entry!.annotations?.readOnlyHint).toBe(true);
  });
});
