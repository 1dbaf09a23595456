import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BindMount, BubblewrapSandbox, SandboxPolicy } from '../../lib/sandbox';
import { bubblewrapArgs } from '../../lib/sandbox/bubblewrap-args';
import { SANDBOX_PATH } from '../../lib/sandbox/base-environment';
import { commonBehaviour } from './common-behaviour';
import { hardenedBehaviour } from './hardened-behaviour';
import { describeWithEngine, tempDir } from './helpers';

describe('BubblewrapSandbox construction', () => {
  it('refuses memory, pids and CPU limits it cannot enforce, saying so', () => {
    const policy = new SandboxPolicy({ limits: { memoryBytes: 1 << 20, cpus: 1 } });
    expect(() => new BubblewrapSandbox(policy)).toThrow(expect.objectContaining({ code: 'LIMIT_UNSUPPORTED', message: expect.stringContaining('cannot enforce memoryBytes, cpus') }));
  });

  it('fails before anything starts when an inherited variable is missing', () => {
    delete process.env.AGENTTOOLKIT_NOT_SET;
    expect(() => new BubblewrapSandbox(new SandboxPolicy(), { inheritEnvironment: ['AGENTTOOLKIT_NOT_SET'] })).toThrow(expect.objectContaining({ code: 'ENVIRONMENT_MISSING' }));
  });

  it('refuses two mounts on one target', () => {
    const mounts = [BindMount.readOnly('/usr', '/x'), BindMount.readWrite('/tmp', '/x')];
    expect(() => new BubblewrapSandbox(new SandboxPolicy(), { mounts })).toThrow(expect.objectContaining({ code: 'MOUNT_INVALID' }));
  });

  it('reports a missing bwrap binary as ENGINE_UNAVAILABLE', async () => {
    await using sandbox = new BubblewrapSandbox(new SandboxPolicy(), { bwrapPath: '/nonexistent/bwrap' });
    await expect(sandbox.execute('true')).rejects.toMatchObject({ code: 'ENGINE_UNAVAILABLE', message: expect.stringContaining('apt-get install bubblewrap') });
  });
});

describe('bubblewrapArgs', () => {
  const launch = { command: 'true', shell: '/bin/sh', network: true, mounts: [{ source: '/w', target: '/w', readOnly: false }], cwd: undefined };

  it('binds read-only, remounts the root, /dev and /tmp read-only last, and never shares the network when readOnly', () => {
    const args = bubblewrapArgs({ ...launch, readOnly: true });
    expect(args).not.toContain('--share-net');
    expect(args).not.toContain('--bind');
    expect(args.join(' ')).toContain('--ro-bind /w /w --remount-ro /dev --remount-ro /tmp --remount-ro / -- /bin/sh -c true');
    const writable = bubblewrapArgs({ ...launch, readOnly: false });
    expect(writable).toContain('--share-net');
    expect(writable.join(' ')).toContain('--bind /w /w -- /bin/sh -c true');
  });
});

