import { execFileSync } from 'node:child_process';
import { accessSync, closeSync, constants, ftruncateSync, mkdirSync, openSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { PermissionBehavior, PermissionEngine, pathMatchesRule } from '../../lib/permissions';
import { foldsCase } from '../../lib/permissions/case-folding';
import { isCI } from '../../scripts/ci-flag';
import { file, read, scratch, write } from './fixtures';
import { skippedTitle } from '../support/skip-reason';

const { ALLOW, DENY, ASK } = PermissionBehavior;


function which(command: string): string | undefined {
  for (const dir of ['/usr/sbin', '/usr/bin', '/sbin', '/bin']) {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return join(dir, command);
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** Why a real FAT mount cannot be made here, or undefined when it can (root, /dev/fuse, mkfs.vfat, fusefat). */
function fatMissing(): string | undefined {
  if (process.getuid?.() !== 0) return 'mounting a FAT image needs root';
  try {
    accessSync('/dev/fuse', constants.R_OK | constants.W_OK);
  } catch {
    return '/dev/fuse is not available';
  }
  if (which('mkfs.vfat') === undefined) return 'mkfs.vfat is missing: apt-get install -y dosfstools';
  if (which('fusefat') === undefined) return 'fusefat is missing: apt-get install -y fusefat';
  return undefined;
}

/**
 * A real case-insensitive file system: a FAT image made with mkfs.vfat and mounted through FUSE (fusefat), since
 * kernels without the vfat module (containers, CI runners) still offer FUSE. The kernel's own vfat mount
 * (`mount -o loop`) behaves the same for these tests.
 */
function describeOnFat(name: string, body: (mount: () => string) => void): void {
  const missing = fatMissing();
  if (missing !== undefined) {
    if (isCI()) {
      describe(name, () => it('needs a real FAT mount (required in CI)', () => expect(missing).toBeUndefined()));
    } else {
      describe.skip(skippedTitle(name, missing), () => body(() => ''));
    }
    return;
  }
  describe(name, () => {
    const dir = scratch('fat');
    const image = join(dir, 'fat.img');
    const mnt = join(dir, 'mnt');
    beforeAll(() => {
      mkdirSync(mnt);
      const fd = openSync(image, 'w');
      ftruncateSync(fd, 8 * 1024 * 1024);
      closeSync(fd);
      execFileSync(which('mkfs.vfat')!, [image], { stdio: 'ignore' });
      execFileSync(which('fusefat')!, ['-o', 'rw+', image, mnt], { stdio: 'ignore' });
      file(join(mnt, 'secret', 'key'), 'k');
      mkdirSync(join(mnt, 'proj'));
    });
    afterAll(() => {
      execFileSync('umount', [mnt], { stdio: 'ignore' });
    });
    body(() => mnt);
  });
}

describeOnFat('deny rules on a real case-insensitive mount (FAT)', (mount) => {
  it('the mount really ignores case', () => {
    const mnt = mount();
    expect(execFileSync('cat', [join(mnt, 'SECRET', 'KEY')], { encoding: 'utf8' })).toBe('k');
    expect(foldsCase(join(mnt, 'SECRET', 'KEY'))).toBe(true);
    expect(foldsCase(join(mnt, 'proj', 'new-file'))).toBe(true); // the folder's entries tell, for a file to come
  });

  it('a deny rule on secret/** also denies SECRET/key, Secret/KEY, and new files there', async () => {
    const mnt = mount();
    const engine = new PermissionEngine({ cwd: mnt, caseInsensitive: false, settings: { deny: ['read(secret/**)', 'write(secret/**)'], ask: ['read(PROJ/**)'] } });
    for (const path of ['SECRET/key', 'Secret/KEY', 'secret/key', `${mnt}/sEcReT/Key`, 'SECRET', 'proj/../SECRET/key']) {
      expect([path, (await engine.check(read, { path })).behavior]).toEqual([path, DENY]);
    }
    expect((await engine.check(write, { path: 'SECRET/new.txt' })).behavior).toBe(DENY);
    // ask rules widen the same way
    expect((await engine.check(read, { path: 'proj/x' })).behavior).toBe(ASK);
    expect((await engine.check(read, { path: 'other' })).behavior).toBe(ALLOW);
  });

  it('allow rules stay exact unless the context says the file system ignores case', async () => {
    const mnt = mount();
    const exact = new PermissionEngine({ cwd: mnt, caseInsensitive: false, settings: { allow: ['write(proj/**)'] } });
    expect((await exact.check(write, { path: 'proj/a' })).behavior).toBe(ALLOW);
    expect((await exact.check(write, { path: 'PROJ/a' })).behavior).toBe(ASK);
    const folding = new PermissionEngine({ cwd: mnt, caseInsensitive: true, settings: { allow: ['write(proj/**)'] } });
    expect((await folding.check(write, { path: 'PROJ/a' })).behavior).toBe(ALLOW);
  });

  it('a link from a case-sensitive folder into the mount is judged by the mount', async () => {
    const mnt = mount();
    const wd = scratch('fat-link');
    symlinkSync(mnt, join(wd, 'fat'));
    const engine = new PermissionEngine({ cwd: wd, caseInsensitive: false, settings: { deny: [`read(${mnt}/secret/**)`] } });
    expect((await engine.check(read, { path: 'fat/SECRET/key' })).behavior).toBe(DENY);
  });
});

describe('case on case-sensitive file systems and the platform switch', () => {
  const wd = scratch('case');
  file(join(wd, 'secret', 'key'));
  file(join(wd, 'SECRET', 'key'));
  file(join(wd, 'Other', 'x'));

  it('a case-sensitive file system is not taken for a case-insensitive one', () => {
    expect(foldsCase(join(wd, 'secret', 'key'))).toBe(false);
    expect(foldsCase(join(wd, 'SECRET', 'key'))).toBe(false);
    expect(foldsCase(join(wd, 'Other', 'new'))).toBe(false);
  });

  it('there, secret/** and SECRET/** are different folders', async () => {
    const engine = new PermissionEngine({ cwd: wd, caseInsensitive: false, settings: { deny: ['read(secret/**)'] } });
    expect((await engine.check(read, { path: 'secret/key' })).behavior).toBe(DENY);
    expect((await engine.check(read, { path: 'SECRET/key' })).behavior).toBe(ALLOW);
  });

  it('caseInsensitive on the context makes every rule ignore case', async () => {
    const engine = new PermissionEngine({ cwd: wd, caseInsensitive: true, settings: { deny: ['read(secret/**)'], allow: ['write(other/**)'] } });
    expect((await engine.check(read, { path: 'SECRET/key' })).behavior).toBe(DENY);
    expect((await engine.check(write, { path: 'Other/x' })).behavior).toBe(ALLOW);
    expect(pathMatchesRule('Ä/**', '/p/ä/x', { cwd: '/p', caseInsensitive: true })).toBe(true);
  });
});
