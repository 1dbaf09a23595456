import { BACKENDS, harness, type Harness } from './harness';

describe.each(BACKENDS)('Read on $name', (backend) => {
  let h: Harness;
  beforeEach(() => { h = harness(backend); });
  afterEach(() => h.dispose());

  it('numbers lines as cat -n does (right-aligned number, tab), without a line for the final newline', async () => {
    await h.workspace.writeFile('a.txt', 'alpha\nbeta\n');
    expect(await h.text('Read', { file_path: 'a.txt' })).toBe('     1\talpha\n     2\tbeta');
  });

  it('shows the window offset..offset+limit-1 and says how to continue', async () => {
    await h.workspace.writeFile('n.txt', Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n'));
    const out = await h.text('Read', { file_path: 'n.txt', offset: 3, limit: 2 });
    expect(out).toBe('     3\tline 3\n     4\tline 4\n\n(Showing lines 3-4 of 10. Read again with offset 5 for more.)');
    expect(await h.text('Read', { file_path: 'n.txt', offset: 10 })).toBe('    10\tline 10');
  });

  it('reports an offset past the end and an empty file without failing', async () => {
    await h.workspace.writeFile('one.txt', 'x');
    await h.workspace.writeFile('empty.txt', '');
    expect(await h.text('Read', { file_path: 'one.txt', offset: 5 })).toBe("(The file 'one.txt' has 1 line; offset 5 is past its end.)");
    expect(await h.text('Read', { file_path: 'empty.txt' })).toBe("(The file 'empty.txt' is empty.)");
    await h.workspace.writeFile('two.txt', 'a\nb');
    expect(await h.text('Read', { file_path: 'two.txt', offset: 3 })).toContain('has 2 lines');
  });

  it('caps the default window at 2000 lines', async () => {
    await h.workspace.writeFile('big.txt', 'x\n'.repeat(2500));
    const out = await h.text('Read', { file_path: 'big.txt' });
    expect(out.split('\n').filter((l) => /^\s+\d+\t/.test(l))).toHaveLength(2000);
    expect(out).toContain('(Showing lines 1-2000 of 2500. Read again with offset 2001 for more.)');
  });

  it('cuts a long line at 2000 characters with a marker, never splitting a surrogate pair', async () => {
    const long = 'a'.repeat(1960) + '😀'.repeat(100);
    await h.workspace.writeFile('long.txt', long);
    const line = (await h.text('Read', { file_path: 'long.txt' })).split('\t')[1]!;
    expect(line.length).toBeLessThanOrEqual(2000);
    expect(line).toMatch(/ \.\.\. \[line cut: 2160 characters\]$/);
    expect(line.isWellFormed()).toBe(true);
  });

  it('strips a CR before the newline and keeps other whitespace', async () => {
    await h.workspace.writeFile('crlf.txt', 'a\r\n\tb \r\n');
    expect(await h.text('Read', { file_path: 'crlf.txt' })).toBe('     1\ta\n     2\t\tb ');
  });

  it('accepts an absolute path inside the root and a path with .. that stays inside', async () => {
    await h.workspace.writeFile('src/x.ts', 'x');
    const root = (h.workspace as unknown as { root: string }).root;
    expect(await h.text('Read', { file_path: `${root}/src/x.ts` })).toBe('     1\tx');
    expect(await h.text('Read', { file_path: 'src/../src/x.ts' })).toBe('     1\tx');
  });

  it('fails, never throws, for a missing file, a folder, binary data and paths outside the workspace', async () => {
    await h.workspace.writeBytes('bin.dat', new Uint8Array([0xff, 0xfe, 0x00]));
    await h.workspace.writeFile('dir/f', 'x');
    expect(await h.error('Read', { file_path: 'nope.txt' })).toContain('does not exist');
    expect(await h.error('Read', { file_path: 'dir' })).toContain('not a regular file');
    expect(await h.error('Read', { file_path: 'bin.dat' })).toContain('not UTF-8 text');
    for (const outside of ['../outside.txt', '/etc/passwd', 'a/../../x']) {
      expect(await h.error('Read', { file_path: outside })).toContain('Refused');
    }
  });

  it('rejects a limit over 2000 and an offset below 1 at validation', async () => {
    await h.workspace.writeFile('a.txt', 'a');
    expect(await h.error('Read', { file_path: 'a.txt', limit: 2001 })).toContain('limit');
    expect(await h.error('Read', { file_path: 'a.txt', offset: 0 })).toContain('offset');
  });
});
