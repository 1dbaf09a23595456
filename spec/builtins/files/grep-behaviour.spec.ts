// The Grep behaviour suite, run unchanged on every backend: a LocalWorkspace on the host, a LocalWorkspace whose
// ripgrep runs inside a BubblewrapSandbox, and a DockerWorkspace whose ripgrep runs inside its container (the test
// image has no rg: the tool copies one in). Then attacks on Grep inside each backend, and the golden texts.
import { PermissionEngine, PermissionMode } from '../../../lib/permissions';
import { GREP_MAX_OUTPUT } from '../../../lib/builtins';
import { GREP_BACKENDS, harness, type Harness } from './harness';

jest.setTimeout(60_000);

describe.each(GREP_BACKENDS)('Grep on $name', (backend) => {
  let h: Harness;
  beforeEach(() => {
    h = harness(backend);
  });
  afterEach(async () => {
    await h.dispose();
  });
  const write = async (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) await h.workspace.writeFile(path, text);
  };
  const text = (args: Record<string, unknown>) => h.text('Grep', args);
  const error = (args: Record<string, unknown>) => h.error('Grep', args);

  describe('output modes', () => {
    beforeEach(() => write({ 'src/a.ts': 'const alpha = 1;\nconst beta = 2;\nalpha();\n', 'src/b.ts': 'beta\n', 'docs/c.md': 'Alpha\n' }));

    it('files_with_matches by default, content with or without line numbers, count with the sum', async () => {
      expect(await text({ pattern: 'beta' })).toBe('Found 2 files\nsrc/a.ts\nsrc/b.ts');
      expect(await text({ pattern: 'alpha', output_mode: 'content' })).toBe('src/a.ts:1:const alpha = 1;\nsrc/a.ts:3:alpha();');
      expect(await text({ pattern: 'alpha', output_mode: 'content', line_number: false })).toBe('src/a.ts:const alpha = 1;\nsrc/a.ts:alpha();');
      expect(await text({ pattern: 'alpha|beta', output_mode: 'count' })).toBe('src/a.ts:3\nsrc/b.ts:1\n\n(4 matching lines in 2 files.)');
    });

    it('no match is a success; ignore_case; a path narrows to a folder or a file', async () => {
      expect(await text({ pattern: 'gamma' })).toBe("No matches for 'gamma'.");
      expect(await text({ pattern: 'gamma', path: 'src' })).toBe("No matches for 'gamma' in 'src'.");
      expect(await text({ pattern: 'ALPHA', ignore_case: true })).toBe('Found 2 files\ndocs/c.md\nsrc/a.ts');
      expect(await text({ pattern: 'lpha', path: 'docs' })).toBe('Found 1 file\ndocs/c.md');
      expect(await text({ pattern: 'beta', path: 'src/b.ts', output_mode: 'content' })).toBe('src/b.ts:1:beta');
    });
  });

  it('glob and type filters, context lines and multiline', async () => {
    await write({ 'a.ts': 'x', 'b.js': 'x', 'lib/c.ts': 'x', 'd.py': 'x', 'f.txt': '1\n2\nhit\n4\n5\n6\n7\nhit\n9\n', 'm.rs': 'function f(\n  a,\n) {}\n' });
    expect(await text({ pattern: 'x', glob: '*.ts' })).toBe('Found 2 files\na.ts\nlib/c.ts');
    expect(await text({ pattern: 'x', type: 'py' })).toBe('Found 1 file\nd.py');
    expect(await error({ pattern: 'x', type: 'nosuchtype' })).toMatch(/failed: .*nosuchtype/);
    expect(await text({ pattern: 'hit', output_mode: 'content', after_context: 1 })).toBe('f.txt:3:hit\nf.txt-4-4\n--\nf.txt:8:hit\nf.txt-9-9');
    expect(await text({ pattern: 'hit', output_mode: 'content', before_context: 1, path: 'f.txt' })).toBe('f.txt-2-2\nf.txt:3:hit\n--\nf.txt-7-7\nf.txt:8:hit');
    expect(await error({ pattern: 'f\\(\\n\\s+a' })).toMatch(/--multiline/);
    expect(await text({ pattern: 'f\\(.*\\)', multiline: true, output_mode: 'content' })).toBe('m.rs:1:function f(\nm.rs:2:  a,\nm.rs:3:) {}');
  });

  it('pages with head_limit and offset, and cuts a long answer', async () => {
    await write(Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`f${i}.txt`, 'needle\nneedle\n'])));
    expect(await text({ pattern: 'needle', head_limit: 3, offset: 3 })).toBe('Found 7 files\nf3.txt\nf4.txt\nf5.txt\n\n(Showing files 4-6 of 7. Pass offset: 6 for the next page.)');
    expect(await text({ pattern: 'needle', offset: 9 })).toBe('No results at offset 9 (7 in all).');
    expect(await text({ pattern: 'needle', output_mode: 'content', head_limit: 2, offset: 1 })).toBe('f0.txt:2:needle\nf1.txt:1:needle\n\n(Showing lines 2-3 of 14. Pass offset: 3 for the next page.)');
    await write({ 'long.txt': `${'word '.repeat(2000)}\n`.repeat(200) });
    const out = await text({ pattern: 'word', output_mode: 'content', head_limit: 5000, path: 'long.txt' });
    expect(out.length).toBeLessThanOrEqual(GREP_MAX_OUTPUT);
    expect(out).toContain('(output cut; narrow the search or lower head_limit)');
  });

  it('searches hidden files, never version-control folders, and reports a bad pattern or a missing path', async () => {
    await write({ '.hidden.ts': 'needle', '.config/tool.json': 'needle', '.git/config': 'needle', 'sub/.hg/store': 'needle', 'a.ts': 'needle' });
    expect(await text({ pattern: 'needle' })).toBe('Found 3 files\n.config/tool.json\n.hidden.ts\na.ts');
    expect(await text({ pattern: 'needle', glob: '.git/**' })).toBe("No matches for 'needle'.");
    expect(await error({ pattern: '(' })).toMatch(/^Grep '\(' failed: .*regex parse error/s);
    expect(await error({ pattern: 'x', path: 'missing' })).toMatch(/^Grep 'x' in 'missing' failed: rg: missing: .*No such file or directory/);
  });

  describe('attacks inside the backend', () => {
    it.each(['--files', '-e', '--pre=./pre.sh', '-uuu', '--no-ignore'])('a pattern %j is a pattern, never an option', async (pattern) => {
      await write({ 'pre.sh': '#!/bin/sh\necho PWNED\n', 'notes.txt': `option text ${pattern} here\n` });
      await h.shell('chmod +x pre.sh');
      expect(await text({ pattern, output_mode: 'content', path: 'notes.txt' })).toBe(`notes.txt:1:option text ${pattern} here`);
      expect(await text({ pattern: 'PWNED' })).toBe('Found 1 file\npre.sh');
    });

    it.each(['--pre=./pre.sh', '-rf', '--files'])('a glob, type or path %j is never an option', async (word) => {
      await write({ 'a.txt': 'needle\n', 'pre.sh': '#!/bin/sh\necho PWNED\n' });
      await h.shell('chmod +x pre.sh');
      expect(await text({ pattern: 'PWNED', glob: word })).toBe("No matches for 'PWNED'.");
      expect((await h.run('Grep', { pattern: 'needle', type: word })).ok).toBe(false);
      expect(await error({ pattern: 'needle', path: word })).toMatch(/No such file or directory/);
    });

    it.each(['..', '../..', 'src/../../x', '/etc', '/'])('refuses the path %j, which leaves the root', async (path) => {
      await write({ 'src/a.txt': 'root:x:0:0\n' });
      expect(await error({ pattern: 'root', path })).toBe(`Refused: '${path}' is outside the workspace; Grep searches only inside it.`);
    });

    it('refuses links that lead out, never follows them while walking, and searches a link that stays inside as its target', async () => {
      await write({ 'in/a.txt': 'needle inside\n' });
      await h.shell('mkdir -p ../outside && echo needle outside > ../outside/secret.txt && ln -s ../outside out && ln -s /etc etc-link && ln -s in alias && ln -s ../outside/secret.txt file-link');
      for (const path of ['out', 'out/secret.txt', 'etc-link', 'file-link']) {
        expect(await error({ pattern: 'needle', path })).toBe(`Refused: '${path}' is outside the workspace; Grep searches only inside it.`);
      }
      expect(await text({ pattern: 'needle' })).toBe('Found 1 file\nin/a.txt');
      expect(await text({ pattern: 'needle', path: 'alias', output_mode: 'content' })).toBe('in/a.txt:1:needle inside');
    });

    it('leaves credential files out of every search that does not name them, and asks before one that does', async () => {
      await write({ '.env': 'TOKEN=needle\n', '.env.local': 'needle\n', '.ssh/id_rsa': 'needle\n', 'sub/.netrc': 'needle\n', '.aws/credentials': 'needle\n', 'code.ts': 'needle\n' });
      expect(await text({ pattern: 'needle' })).toBe('Found 1 file\ncode.ts');
      expect(await text({ pattern: 'needle', glob: '**/*' })).toBe('Found 1 file\ncode.ts');
      const root = (h.workspace as unknown as { root: string }).root;
      const engine = new PermissionEngine({ mode: PermissionMode.DEFAULT, workingDirectories: [root], cwd: root });
      expect((await engine.check(h.files.grep, { pattern: 'needle', path: '.ssh' })).behavior).toBe('ask');
      expect((await engine.check(h.files.grep, { pattern: 'needle' })).behavior).toBe('allow');
      expect(await text({ pattern: 'TOKEN', glob: '.env' })).toBe('Found 1 file\n.env');
    });
  });

  it('golden: the exact texts the model receives', async () => {
    await write({ 'src/app.ts': 'export const a = 1;\n// TODO: b\nexport const b = 2;\n', 'src/util.ts': 'export const TODO = true;\n', 'README.md': '# demo\nTODO list\n' });
    const session: [Record<string, unknown>, string][] = [
      [{ pattern: 'TODO' }, 'Found 3 files\nREADME.md\nsrc/app.ts\nsrc/util.ts'],
      [{ pattern: 'TODO', output_mode: 'content', path: 'src' }, 'src/app.ts:2:// TODO: b\nsrc/util.ts:1:export const TODO = true;'],
      [{ pattern: 'TODO', output_mode: 'count' }, 'README.md:1\nsrc/app.ts:1\nsrc/util.ts:1\n\n(3 matching lines in 3 files.)'],
      [{ pattern: 'export', output_mode: 'content', context: 1, path: 'src/app.ts' }, 'src/app.ts:1:export const a = 1;\nsrc/app.ts-2-// TODO: b\nsrc/app.ts:3:export const b = 2;'],
      [{ pattern: 'TODO', head_limit: 1 }, 'Found 3 files\nREADME.md\n\n(Showing files 1-1 of 3. Pass offset: 1 for the next page.)'],
      [{ pattern: 'nothing', path: 'src' }, "No matches for 'nothing' in 'src'."],
    ];
    const transcript: string[] = [];
    for (const [args] of session) transcript.push(await text(args));
    expect(transcript).toEqual(session.map(([, golden]) => golden));
    expect(await error({ pattern: 'x', path: '../x' })).toBe("Refused: '../x' is outside the workspace; Grep searches only inside it.");
  });
});
