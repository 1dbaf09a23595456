import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { SandboxError, SandboxPolicy, UnsafeLocalSandbox } from '../../lib/sandbox';
import { hostBaseEnvironment, SANDBOX_LANG, SANDBOX_PATH } from '../../lib/sandbox/base-environment';
import { runProcessTree } from '../../lib/sandbox/process-tree';
import { commonBehaviour } from './common-behaviour';
import { hardenedBehaviour } from './hardened-behaviour';
import { processesMatching, tempDir, uniqueSleep } from './helpers';

describe('UnsafeLocalSandbox', () => {
  commonBehaviour((policy) => new UnsafeLocalSandbox(policy), { floodBytes: 1024 ** 3, keepBackground: true });

  describe('shell, environment and readOnly', () => {
    hardenedBehaviour({
      make: (policy, { inheritEnvironment }) => new UnsafeLocalSandbox(policy, { inheritEnvironment }),
      base: { PATH: process.env.PATH!, HOME: process.env.HOME!, LANG: process.env.LANG ?? 'C.UTF-8', TERM: 'dumb' },
      ownNames: ['AGENTTOOLKIT_SANDBOX_RUN'],
      readOnly: false,
      inside: (path) => path,
      bindTarget: '/unused',
      connect: (port) => `busybox nc 127.0.0.1 ${port} </dev/null`,
      reachesHostLoopback: true,
    });
  });

  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.remove());

  it('runs on the host, in the resolved working directory, without the host environment', async () => {
    mkdirSync(join(dir.path, 'sub'));
    process.env.AGENTTOOLKIT_LOCAL_PROBE = 'host-value';
    try {
      await using sandbox = new UnsafeLocalSandbox(SandboxPolicy.forWorkspace(dir.path));
      const result = await sandbox.execute('pwd; echo "[$AGENTTOOLKIT_LOCAL_PROBE]"', { cwd: 'sub' });
      expect(result.stdout).toBe(`${join(dir.path, 'sub')}\n[]\n`);
      expect(result.oomKilled).toBeUndefined();
    } finally {
      delete process.env.AGENTTOOLKIT_LOCAL_PROBE;
    }
  });

  it('forwards a host variable only when named, and fails at once for a missing one', async () => {
    process.env.AGENTTOOLKIT_LOCAL_PROBE = 'host-value';
    try {
      await using sandbox = new UnsafeLocalSandbox(new SandboxPolicy(), { inheritEnvironment: ['AGENTTOOLKIT_LOCAL_PROBE'] });
      expect((await sandbox.execute('echo "$AGENTTOOLKIT_LOCAL_PROBE"')).stdout).toBe('host-value\n');
    } finally {
      delete process.env.AGENTTOOLKIT_LOCAL_PROBE;
    }
    expect(() => new UnsafeLocalSandbox(new SandboxPolicy(), { inheritEnvironment: ['AGENTTOOLKIT_LOCAL_PROBE'] })).toThrow(expect.objectContaining({ code: 'ENVIRONMENT_MISSING' }));
  });

  it('takes the base environment from the host, with defaults where the host has none', () => {
    expect(hostBaseEnvironment({ PATH: '/p', HOME: '/h', LANG: 'de_DE.UTF-8', TERM: 'xterm-256color' })).toEqual({ PATH: '/p', HOME: '/h', LANG: 'de_DE.UTF-8', TERM: 'dumb' });
    expect(hostBaseEnvironment({})).toEqual({ PATH: SANDBOX_PATH, HOME: homedir(), LANG: SANDBOX_LANG, TERM: 'dumb' });
  });

  describe("shell 'bash' without a usable bash", () => {
    it('refuses it with SHELL_UNAVAILABLE, never running another shell, and says so in capabilities', async () => {
      await using sandbox = new UnsafeLocalSandbox(SandboxPolicy.forWorkspace(dir.path, { writable: true }), { bashPath: 'agenttoolkit-no-such-bash' });
      const error = await sandbox.execute('touch ran', { shell: 'bash' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SandboxError);
      expect(error).toMatchObject({ code: 'SHELL_UNAVAILABLE', message: expect.stringContaining('"agenttoolkit-no-such-bash"') });
      expect((await sandbox.execute('ls')).stdout).toBe('');
      await expect(sandbox.capabilities()).resolves.toEqual({ shells: ['posix'], readOnly: false });
    });

    it('refuses a bash inside a writable path, which a command could replace', async () => {
      mkdirSync(join(dir.path, 'bin'));
      copyFileSync('/usr/bin/bash-static', join(dir.path, 'bin', 'bash'));
      await using sandbox = new UnsafeLocalSandbox(SandboxPolicy.forWorkspace(dir.path, { writable: true }), { bashPath: join(dir.path, 'bin', 'bash') });
      await expect(sandbox.execute('true', { shell: 'bash' })).rejects.toMatchObject({ code: 'SHELL_UNAVAILABLE', message: expect.stringContaining('writable path') });
      await using readOnly = new UnsafeLocalSandbox(SandboxPolicy.forWorkspace(dir.path), { bashPath: join(dir.path, 'bin', 'bash') });
      expect((await readOnly.execute('echo "$BASH_VERSION"', { shell: 'bash' })).stdout).toMatch(/^5\./);
    });

    it('refuses an empty bashPath when built', () => {
      expect(() => new UnsafeLocalSandbox(new SandboxPolicy(), { bashPath: '' })).toThrow(expect.objectContaining({ code: 'OPTIONS_INVALID' }));
    });
  });

  it('runs in the process cwd when neither the policy nor the call names one', async () => {
    await using sandbox = new UnsafeLocalSandbox(new SandboxPolicy());
    expect((await sandbox.execute('pwd')).stdout).toBe(`${process.cwd()}\n`);
  });

  it('refuses a cwd that is a file', async () => {
    writeFileSync(join(dir.path, 'file'), 'x');
    await using sandbox = new UnsafeLocalSandbox(SandboxPolicy.forWorkspace(dir.path));
    await expect(sandbox.execute('true', { cwd: 'file' })).rejects.toMatchObject({ code: 'CWD_INVALID' });
  });

  it.each([
    ['turns the E2BIG of an environment the kernel refuses into OPTIONS_INVALID, not a raw error',
      { file: '/bin/true', args: [], env: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`FILL_${i}`, 'h'.repeat(100_000)])) },
      { code: 'OPTIONS_INVALID', message: expect.stringContaining('E2BIG') as string }],
    ['reports a launcher that Node refuses at once as the backend error, not a raw one',
      { file: '/bin/sh', args: ['-c', 'a\0b'], env: {} },
      { code: 'ENGINE_UNAVAILABLE' }],
  ])('%s', async (_case, launch, expected) => {
    const error = await Promise.resolve().then(() => runProcessTree({
      ...launch,
      cwd: undefined,
      timeoutMs: 1_000,
      maxOutputBytes: 10,
      signal: new AbortController().signal,
      tag: undefined,
      keepBackground: false,
      spawnError: (cause) => new SandboxError('ENGINE_UNAVAILABLE', 'could not start', { cause }),
    })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toMatchObject(expected);
  });

  it('returns after the grace period when a process that cleared its environment keeps the pipes open (documented limit)', async () => {
    // A real escape, not a fake: `env -i` drops the tag the sweep looks for, and setsid leaves the process group.
    const marker = uniqueSleep();
    await using sandbox = new UnsafeLocalSandbox(SandboxPolicy.forWorkspace(dir.path, { limits: { timeoutMs: 500 } }));
    try {
      const result = await sandbox.execute(`setsid env -i sleep ${marker} & sleep ${marker}`);
      expect(result.timedOut).toBe(true);
      // It returned while the escaped process still holds the pipes: it did not wait for them to close.
      expect(processesMatching(marker)).toHaveLength(1);
    } finally {
      processesMatching(marker).forEach((pid) => process.kill(pid, 'SIGKILL'));
    }
  });
});
