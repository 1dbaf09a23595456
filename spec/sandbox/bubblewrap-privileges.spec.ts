import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BindMount, BubblewrapSandbox, SandboxPolicy } from '../../lib/sandbox';
import { describeWithEngine, tempDir } from './helpers';

/**
 * Attacks from inside BubblewrapSandbox on its read-only binds. bwrap keeps every capability when the host process is
 * root (as in CI and in many containers), and a sandboxed root with CAP_SYS_ADMIN over its own mount namespace can
 * remount any bind read-write and write through it to the host. Demonstrated before the fix: `mount -o
 * remount,bind,rw <readable path>` followed by a write changed the host file, and the same worked on `/usr`.
 */
describeWithEngine('bwrap', 'BubblewrapSandbox: no privilege to undo its own mounts', () => {
  let dir: ReturnType<typeof tempDir>;
  let readable: string;
  let extra: string;
  beforeEach(() => {
    dir = tempDir();
    readable = join(dir.path, 'readable');
    extra = join(dir.path, 'extra');
    mkdirSync(readable);
    mkdirSync(extra);
    mkdirSync(join(dir.path, 'ws'));
    writeFileSync(join(readable, 'file'), 'original');
    writeFileSync(join(extra, 'file'), 'original');
  });
  afterEach(() => dir.remove());

  const sandbox = (): BubblewrapSandbox =>
    new BubblewrapSandbox(SandboxPolicy.forWorkspace(join(dir.path, 'ws'), { writable: true, readablePaths: [readable] }), {
      mounts: [BindMount.readOnly(extra, '/extra')],
    });

  it('runs with no capability at all, even when the host process is root', async () => {
    await using box = sandbox();
    const result = await box.execute("grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb)' /proc/self/status");
    const caps = result.stdout.trim().split('\n');
    expect(caps).toHaveLength(5);
    for (const line of caps) expect(line).toMatch(/:\s+0{16}$/);
  });

  it.each([
    ['remount a readable path read-write', (r: string) => `mount -o remount,bind,rw ${r} && echo pwned > ${r}/file`],
    ['remount a read-only BindMount read-write', () => 'mount -o remount,bind,rw /extra && echo pwned > /extra/file'],
    ['remount through a nested user namespace', (r: string) => `unshare -Urm sh -c 'mount -o remount,bind,rw ${r} && echo pwned > ${r}/file'`],
    ['unmount a read-only bind and bind it again read-write', (r: string) => `umount ${r} && mount --bind ${r} ${r} && echo pwned > ${r}/file`],
  ])('cannot %s and write to the host', async (_name, attack) => {
    await using box = sandbox();
    const result = await box.execute(`${attack(readable)}; echo "exit $?"`);
    expect(result.stdout).toMatch(/exit [1-9]\d*\n$/);
    expect(readFileSync(join(readable, 'file'), 'utf8')).toBe('original');
    expect(readFileSync(join(extra, 'file'), 'utf8')).toBe('original');
  });

  it.each([
    ['the system folder /usr', () => '/usr'],
    ['a readable path', () => readable],
    ['a read-only BindMount', () => '/extra'],
  ])('leaves %s mounted read-only after a remount attempt', async (_name, folder) => {
    await using box = sandbox();
    // Only the remount is attempted, never a write: the mount table tells whether it took effect.
    const result = await box.execute(`mount -o remount,bind,rw ${folder()} 2>/dev/null; echo "exit $?"; grep " ${folder()} " /proc/self/mountinfo | cut -d' ' -f6`);
    expect(result.stdout).toMatch(/^exit [1-9]\d*\nro,[^\n]*\n$/);
  });

  it.each(['kernel/core_uses_pid', 'vm/overcommit_ratio'])('cannot write the global sysctl %s (root passes its permission check without capabilities)', async (name) => {
    const file = `/proc/sys/${name}`;
    const host = readFileSync(file, 'utf8');
    await using box = sandbox();
    // The attack writes the value already there, so even a success would change nothing on the host.
    const result = await box.execute(`v=$(cat ${file}) && echo "$v" > ${file} && echo wrote; echo "exit $?"`);
    expect(result.stdout).toMatch(/^exit [1-9]\d*\n$/);
    expect(result.stderr).toMatch(/Read-only file system/);
    expect(readFileSync(file, 'utf8')).toBe(host);
  });

  it('still reads /proc while it is read-only', async () => {
    await using box = sandbox();
    const result = await box.execute('head -n 1 /proc/self/status; ls /proc/self/fd | head -n 1; cat /proc/sys/kernel/ostype');
    expect(result.stdout).toBe('Name:\thead\n0\nLinux\n');
  });

  it('cannot create device nodes', async () => {
    await using box = sandbox();
    const result = await box.execute('mknod /tmp/disk b 8 0 2>/dev/null; echo "mknod $?"; [ -e /tmp/disk ] && echo exists');
    expect(result.stdout).toMatch(/^mknod [1-9]\d*\n$/);
  });
});
