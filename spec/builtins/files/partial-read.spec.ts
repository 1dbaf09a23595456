/**
 * Write after a partial read: Write replaces a whole file, so it needs every line of the current content read whole
 * (one Read or several, offset by offset); Edit, which replaces only the text it names, may follow a partial read.
 */
import { BACKENDS, harness, type Harness } from './harness';

const lines = (n: number, width = 3) => Array.from({ length: n }, (_, i) => `line ${String(i + 1).padStart(width, '0')}`).join('\n') + '\n';

describe.each(BACKENDS)('Write after a partial Read on $name', (backend) => {
  let h: Harness;
  beforeEach(() => { h = harness(backend); });
  afterEach(() => h.dispose());

  it('refuses after a Read of 5 lines of 168, naming the first unseen line and the way out; Edit may follow', async () => {
    await h.workspace.writeFile('big.txt', lines(168));
    await h.text('Read', { file_path: 'big.txt', limit: 5 });
    const error = await h.error('Write', { file_path: 'big.txt', content: 'all new\n' });
    expect(error).toBe("'big.txt' has been read only in part (line 6 of its 168 lines was not shown whole), and Write replaces the whole file. Read all of it first (Read with offset for the lines not yet shown), or change only the part you read with Edit.");
    expect(await h.workspace.readFile('big.txt')).toBe(lines(168));
    expect(await h.text('Edit', { file_path: 'big.txt', old_string: 'line 003', new_string: 'line three' })).toBe("Edited 'big.txt': 1 replacement.");
    // The tool's own edit leaves content the agent has not seen whole either: Write still needs the rest read.
    expect(await h.error('Write', { file_path: 'big.txt', content: 'x' })).toContain('read only in part');
  });

  it('an offset read that skips the start is partial; reads that together cover the file allow Write', async () => {
    await h.workspace.writeFile('f.txt', lines(30));
    await h.text('Read', { file_path: 'f.txt', offset: 11 });
    expect(await h.error('Write', { file_path: 'f.txt', content: 'x' })).toContain('line 1 of its 30 lines');
    await h.text('Read', { file_path: 'f.txt', limit: 5 });
    expect(await h.error('Write', { file_path: 'f.txt', content: 'x' })).toContain('line 6 of its 30 lines');
    await h.text('Read', { file_path: 'f.txt', offset: 6, limit: 5 });
    expect(await h.text('Write', { file_path: 'f.txt', content: 'x' })).toContain('Wrote');
  });

  it('a file longer than one Read is written after paging through it', async () => {
    await h.workspace.writeFile('long.txt', lines(2500, 4));
    const first = await h.text('Read', { file_path: 'long.txt' });
    expect(first).toContain('Read again with offset 2001');
    expect(await h.error('Write', { file_path: 'long.txt', content: 'x' })).toContain('line 2001 of its 2500 lines');
    await h.text('Read', { file_path: 'long.txt', offset: 2001 });
    expect(await h.text('Write', { file_path: 'long.txt', content: 'x' })).toContain('Wrote');
  });

  it('a line Read cut for length was not seen whole: Write refuses, Edit does not', async () => {
    await h.workspace.writeFile('wide.txt', `short\n${'w'.repeat(2500)}\nend\n`);
    expect(await h.text('Read', { file_path: 'wide.txt' })).toContain('[line cut: 2500 characters]');
    expect(await h.error('Write', { file_path: 'wide.txt', content: 'x' })).toContain('line 2 of its 3 lines');
    expect(await h.text('Edit', { file_path: 'wide.txt', old_string: 'end', new_string: 'END' })).toContain('Edited');
  });

  it('pages of an older content do not count once the file changed and was read again', async () => {
    await h.workspace.writeFile('c.txt', lines(10));
    await h.text('Read', { file_path: 'c.txt', limit: 5 });
    await h.workspace.writeFile('c.txt', lines(12));
    expect(await h.error('Write', { file_path: 'c.txt', content: 'x' })).toContain('has changed on disk');
    await h.text('Read', { file_path: 'c.txt', offset: 6 });
    expect(await h.error('Write', { file_path: 'c.txt', content: 'x' })).toContain('line 1 of its 12 lines');
  });

  it('a whole read, and the content the tool wrote itself, allow Write', async () => {
    await h.workspace.writeFile('w.txt', lines(3));
    await h.text('Read', { file_path: 'w.txt' });
    expect(await h.text('Write', { file_path: 'w.txt', content: 'a\nb\n' })).toContain('Wrote');
    expect(await h.text('Write', { file_path: 'w.txt', content: 'c\n' })).toContain('Wrote');
    await h.workspace.writeFile('e.txt', '');
    await h.text('Read', { file_path: 'e.txt' });
    expect(await h.text('Write', { file_path: 'e.txt', content: 'z' })).toContain('Wrote');
  });
});
