import { BACKENDS, harness, type Harness } from './harness';

describe.each(BACKENDS)('Edit on $name', (backend) => {
  let h: Harness;
  beforeEach(() => { h = harness(backend); });
  afterEach(() => h.dispose());

  async function readFirst(path: string, content: string): Promise<void> {
    await h.workspace.writeFile(path, content);
    await h.text('Read', { file_path: path });
  }

  it('replaces one exact occurrence and keeps the rest byte for byte', async () => {
    await readFirst('a.ts', 'const a = 1;\r\nconst b = 2;\n');
    expect(await h.text('Edit', { file_path: 'a.ts', old_string: 'b = 2', new_string: 'b = $&3' })).toBe("Edited 'a.ts': 1 replacement.");
    expect(await h.workspace.readFile('a.ts')).toBe('const a = 1;\r\nconst b = $&3;\n');
  });

  it('refuses several occurrences unless replace_all, then replaces them all', async () => {
    await readFirst('a.txt', 'x x x');
    expect(await h.error('Edit', { file_path: 'a.txt', old_string: 'x', new_string: 'y' })).toContain('occurs 3 times');
    expect(await h.workspace.readFile('a.txt')).toBe('x x x');
    expect(await h.text('Edit', { file_path: 'a.txt', old_string: 'x', new_string: 'y', replace_all: true })).toBe("Edited 'a.txt': 3 replacements.");
    expect(await h.workspace.readFile('a.txt')).toBe('y y y');
  });

  it('refuses missing old text, empty old text and identical strings', async () => {
    await readFirst('a.txt', 'hello');
    expect(await h.error('Edit', { file_path: 'a.txt', old_string: 'bye', new_string: 'x' })).toContain('was not found');
    expect(await h.error('Edit', { file_path: 'a.txt', old_string: '', new_string: 'x' })).toContain('old_string is empty');
    expect(await h.error('Edit', { file_path: 'a.txt', old_string: 'hello', new_string: 'hello' })).toContain('identical');
    expect(await h.workspace.readFile('a.txt')).toBe('hello');
  });

  it('refuses a file never read, one changed since it was read, a missing file and a folder', async () => {
    await h.workspace.writeFile('unread.txt', 'a');
    expect(await h.error('Edit', { file_path: 'unread.txt', old_string: 'a', new_string: 'b' })).toContain('has not been read');
    await readFirst('changed.txt', 'a');
    await h.workspace.writeFile('changed.txt', 'a2');
    expect(await h.error('Edit', { file_path: 'changed.txt', old_string: 'a', new_string: 'b' })).toContain('has changed on disk');
    expect(await h.workspace.readFile('changed.txt')).toBe('a2');
    expect(await h.error('Edit', { file_path: 'missing.txt', old_string: 'a', new_string: 'b' })).toContain('Use Write to create');
    await h.workspace.writeFile('dir/x', '1');
    expect(await h.error('Edit', { file_path: 'dir', old_string: 'a', new_string: 'b' })).toContain('is a directory');
    expect(await h.error('Edit', { file_path: '../x', old_string: 'a', new_string: 'b' })).toContain('Refused');
  });

  it('chains edits without a new read, and a Write after an Edit needs none either', async () => {
    await readFirst('a.txt', 'one two');
    await h.text('Edit', { file_path: 'a.txt', old_string: 'one', new_string: '1' });
    await h.text('Edit', { file_path: 'a.txt', old_string: 'two', new_string: '2' });
    expect(await h.workspace.readFile('a.txt')).toBe('1 2');
    expect(await h.text('Write', { file_path: 'a.txt', content: 'done' })).toContain('Wrote');
  });

  it('a change made between the check and the edit is not vouched for afterwards', async () => {
    await readFirst('a.txt', 'one two');
    const original = h.workspace.editFile.bind(h.workspace);
    let interleaved = 0;
    h.workspace.editFile = async (path, oldText, newText, options) => {
      await h.workspace.writeFile(path, 'one two three'); interleaved++;
      return original(path, oldText, newText, options);
    };
    await h.text('Edit', { file_path: 'a.txt', old_string: 'one', new_string: '1' });
    expect(interleaved).toBe(1);
    // The tool recorded what it expected ('1 two'), the disk holds '1 two three': the next change must re-read.
    expect(await h.error('Edit', { file_path: 'a.txt', old_string: 'two', new_string: '2' })).toContain('has changed on disk');
  });
});
