import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SandboxError, SandboxPolicy, UnsafeLocalSandbox } from '../../lib/sandbox';
import { runProcessTree } from '../../lib/sandbox/process-tree';
import { commonBehaviour } from './common-behaviour';
import { processesMatching, tempDir, uniqueSleep } from './helpers';

describe('UnsafeLocalSandbox', () => {
  commonBehaviour((policy) => new UnsafeLocalSandbox(policy), { floodBytes: 1024 ** 3, keepBackground: true });

  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.remove());

  it('runs on the host, in the resolved working directory, with the host environment', async () => {
    mkdirSync(join(dir.path, 'sub'));
    process.env.AGENTTOOLKIT_LOCAL_PROBE = 'host-value';
    await using sandbox = new UnsafeLocalSandbox(SandboxPolicy.forWorkspace(dir.path));
    const result = await sandbox.execute('pwd; echo "$AGENTTOOLKIT_LOCAL_PROBE"', { cwd: 'sub' });
    delete process.env.AGENTTOOLKIT_LOCAL_PROBE;
    expect(result.stdout).toBe(`${join(dir.path, 'sub')}\nhost-value\n`);
    expect(result.oomKilled).toBeUndefined();
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

  it('turns the E2BIG of a host environment that leaves no room into OPTIONS_INVALID, not a raw error', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `AGENTTOOLKIT_HOST_FILL_${i}`);
    names.forEach((name) => (process.env[name] = 'h'.repeat(100_000)));
    try {
      await using sandbox = new UnsafeLocalSandbox(SandboxPolicy.forWorkspace(dir.path));
      const env = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`CALL_${i}`, 'c'.repeat(100_000)]));
      const error = await sandbox.execute('true', { env }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SandboxError);
      expect(error).toMatchObject({ code: 'OPTIONS_INVALID', message: expect.stringContaining('E2BIG') });
    } finally {
      names.forEach((name) => delete process.env[name]);
    }
  });

  it('reports a launcher that Node refuses at once as the backend error, not a raw one', async () => {
    const error = await Promise.resolve().then(() => runProcessTree({
      file: '/bin/sh',
      args: ['-c', 'a\0b'],
      env: {},
      cwd: undefined,
      timeoutMs: 1_000,
      maxOutputBytes: 10,
      signal: new AbortController().signal,
      tag: undefined,
      keepBackground: false,
      spawnError: (cause) => new SandboxError('ENGINE_UNAVAILABLE', 'could not start', { cause }),
    })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ENGINE_UNAVAILABLE' });
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
