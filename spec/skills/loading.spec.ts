/**
 * How skill folders and SKILL.md files are opened: links that stay inside the root are followed and judged by where
 * the opened folder really is, everything else is refused or skipped with a documented skill error, never a raw one.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkillError, SkillReadError, Skills } from '../../lib/skills';
import { MAX_SKILL_RESOURCES } from '../../lib/skills/resources';
import { cleanup, skillText, tempDir, writeSkill } from './helpers';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const fs = require('node:fs') as typeof import('node:fs');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fsp = require('node:fs/promises') as typeof import('node:fs/promises');

afterEach(() => {
  jest.restoreAllMocks();
  cleanup();
});

const errno = (code: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: refused by the test`), { code });

/** Makes the sync fs call `name` throw `code` for paths matching `pattern` (the library calls through the module). */
function failSync(name: 'openSync' | 'lstatSync' | 'readlinkSync', pattern: RegExp, code: string): void {
  const original = fs[name] as (...args: unknown[]) => unknown;
  jest.spyOn(fs, name).mockImplementation(((...args: unknown[]) => {
    if (pattern.test(String(args[0]))) throw errno(code);
    return original(...args);
  }) as never);
}

describe('SKILL.md as a link', () => {
  it('follows a chain of links inside the root, relative and absolute, and to a file beside the skills', async () => {
    const root = realpathSync(tempDir());
    mkdirSync(join(root, 'shared'));
    writeFileSync(join(root, 'shared', 'a.md'), skillText('a'));
    writeFileSync(join(root, 'top.md'), skillText('b'));
    mkdirSync(join(root, 'a'));
    symlinkSync('../shared/a-link.md', join(root, 'a', 'SKILL.md'));
    symlinkSync(join(root, 'shared', 'a.md'), join(root, 'shared', 'a-link.md'));
    mkdirSync(join(root, 'b'));
    symlinkSync('../top.md', join(root, 'b', 'SKILL.md'));
    const skills = await Skills.fromLocalDir(root);
    expect(skills.list().map((s) => s.name)).toEqual(['a', 'b']);
    expect((await skills.load('a')).instructions).toContain('do a');
  });

  it('resolves `..` after a link as the kernel does, not as text', async () => {
    const root = realpathSync(tempDir());
    mkdirSync(join(root, 'deep', 'inner'), { recursive: true });
    writeFileSync(join(root, 'deep', 'x.md'), skillText('x', { body: 'beside the link target' }));
    writeFileSync(join(root, 'x.md'), skillText('x', { body: 'where text would lead' }));
    symlinkSync('deep/inner', join(root, 'hop'));
    mkdirSync(join(root, 'x'));
    symlinkSync('../hop/../x.md', join(root, 'x', 'SKILL.md'));
    const skills = await Skills.fromLocalDir(root);
    expect((await skills.load('x')).instructions).toBe('beside the link target');
  });

  it.each([
    ['a link to the outside', (root: string, outside: string) => symlinkSync(join(outside, 'SKILL.md'), join(root, 'x', 'SKILL.md'))],
    ['a link through a folder link that leads out', (root: string, outside: string) => {
      symlinkSync(outside, join(root, 'x', 'away'));
      symlinkSync('away/SKILL.md', join(root, 'x', 'SKILL.md'));
    }],
    ['a link to /etc/passwd', (root: string) => symlinkSync('/etc/passwd', join(root, 'x', 'SKILL.md'))],
    ['a link to a file in /', (root: string) => symlinkSync('/SKILL.md', join(root, 'x', 'SKILL.md'))],
  ])('refuses %s, naming the file and where it leads', async (_label, make) => {
    const root = realpathSync(tempDir());
    const outside = realpathSync(tempDir());
    writeFileSync(join(outside, 'SKILL.md'), skillText('x'));
    mkdirSync(join(root, 'x'));
    make(root, outside);
    const error = await Skills.fromLocalDir(root).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SKILL_DISCOVERY', problems: [expect.objectContaining({ code: 'SKILL_OUTSIDE_ROOT', path: join(root, 'x', 'SKILL.md') })] });
  });

  it.each([
    ['dangling', (dir: string) => symlinkSync('nowhere.md', join(dir, 'SKILL.md'))],
    ['dangling through a missing folder', (dir: string) => symlinkSync('missing/SKILL.md', join(dir, 'SKILL.md'))],
    ['a loop', (dir: string) => {
      symlinkSync('other.md', join(dir, 'SKILL.md'));
      symlinkSync('SKILL.md', join(dir, 'other.md'));
    }],
    ['a link to a folder', (dir: string) => symlinkSync('..', join(dir, 'SKILL.md'))],
    ['a link to a folder, with a slash', (dir: string) => symlinkSync('sub/', join(dir, 'SKILL.md'))],
    ['a link to a sub-folder', (dir: string) => symlinkSync('sub', join(dir, 'SKILL.md'))],
    ['a FIFO', (dir: string) => execFileSync('mkfifo', [join(dir, 'SKILL.md')])],
    ['a folder', (dir: string) => mkdirSync(join(dir, 'SKILL.md'))],
  ])('does not count a SKILL.md that is %s as a skill', async (_label, make) => {
    const root = realpathSync(tempDir());
    writeSkill(root, 'ok');
    mkdirSync(join(root, 'x', 'sub'), { recursive: true });
    make(join(root, 'x'));
    const skills = await Skills.fromLocalDir(root);
    expect(skills.list().map((s) => s.name)).toEqual(['ok']);
  });
});

