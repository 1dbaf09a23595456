import { utimesSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { BACKENDS, harness, type Harness } from './harness';

describe.each(BACKENDS)('Glob on $name', (backend) => {
  let h: Harness;
  beforeEach(() => { h = harness(backend); });
  afterEach(() => h.dispose());

  async function touch(path: string, seconds: number): Promise<void> {
    await h.workspace.writeFile(path, path);
    if (h.hostPath !== undefined) utimesSync(join(h.hostPath, path), seconds, seconds);
  }

  it('lists files only, newest first, hidden files included', async () => {
    await touch('src/old.ts', 1_000);
    // Written in age order too, so that a backend without host access (its own write times) gives the same order.
    await touch('src/.hidden.ts', 2_000);
    await touch('src/new.ts', 3_000);
    await h.workspace.writeFile('src/folder.ts/inner.txt', 'x'); // a folder whose name matches
    expect(await h.text('Glob', { pattern: '**/*.ts' })).toBe('src/new.ts\nsrc/.hidden.ts\nsrc/old.ts');
  });

  it('searches inside a folder given as path, glob characters in its name taken literally', async () => {
    await h.workspace.writeFile('app/[id]/page.ts', 'x');
    await h.workspace.writeFile('app/i/page.ts', 'x');
    expect(await h.text('Glob', { pattern: '*.ts', path: 'app/[id]' })).toBe('app/[id]/page.ts');
  });

  it('stops at head_limit with a note', async () => {
    for (let i = 0; i < 5; i++) await touch(`f${i}.txt`, 1_000 + i);
    expect(await h.text('Glob', { pattern: '*.txt', head_limit: 2 })).toBe('f4.txt\nf3.txt\n\n(Showing 2 of 5 files, newest first. Narrow the pattern or raise head_limit.)');
  });

  it('says so when nothing matches (a successful answer, not a failure)', async () => {
    expect(await h.text('Glob', { pattern: '*.rs' })).toBe("No files match '*.rs'.");
    await h.workspace.writeFile('src/a.ts', 'x');
    expect(await h.text('Glob', { pattern: '*.rs', path: 'src' })).toBe("No files match '*.rs' in 'src'.");
  });

  it('leaves links out and refuses patterns that leave the workspace', async () => {
    await h.workspace.writeFile('real.txt', 'x');
    if (h.hostPath !== undefined) symlinkSync('/etc/passwd', join(h.hostPath, 'link.txt'));
    expect(await h.text('Glob', { pattern: '*.txt' })).toBe('real.txt');
    for (const pattern of ['../*', '/etc/*', 'a/../../*']) expect(await h.error('Glob', { pattern })).toContain('Refused');
    expect(await h.error('Glob', { pattern: '*', path: '../..' })).toContain('Refused');
  });
});
