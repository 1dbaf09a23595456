import { writeFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_STATE, ToolContext, Tools } from '../../../lib';
import { BACKENDS, harness, type Harness } from './harness';

describe.each(BACKENDS)('Write on $name', (backend) => {
  let h: Harness;
  beforeEach(() => { h = harness(backend); });
  afterEach(() => h.dispose());

  it('creates a new file and its folders without a read', async () => {
    expect(await h.text('Write', { file_path: 'src/deep/new.ts', content: 'a\nb\n' })).toBe("Created 'src/deep/new.ts' (2 lines).");
    expect(await h.workspace.readFile('src/deep/new.ts')).toBe('a\nb\n');
    expect(await h.text('Write', { file_path: 'one.txt', content: 'x' })).toBe("Created 'one.txt' (1 line).");
  });

  it('refuses to overwrite a file that was never read, and leaves it untouched', async () => {
    await h.workspace.writeFile('keep.txt', 'original');
    expect(await h.error('Write', { file_path: 'keep.txt', content: 'clobbered' }))
      .toBe("'keep.txt' exists and has not been read in this conversation. Read it first, then change it.");
    expect(await h.workspace.readFile('keep.txt')).toBe('original');
  });

  it('overwrites after a read, and again after its own write without a new read', async () => {
    await h.workspace.writeFile('f.txt', 'v1');
    await h.text('Read', { file_path: 'f.txt' });
    expect(await h.text('Write', { file_path: 'f.txt', content: 'v2\n' })).toBe("Wrote 'f.txt' (1 line), replacing its previous content.");
    expect(await h.text('Write', { file_path: 'f.txt', content: 'v3' })).toContain('Wrote');
    expect(await h.workspace.readFile('f.txt')).toBe('v3');
  });

  it('refuses when the file changed on disk since it was read, even with the same size and mtime', async () => {
    await h.workspace.writeFile('f.txt', 'aaaa');
    await h.text('Read', { file_path: 'f.txt' });
    const before = await h.workspace.stat('f.txt');
    await h.workspace.writeFile('f.txt', 'bbbb'); // someone else's change, same size
    if (h.hostPath !== undefined) {
      const seconds = before!.modifiedMs / 1000;
      utimesSync(join(h.hostPath, 'f.txt'), seconds, seconds); // and the old mtime put back
    }
    expect(await h.error('Write', { file_path: 'f.txt', content: 'mine' })).toContain('has changed on disk since it was read');
    expect(await h.workspace.readFile('f.txt')).toBe('bbbb');
    // Reading again clears the way.
    await h.text('Read', { file_path: 'f.txt' });
    expect(await h.text('Write', { file_path: 'f.txt', content: 'mine' })).toContain('Wrote');
  });

  it('accepts a file touched (mtime changed) but not changed in content', async () => {
    if (h.hostPath === undefined) return;
    await h.workspace.writeFile('t.txt', 'same');
    await h.text('Read', { file_path: 't.txt' });
    utimesSync(join(h.hostPath, 't.txt'), 1, 1);
    expect(await h.text('Write', { file_path: 't.txt', content: 'new' })).toContain('Wrote');
  });

  it('a read under one spelling counts for the same canonical path under another', async () => {
    await h.workspace.writeFile('src/a.txt', 'x');
    await h.text('Read', { file_path: './src/../src/a.txt' });
    expect(await h.text('Write', { file_path: 'src/a.txt', content: 'y' })).toContain('Wrote');
  });

  it('read records are per agent state: another conversation over the same workspace must read first', async () => {
    await h.workspace.writeFile('f.txt', 'v1');
    await h.text('Read', { file_path: 'f.txt' });
    const other = new Tools({ context: new ToolContext().provide(AGENT_STATE, {}) }).register(h.files.read, h.files.write);
    const result = await other.execute('Write', { file_path: 'f.txt', content: 'x' });
    expect(result.error).toContain('has not been read');
    expect(await h.text('Write', { file_path: 'f.txt', content: 'x' })).toContain('Wrote');
  });

  it('fails for a folder, a path outside the workspace, and a file created meanwhile by someone else', async () => {
    await h.workspace.writeFile('dir/f', 'x');
    expect(await h.error('Write', { file_path: 'dir', content: 'x' })).toContain('not a regular file');
    expect(await h.error('Write', { file_path: '../escape.txt', content: 'x' })).toContain('Refused');
    expect(await h.error('Write', { file_path: '/tmp/escape.txt', content: 'x' })).toContain('Refused');
  });

  it('refuses a file that appears between its check and its creation (exclusive create)', async () => {
    if (h.hostPath === undefined) return;
    const host = h.hostPath;
    const original = h.workspace.stat.bind(h.workspace);
    let raced = 0;
    // Force the race deterministically: the file appears right after the tool saw it missing.
    h.workspace.stat = async (path: string) => {
      const entry = await original(path);
      if (path === 'race.txt' && entry === null) { writeFileSync(join(host, 'race.txt'), 'theirs'); raced++; }
      return entry;
    };
    expect(await h.error('Write', { file_path: 'race.txt', content: 'mine' })).toContain('was created by someone else');
    expect(raced).toBe(1);
    expect(await h.workspace.readFile('race.txt')).toBe('theirs');
  });
});