describe('the skill folder', () => {
  it('refuses a folder link to the root itself when the root holds a SKILL.md, and skips it otherwise', async () => {
    const root = realpathSync(tempDir());
    symlinkSync('.', join(root, 'x'));
    expect((await Skills.fromLocalDir(root)).size).toBe(0);
    writeFileSync(join(root, 'SKILL.md'), skillText('x'));
    await expect(Skills.fromLocalDir(root)).rejects.toMatchObject({ problems: [expect.objectContaining({ code: 'SKILL_OUTSIDE_ROOT', realPath: root })] });
  });

  it.each([
    ['a loop', (root: string) => symlinkSync('x', join(root, 'x'))],
    ['a link to a file', (root: string) => {
      writeFileSync(join(root, 'file.md'), 'x');
      symlinkSync('file.md', join(root, 'x'));
    }],
    ['a link to a FIFO', (root: string) => {
      execFileSync('mkfifo', [join(root, 'pipe')]);
      symlinkSync('pipe', join(root, 'x'));
    }],
    ['a FIFO', (root: string) => execFileSync('mkfifo', [join(root, 'x')])],
  ])('skips a folder entry that is %s', async (_label, make) => {
    const root = realpathSync(tempDir());
    writeSkill(root, 'ok');
    make(root);
    expect((await Skills.fromLocalDir(root)).list().map((s) => s.name)).toEqual(['ok']);
  });
});

