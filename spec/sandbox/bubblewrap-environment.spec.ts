import { chmodSync, existsSync, mkdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BubblewrapSandbox, SandboxPolicy } from '../../lib/sandbox';
import { resolveHostBinary } from '../../lib/sandbox/host-binary';
import { describeWithEngine, processesMatching, tempDir, uniqueSleep } from './helpers';

/**
 * Attacks on the host side of BubblewrapSandbox: the sandbox's environment (the policy's and the call's) must never
 * steer the host's bwrap process, and no value may appear on a command line.
 */
describeWithEngine('bwrap', 'BubblewrapSandbox: the sandbox environment never steers the host', () => {
  let dir: ReturnType<typeof tempDir>;
  const realBwrap = resolveHostBinary('bwrap')!;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.remove());

  /** A fake bwrap that leaves proof of running on the host, then runs the real one so the call looks normal. */
  const trapScript = (proof: string): string => `#!/bin/sh\necho "ran on the host as $(id -u)" > '${proof}'\nexec ${realBwrap} "$@"\n`;

  it.each([
    ['the policy', 'policy'],
    ['the call', 'call'],
  ])('does not run a bwrap planted by the sandbox on a PATH set by %s (demonstrated attack)', async (_name, where) => {
    const bin = join(dir.path, 'bin');
    const proof = join(dir.path, 'pwned');
    const path = `${bin}:/usr/bin:/bin`;
    const policy = SandboxPolicy.forWorkspace(dir.path, { writable: true, environment: where === 'policy' ? { PATH: path } : {} });
    await using sandbox = new BubblewrapSandbox(policy);
    const env: Record<string, string> = where === 'call' ? { PATH: path } : {};
    // Call 1 writes the fake bwrap from inside the sandbox.
    const plant = await sandbox.execute(`mkdir -p bin && printf '%s' "$TRAP" > bin/bwrap && chmod +x bin/bwrap && echo planted`, { env: { ...env, TRAP: trapScript(proof) } });
    expect(plant).toMatchObject({ exitCode: 0, stdout: 'planted\n' });
    expect(readFileSync(join(bin, 'bwrap'), 'utf8')).toContain('ran on the host');
    // Call 2 must still use the host's bwrap.
    const second = await sandbox.execute('echo "$PATH"', { env });
    expect(second).toMatchObject({ exitCode: 0, stdout: `${path}\n` });
    expect(existsSync(proof)).toBe(false);
  });

  it('ignores relative entries of the host PATH when it looks bwrap up', async () => {
    const previous = { cwd: process.cwd(), path: process.env.PATH };
    const proof = join(dir.path, 'pwned');
    mkdirSync(join(dir.path, 'bin'));
    writeFileSync(join(dir.path, 'bin', 'bwrap'), trapScript(proof));
    chmodSync(join(dir.path, 'bin', 'bwrap'), 0o755);
    try {
      process.chdir(dir.path);
      process.env.PATH = `bin::.:${previous.path ?? ''}`;
      expect(resolveHostBinary('bwrap')).toBe(realBwrap);
      await using sandbox = new BubblewrapSandbox(SandboxPolicy.forWorkspace(dir.path));
      expect((await sandbox.execute('echo ok')).stdout).toBe('ok\n');
      expect(existsSync(proof)).toBe(false);
    } finally {
      process.chdir(previous.cwd);
      process.env.PATH = previous.path;
    }
  });

  it.each([
    ['LD_PRELOAD in the call env', 'call', 'LD_PRELOAD'],
    ['LD_PRELOAD in the policy environment', 'policy', 'LD_PRELOAD'],
    ['LD_AUDIT in the call env', 'call', 'LD_AUDIT'],
  ])('does not load a shared object compiled inside the sandbox into the host bwrap (%s)', async (_name, where, variable) => {
    const log = join(dir.path, 'loaded-into.log');
    const source = [
      '#include <stdio.h>',
      '#include <unistd.h>',
      '#include <string.h>',
      'static void record(void) {',
      '  char exe[512] = {0};',
      '  if (readlink("/proc/self/exe", exe, sizeof exe - 1) < 0) return;',
      `  FILE *f = fopen("${log}", "a");`,
      '  if (f) { fprintf(f, "%s\\n", exe); fclose(f); }',
      '}',
      '__attribute__((constructor)) static void init(void) { record(); }',
      // LD_AUDIT needs la_version; LD_PRELOAD ignores it.
      'unsigned int la_version(unsigned int v) { record(); return v; }',
    ].join('\n');
    writeFileSync(join(dir.path, 'hook.c'), source);
    const so = join(dir.path, 'hook.so');
    await using builder = new BubblewrapSandbox(SandboxPolicy.forWorkspace(dir.path, { writable: true }));
    const build = await builder.execute(`gcc -shared -fPIC -o ${so} hook.c`);
    expect(build.stderr).toBe('');
    expect(build.exitCode).toBe(0);

    const policy = SandboxPolicy.forWorkspace(dir.path, { writable: true, environment: where === 'policy' ? { [variable]: so } : {} });
    await using sandbox = new BubblewrapSandbox(policy);
    const result = await sandbox.execute('echo inside', { env: where === 'call' ? { [variable]: so } : {} });
    expect(result.stdout).toBe('inside\n');
    const loaded = readFileSync(log, 'utf8').trim().split('\n');
    // The object is real and was loaded: into the sandboxed shell, and never into the host's bwrap.
    expect(loaded.some((exe) => /\/(dash|sh|bash)$/.test(exe))).toBe(true);
    expect(loaded.filter((exe) => exe.endsWith('bwrap'))).toEqual([]);
  });

  it('keeps every value off the host command line and starts bwrap with an empty environment', async () => {
    const secrets = { inherited: 'inherited-secret-4711', policy: 'policy-secret-4712', call: 'call-secret-4713' };
    process.env.AGENTTOOLKIT_BWRAP_INHERITED = secrets.inherited;
    try {
      const policy = SandboxPolicy.forWorkspace(dir.path, { environment: { FROM_POLICY: secrets.policy } });
      await using sandbox = new BubblewrapSandbox(policy, { inheritEnvironment: ['AGENTTOOLKIT_BWRAP_INHERITED'] });
      const marker = uniqueSleep();
      const running = sandbox.execute(`sleep ${marker}`, { env: { FROM_CALL: secrets.call }, timeoutMs: 1_500 });
      let launched: number[] = [];
      for (let i = 0; i < 100 && launched.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
        launched = processesMatching(marker).filter((pid) => exeOf(pid) === realBwrap);
      }
      expect(launched.length).toBeGreaterThan(0);
      for (const pid of launched) {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0');
        expect(cmdline).toEqual(expect.arrayContaining(['--clearenv', '--args', '3']));
        expect(cmdline).not.toContain('--setenv');
        for (const value of Object.values(secrets)) expect(cmdline.join(' ')).not.toContain(value);
        expect(readFileSync(`/proc/${pid}/environ`, 'latin1')).toBe('');
      }
      expect((await running).timedOut).toBe(true);
    } finally {
      delete process.env.AGENTTOOLKIT_BWRAP_INHERITED;
    }
  });

  it('treats variable names and values shaped like bwrap options as plain variables', async () => {
    await using sandbox = new BubblewrapSandbox(SandboxPolicy.forWorkspace(dir.path));
    const env = { '--bind': '/', '--dev-bind': '/ /', '--chdir': '/root', X: '--ro-bind / /hostroot', '--': '/bin/sh' };
    // The shell drops names that are not identifiers from what it exports, so read its own initial environment.
    const result = await sandbox.execute(`tr '\\0' '\\n' < /proc/$$/environ; pwd; ls /root /hostroot 2>&1; echo end`, { env });
    for (const [name, value] of Object.entries(env)) expect(result.stdout).toContain(`${name}=${value}\n`);
    expect(result.stdout).toContain(`${dir.path}\n`);
    expect(result.stdout).toMatch(/\/root.*No such file/);
    expect(result.stdout).toMatch(/\/hostroot.*No such file/);
    expect(result.stdout).toMatch(/end\n$/);
  });

  it('keeps BASH_ENV and ENV for the sandboxed shell only', async () => {
    const hook = join(dir.path, 'hook.sh');
    const proof = join(dir.path, 'hook-ran');
    writeFileSync(hook, `echo "$$" >> '${proof}'\n`);
    await using sandbox = new BubblewrapSandbox(SandboxPolicy.forWorkspace(dir.path, { writable: true, environment: { BASH_ENV: hook } }));
    const result = await sandbox.execute('bash -c "echo in-bash"; echo "$ENV"', { env: { ENV: hook } });
    expect(result.stdout).toBe(`in-bash\n${hook}\n`);
    // bash inside the sandbox read BASH_ENV (proof written once, from inside); nothing on the host did.
    expect(readFileSync(proof, 'utf8').trim().split('\n')).toHaveLength(1);
  });
});

