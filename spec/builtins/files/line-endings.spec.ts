/**
 * Edit on files with Windows (CRLF), old Mac (CR) and mixed line endings: Read shows lines without their endings,
 * Edit takes the text as Read shows it, matches any line break against the file's and writes the replacement with
 * the file's own breaks.
 */
import { BACKENDS, harness, type Harness } from './harness';

describe.each(BACKENDS)('line endings in Read and Edit on $name', (backend) => {
  let h: Harness;
  beforeEach(() => { h = harness(backend); });
  afterEach(() => h.dispose());

  async function readFirst(path: string, content: string): Promise<string> {
    await h.workspace.writeFile(path, content);
    return h.text('Read', { file_path: path });
  }

  it.each([
    ['CRLF', '\r\n'],
    ['CR-only', '\r'],
    ['LF', '\n'],
  ])('%s: Read shows the lines without endings; Edit with the text as shown, spanning lines, keeps the endings', async (_label, eol) => {
    const shown = await readFirst('a.txt', ['alpha', 'beta', 'gamma', ''].join(eol));
    expect(shown).toBe('     1\talpha\n     2\tbeta\n     3\tgamma');
    expect(await h.text('Edit', { file_path: 'a.txt', old_string: 'alpha\nbeta', new_string: 'ALPHA\nBETA\nnew' })).toBe("Edited 'a.txt': 1 replacement.");
    expect(await h.workspace.readFile('a.txt')).toBe(['ALPHA', 'BETA', 'new', 'gamma', ''].join(eol));
    // Within one line, and a new_string whose breaks the model wrote as \r\n.
    expect(await h.text('Edit', { file_path: 'a.txt', old_string: 'gamma', new_string: 'g1\r\ng2' })).toBe("Edited 'a.txt': 1 replacement.");
    expect(await h.workspace.readFile('a.txt')).toBe(['ALPHA', 'BETA', 'new', 'g1', 'g2', ''].join(eol));
    // The next edit needs no new read: what the tool recorded is what the disk holds.
    expect(await h.text('Edit', { file_path: 'a.txt', old_string: 'new\ng1', new_string: 'n' })).toBe("Edited 'a.txt': 1 replacement.");
    expect(await h.workspace.readFile('a.txt')).toBe(['ALPHA', 'BETA', 'n', 'g2', ''].join(eol));
  });

  it('mixed endings: each match keeps its own break', async () => {
    await readFirst('m.txt', 'a\r\nb\nc\rd\r\nx\r\nb\n');
    expect(await h.text('Edit', { file_path: 'm.txt', old_string: 'b\nc', new_string: 'B\nC' })).toBe("Edited 'm.txt': 1 replacement.");
    expect(await h.workspace.readFile('m.txt')).toBe('a\r\nB\nC\rd\r\nx\r\nb\n');
    expect(await h.text('Edit', { file_path: 'm.txt', old_string: '\nb', new_string: '\nq' })).toBe("Edited 'm.txt': 1 replacement.");
    expect(await h.workspace.readFile('m.txt')).toBe('a\r\nB\nC\rd\r\nx\r\nq\n');
  });

  it('replace_all over occurrences with different endings replaces each with its own', async () => {
    await readFirst('r.txt', 'k\r\nv\nk\nv\r\nk\r\nv\r\n');
    expect(await h.error('Edit', { file_path: 'r.txt', old_string: 'k\nv', new_string: 'K\nV' })).toContain('occurs 3 times');
    expect(await h.text('Edit', { file_path: 'r.txt', old_string: 'k\nv', new_string: 'K\nV', replace_all: true })).toBe("Edited 'r.txt': 3 replacements.");
    expect(await h.workspace.readFile('r.txt')).toBe('K\r\nV\nK\nV\r\nK\r\nV\r\n');
  });

  it('joining two lines removes the whole CRLF break, never leaving a lone \\r', async () => {
    await readFirst('j.txt', 'one\r\ntwo\r\n');
    expect(await h.text('Edit', { file_path: 'j.txt', old_string: 'one\ntwo', new_string: 'one two' })).toBe("Edited 'j.txt': 1 replacement.");
    expect(await h.workspace.readFile('j.txt')).toBe('one two\r\n');
    await readFirst('k.txt', 'p\r\nq\r\n');
    expect(await h.text('Edit', { file_path: 'k.txt', old_string: '\nq', new_string: ' q' })).toBe("Edited 'k.txt': 1 replacement.");
    expect(await h.workspace.readFile('k.txt')).toBe('p q\r\n');
  });

  it('a blank line in old_string is two breaks, never the \\r and \\n of one CRLF', async () => {
    await readFirst('b.txt', 'x\r\ny\r\n\r\nz\r\n');
    expect(await h.error('Edit', { file_path: 'b.txt', old_string: 'x\n\ny', new_string: 'w' })).toContain('was not found');
    expect(await h.text('Edit', { file_path: 'b.txt', old_string: 'y\n\nz', new_string: 'y\nz' })).toBe("Edited 'b.txt': 1 replacement.");
    expect(await h.workspace.readFile('b.txt')).toBe('x\r\ny\r\nz\r\n');
  });

  it('text without line breaks in a CRLF file, and regular-expression characters, match literally', async () => {
    await readFirst('s.txt', 'a.b (c)* $1\r\nabc\r\n');
    expect(await h.text('Edit', { file_path: 's.txt', old_string: 'a.b (c)* $1', new_string: '$&' })).toBe("Edited 's.txt': 1 replacement.");
    expect(await h.workspace.readFile('s.txt')).toBe('$&\r\nabc\r\n');
  });
});