describeWithEngine('bwrap', 'BubblewrapSandbox (real bwrap)', () => {
  commonBehaviour((policy) => new BubblewrapSandbox(policy), { floodBytes: 1024 ** 3, keepBackground: false });

  describe('shell, environment and readOnly', () => {
    hardenedBehaviour({
      make: (policy, { mounts, inheritEnvironment }) => new BubblewrapSandbox(policy, { mounts, inheritEnvironment }),
      base: { PATH: SANDBOX_PATH, HOME: '/tmp', LANG: 'C.UTF-8', TERM: 'dumb' },
      ownNames: [],
      readOnly: true,
      inside: (path) => path,
      bindTarget: '/extra',
      connect: (port) => `busybox nc 127.0.0.1 ${port} </dev/null`,
      reachesHostLoopback: true,
    });
  });

  describe("shell 'bash' without a usable bash", () => {
    let bin: ReturnType<typeof tempDir>;
    let work: ReturnType<typeof tempDir>;
    beforeEach(() => {
      bin = tempDir();
      work = tempDir();
      copyFileSync('/usr/bin/bash-static', join(bin.path, 'bash'));
    });
    afterEach(() => {
      bin.remove();
      work.remove();
    });

    it('refuses a bash missing from the host PATH with SHELL_UNAVAILABLE, and capabilities say so', async () => {
      await using sandbox = new BubblewrapSandbox(SandboxPolicy.forWorkspace(work.path), { bashPath: 'agenttoolkit-no-such-bash' });
      await expect(sandbox.execute('true', { shell: 'bash' })).rejects.toMatchObject({ code: 'SHELL_UNAVAILABLE', message: expect.stringContaining('agenttoolkit-no-such-bash') });
      await expect(sandbox.capabilities()).resolves.toEqual({ shells: ['posix'], readOnly: true });
      expect((await sandbox.execute('echo posix')).stdout).toBe('posix\n');
    });

    it('refuses a bash the sandbox does not see, and runs one under a readable path at its place inside', async () => {
      await using unseen = new BubblewrapSandbox(SandboxPolicy.forWorkspace(work.path), { bashPath: join(bin.path, 'bash') });
      await expect(unseen.execute('true', { shell: 'bash' })).rejects.toMatchObject({ code: 'SHELL_UNAVAILABLE', message: expect.stringContaining('does not see') });
      await using seen = new BubblewrapSandbox(SandboxPolicy.forWorkspace(work.path), { bashPath: join(bin.path, 'bash'), mounts: [BindMount.readOnly(bin.path, '/opt/shells')] });
      expect((await seen.execute('echo "$BASH_VERSION $0"', { shell: 'bash' })).stdout).toMatch(/^5\.\S+ \/opt\/shells\/bash\n$/);
    });

    it('refuses a bash inside a writable path, which a command could replace before the next call', async () => {
      await using sandbox = new BubblewrapSandbox(SandboxPolicy.forWorkspace(work.path, { writablePaths: [bin.path] }), { bashPath: join(bin.path, 'bash') });
      await expect(sandbox.execute('true', { shell: 'bash' })).rejects.toMatchObject({ code: 'SHELL_UNAVAILABLE', message: expect.stringContaining('writable path') });
    });
  });

  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.remove());

  it('has no network but loopback when the policy disables it, and the host network when enabled', async () => {
    await using closed = new BubblewrapSandbox(SandboxPolicy.forWorkspace(dir.path));
    const off = await closed.execute('cat /proc/net/dev');
    expect(off.stdout.split('\n').filter((l) => l.includes(':')).map((l) => l.split(':')[0]!.trim())).toEqual(['lo']);
    await using open = new BubblewrapSandbox(SandboxPolicy.forWorkspace(dir.path, { enableNetworkAccess: true }));
    const host = readFileSync('/proc/net/dev', 'utf8');
    expect((await open.execute('cat /proc/net/dev')).stdout.split('\n').length).toBe(host.split('\n').length);
  });

  it('binds system folders read-only and shows nothing else of the host', async () => {
    await using sandbox = new BubblewrapSandbox(SandboxPolicy.forWorkspace(dir.path));
    const result = await sandbox.execute('touch /usr/x; ls /; ls /root 2>&1; ls /etc 2>&1');
    expect(result.stderr).toMatch(/Read-only file system/);
    expect(result.stdout).not.toMatch(/^home$/m);
    expect(result.stdout).toMatch(/No such file/);
  });

  it('makes the workspace read-only unless writable, and writable paths and mounts read-write', async () => {
    const out = join(dir.path, 'out');
    const extra = tempDir();
    mkdirSync(out);
    try {
      const policy = SandboxPolicy.forWorkspace(dir.path, { writablePaths: [out] });
      await using sandbox = new BubblewrapSandbox(policy, { mounts: [BindMount.readWrite(extra.path, '/data/rw'), BindMount.readOnly(extra.path, '/data/ro')] });
      const result = await sandbox.execute('touch ws.txt; echo a > out/a.txt; echo b > /data/rw/b.txt; touch /data/ro/c.txt');
      expect(result.stderr).toMatch(/ws\.txt'?: Read-only file system/);
      expect(result.stderr).toMatch(/c\.txt'?: Read-only file system/);
      expect(readFileSync(join(out, 'a.txt'), 'utf8')).toBe('a\n');
      expect(readFileSync(join(extra.path, 'b.txt'), 'utf8')).toBe('b\n');
    } finally {
      extra.remove();
    }
  });

  it('rebuilds the environment from the allow-list only; inherited values stay off the command line', async () => {
    process.env.AGENTTOOLKIT_SECRET_TOKEN = 'hunter2-bwrap-secret';
    process.env.AGENTTOOLKIT_NOT_FORWARDED = 'leak';
    try {
      const policy = SandboxPolicy.forWorkspace(dir.path, { environment: { FROM_POLICY: '1' } });
      await using sandbox = new BubblewrapSandbox(policy, { inheritEnvironment: ['AGENTTOOLKIT_SECRET_TOKEN'] });
      const result = await sandbox.execute('env; echo; cat /proc/1/cmdline /proc/self/cmdline | tr "\\0" " "', { env: { FROM_CALL: '2' } });
      const [envPart, cmdlines] = result.stdout.split('\n\n');
      const names = envPart!.split('\n').map((line) => line.split('=')[0]).filter(Boolean).sort();
      expect(names.filter((n) => !['PWD', 'SHLVL', '_', 'OLDPWD'].includes(n!))).toEqual(['AGENTTOOLKIT_SECRET_TOKEN', 'FROM_CALL', 'FROM_POLICY', 'HOME', 'LANG', 'PATH', 'TERM']);
      expect(envPart).toContain('AGENTTOOLKIT_SECRET_TOKEN=hunter2-bwrap-secret');
      expect(cmdlines).not.toContain('hunter2');
    } finally {
      delete process.env.AGENTTOOLKIT_SECRET_TOKEN;
      delete process.env.AGENTTOOLKIT_NOT_FORWARDED;
    }
  });

  it('refuses a mount whose host path is missing', async () => {
    await using sandbox = new BubblewrapSandbox(SandboxPolicy.forWorkspace(dir.path), { mounts: [BindMount.readOnly(join(dir.path, 'nope'), '/nope')] });
    await expect(sandbox.execute('true')).rejects.toMatchObject({ code: 'MOUNT_INVALID' });
  });

  it('runs in the resolved working directory', async () => {
    mkdirSync(join(dir.path, 'sub'));
    writeFileSync(join(dir.path, 'sub', 'f'), 'x');
    await using sandbox = new BubblewrapSandbox(SandboxPolicy.forWorkspace(dir.path));
    expect((await sandbox.execute('pwd; ls', { cwd: 'sub' })).stdout).toBe(`${join(dir.path, 'sub')}\nf\n`);
  });
});