describe('BubblewrapSandbox binary checks', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.remove());

  it('refuses a bwrap older than 0.5.0 (no --clearenv), saying which version it needs', async () => {
    const fake = join(dir.path, 'old-bwrap');
    writeFileSync(fake, '#!/bin/sh\necho "bubblewrap 0.4.1"\n');
    chmodSync(fake, 0o755);
    await using sandbox = new BubblewrapSandbox(new SandboxPolicy(), { bwrapPath: fake });
    await expect(sandbox.execute('true')).rejects.toMatchObject({ code: 'ENGINE_UNAVAILABLE', message: expect.stringContaining('0.5.0 or later') });
    await expect(sandbox.execute('true')).rejects.toMatchObject({ code: 'ENGINE_UNAVAILABLE' });
  });

  it('reports a bwrap missing from the host PATH as ENGINE_UNAVAILABLE', async () => {
    const previous = process.env.PATH;
    process.env.PATH = dir.path;
    try {
      await using sandbox = new BubblewrapSandbox(new SandboxPolicy());
      await expect(sandbox.execute('true')).rejects.toMatchObject({ code: 'ENGINE_UNAVAILABLE', message: expect.stringContaining('no executable "bwrap"') });
    } finally {
      process.env.PATH = previous;
    }
  });

  it('refuses an empty bwrapPath', () => {
    expect(() => new BubblewrapSandbox(new SandboxPolicy(), { bwrapPath: '' })).toThrow(expect.objectContaining({ code: 'OPTIONS_INVALID' }));
  });

  it('resolves host binaries from absolute PATH entries only', () => {
    expect(resolveHostBinary('sh', '/nonexistent:/bin')).toBe('/bin/sh');
    expect(resolveHostBinary('sh', 'bin:.:')).toBeUndefined();
    expect(resolveHostBinary('./x/bwrap')).toBe(join(process.cwd(), 'x/bwrap'));
    // A directory of the right name is not a program.
    mkdirSync(join(dir.path, 'bwrap'));
    expect(resolveHostBinary('bwrap', dir.path)).toBeUndefined();
  });
});

function exeOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return undefined;
  }
}