describe('the system refuses', () => {
  it('skips a skill folder that cannot be opened at discovery, and says why on load', async () => {
    const root = realpathSync(tempDir());
    writeSkill(root, 'ok');
    writeSkill(root, 'locked');
    const skills = await Skills.fromLocalDir(root);
    failSync('openSync', /\/locked$/, 'EACCES');
    await expect(skills.load('locked')).rejects.toMatchObject({ code: 'SKILL_NOT_FOUND', message: expect.stringContaining('cannot be opened (EACCES)') });
    await skills.refresh();
    expect(skills.list().map((s) => s.name)).toEqual(['ok']);
  });

  it('skips a skill folder that may not be searched', async () => {
    const root = realpathSync(tempDir());
    writeSkill(root, 'locked');
    const skills = await Skills.fromLocalDir(root);
    failSync('lstatSync', /SKILL\.md$/, 'EACCES');
    await expect(skills.load('locked')).rejects.toMatchObject({ code: 'SKILL_NOT_FOUND', message: expect.stringContaining('cannot be examined (EACCES)') });
  });

  it('reports a SKILL.md that cannot be read as SKILL_UNREADABLE, at discovery and on load', async () => {
    const root = realpathSync(tempDir());
    writeSkill(root, 'locked');
    const skills = await Skills.fromLocalDir(root);
    failSync('openSync', /SKILL\.md$/, 'EACCES');
    await expect(skills.load('locked')).rejects.toMatchObject({ code: 'SKILL_UNREADABLE', errno: 'EACCES', path: join(root, 'locked', 'SKILL.md') });
    const error = await skills.refresh().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SKILL_DISCOVERY', problems: [expect.objectContaining({ code: 'SKILL_UNREADABLE' })] });
    expect(skills.list().map((s) => s.name)).toEqual(['locked']);
  });

  it('reports any other refusal to open a folder as SKILL_UNREADABLE', async () => {
    const root = realpathSync(tempDir());
    writeSkill(root, 'x');
    const skills = await Skills.fromLocalDir(root);
    failSync('openSync', /\/x$/, 'EIO');
    await expect(skills.load('x')).rejects.toMatchObject({ code: 'SKILL_UNREADABLE', errno: 'EIO' });
  });

  it('reports a link that stopped being one while it was read as SKILL_CHANGED', async () => {
    const root = realpathSync(tempDir());
    mkdirSync(join(root, 'x'));
    writeFileSync(join(root, 'x.md'), skillText('x'));
    symlinkSync('../x.md', join(root, 'x', 'SKILL.md'));
    const skills = await Skills.fromLocalDir(root);
    failSync('readlinkSync', /SKILL\.md$/, 'EINVAL');
    await expect(skills.load('x')).rejects.toMatchObject({ code: 'SKILL_CHANGED' });
  });

  it('reports a link whose target folder cannot be opened as SKILL_UNREADABLE', async () => {
    const root = realpathSync(tempDir());
    mkdirSync(join(root, 'x'));
    mkdirSync(join(root, 'store'));
    writeFileSync(join(root, 'store', 'x.md'), skillText('x'));
    symlinkSync('../store/x.md', join(root, 'x', 'SKILL.md'));
    const skills = await Skills.fromLocalDir(root);
    failSync('openSync', /\/store$/, 'EMFILE');
    await expect(skills.load('x')).rejects.toMatchObject({ code: 'SKILL_UNREADABLE', errno: 'EMFILE' });
  });

  it('lets no raw error out of load(), even when the file system throws where it never should', async () => {
    const root = realpathSync(tempDir());
    writeSkill(root, 'x');
    const skills = await Skills.fromLocalDir(root);
    jest.spyOn(fsp, 'readdir').mockImplementation(() => {
      throw new TypeError('unexpected');
    });
    const error = await skills.load('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillReadError);
    expect(error).toMatchObject({ code: 'SKILL_UNREADABLE', errno: undefined, message: expect.stringContaining('(unexpected)') });
  });

  it('describes causes without a code or message', () => {
    expect(new SkillReadError('/p', 'plain text').message).toContain('(plain text)');
    expect(new SkillReadError('/p', null)).toMatchObject({ errno: undefined });
  });
});

describe('resources', () => {
  it('skips a sub-folder that cannot be opened', async () => {
    const root = realpathSync(tempDir());
    writeSkill(root, 'x');
    writeFileSync(join(root, 'x', 'top.txt'), '');
    mkdirSync(join(root, 'x', 'locked'));
    writeFileSync(join(root, 'x', 'locked', 'inner.txt'), '');
    const skills = await Skills.fromLocalDir(root);
    const open = fsp.open;
    jest.spyOn(fsp, 'open').mockImplementation(async (...args: Parameters<typeof fsp.open>) => {
      if (String(args[0]).endsWith('/locked')) throw errno('EACCES');
      return open(...args);
    });
    expect((await skills.load('x')).resources).toEqual(['top.txt']);
  });

  it(`lists at most ${MAX_SKILL_RESOURCES} resources`, async () => {
    // On tmpfs when there is one: creating 10,000 files on some disks takes seconds.
    const root = realpathSync(existsSync('/dev/shm') ? tempDir('skills-many-', '/dev/shm') : tempDir());
    writeSkill(root, 'x');
    mkdirSync(join(root, 'x', 'many'));
    execFileSync('sh', ['-c', `seq ${MAX_SKILL_RESOURCES + 5} | sed 's/^/f/' | xargs touch`], { cwd: join(root, 'x', 'many') });
    const skills = await Skills.fromLocalDir(root);
    expect((await skills.load('x')).resources).toHaveLength(MAX_SKILL_RESOURCES);
  });

  it('every error thrown is a skill error', async () => {
    const root = realpathSync(tempDir());
    const skills = await Skills.fromLocalDir(root);
    await expect(skills.load('nope')).rejects.toBeInstanceOf(SkillError);
  });
});
