import { SandboxError, SandboxPolicy, type Sandbox } from '../../lib/sandbox';
import { processesMatching, tempDir, uniqueSleep } from './helpers';

/** Builds a sandbox for one test; the suite closes it. `root` is a fresh host folder usable as a workspace. */
export type SandboxFactory = (policy: SandboxPolicy) => Sandbox;

/**
 * The behaviour every backend shares (the Sandbox port's contract): results, environment overlay, the timeout that
 * kills the whole tree, bounded output, cancellation and close. Run against real processes, bwrap or Docker.
 */
export function commonBehaviour(make: SandboxFactory, options: { floodBytes: number }): void {
  let dir: ReturnType<typeof tempDir>;
  const opened: Sandbox[] = [];
  const open = (policy: SandboxPolicy): Sandbox => {
    const sandbox = make(policy);
    opened.push(sandbox);
    return sandbox;
  };
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
    dir.remove();
  });

  it('returns exit code, stdout and stderr separately', async () => {
    const sandbox = open(SandboxPolicy.forWorkspace(dir.path));
    const result = await sandbox.execute('echo out; echo err >&2; exit 3');
    expect(result).toMatchObject({ exitCode: 3, stdout: 'out\n', stderr: 'err\n', timedOut: false, truncated: false });
    expect(result.durationMs).toBeGreaterThan(0);
  });

  it('reports a command killed by a signal as 128 + signal', async () => {
    const sandbox = open(SandboxPolicy.forWorkspace(dir.path));
    expect((await sandbox.execute('kill -9 $$')).exitCode).toBe(137);
  });

  it('overlays the call env on the policy environment', async () => {
    const sandbox = open(SandboxPolicy.forWorkspace(dir.path, { environment: { A: 'policy', B: 'policy' } }));
    const result = await sandbox.execute('echo "$A $B"', { env: { B: 'call' } });
    expect(result.stdout).toBe('policy call\n');
  });

  it('kills the whole tree on timeout (nohup, setsid, stubborn parents) and returns soon after', async () => {
    const sandbox = open(SandboxPolicy.forWorkspace(dir.path, { limits: { timeoutMs: 1_000 } }));
    const markers = [uniqueSleep(), uniqueSleep(), uniqueSleep(), uniqueSleep()];
    const command = [
      "trap '' TERM HUP INT",
      `setsid nohup sleep ${markers[0]} >/dev/null 2>&1 &`,
      `nohup sleep ${markers[1]} >/dev/null 2>&1 &`,
      `(setsid sleep ${markers[2]} &)`,
      `sleep ${markers[3]}`,
    ].join('\n');
    const result = await sandbox.execute(command);
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(result.durationMs).toBeLessThan(1_000 + 5_000);
    for (const marker of markers) expect(processesMatching(marker)).toEqual([]);
  });

  it('caps output while reading an endless stream and flags it truncated', async () => {
    const sandbox = open(SandboxPolicy.forWorkspace(dir.path, { limits: { timeoutMs: 1_500, maxOutputBytes: 64 * 1024 } }));
    const result = await sandbox.execute('yes; yes >&2');
    expect(result.timedOut).toBe(true);
    expect(result.truncated).toBe(true);
    expect(Buffer.byteLength(result.stdout) + Buffer.byteLength(result.stderr)).toBe(64 * 1024);
    expect(result.stdout.startsWith('y\ny\n')).toBe(true);
  });

  it('keeps memory bounded while draining one endless line of output', async () => {
    const sandbox = open(SandboxPolicy.forWorkspace(dir.path, { limits: { timeoutMs: 60_000 } }));
    const before = process.memoryUsage().rss;
    const result = await sandbox.execute(`head -c ${options.floodBytes} /dev/zero | tr '\\0' a`);
    const grown = process.memoryUsage().rss - before;
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, truncated: true });
    expect(result.stdout).toHaveLength(1024 * 1024);
    expect(grown).toBeLessThan(options.floodBytes / 4);
  });

  it('cancels through an AbortSignal, killing the tree, and rejects with the reason', async () => {
    const sandbox = open(SandboxPolicy.forWorkspace(dir.path));
    const marker = uniqueSleep();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    const started = performance.now();
    await expect(sandbox.execute(`setsid sleep ${marker} & sleep ${marker}`, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - started).toBeLessThan(500 + 5_000);
    expect(processesMatching(marker)).toEqual([]);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const sandbox = open(SandboxPolicy.forWorkspace(dir.path));
    await expect(sandbox.execute('true', { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('refuses commands once closed, and close kills what runs', async () => {
    const sandbox = open(SandboxPolicy.forWorkspace(dir.path));
    const marker = uniqueSleep();
    const running = expect(sandbox.execute(`sleep ${marker}`)).rejects.toMatchObject({ code: 'SANDBOX_CLOSED' });
    await new Promise((r) => setTimeout(r, 300));
    await sandbox.close();
    await running;
    expect(processesMatching(marker)).toEqual([]);
    await expect(sandbox.execute('true')).rejects.toMatchObject({ code: 'SANDBOX_CLOSED' });
    await sandbox.close();
  });

  it('rejects a bad working directory, command or option before running anything', async () => {
    const sandbox = open(SandboxPolicy.forWorkspace(dir.path));
    await expect(sandbox.execute('true', { cwd: 'missing' })).rejects.toMatchObject({ code: 'CWD_INVALID' });
    await expect(sandbox.execute('true', { cwd: '/' })).rejects.toMatchObject({ code: 'CWD_INVALID' });
    await expect(sandbox.execute('')).rejects.toBeInstanceOf(SandboxError);
    await expect(sandbox.execute('true', { timeoutMs: 0 })).rejects.toMatchObject({ code: 'OPTIONS_INVALID' });
    await expect(sandbox.execute('true', { env: { 'A=B': 'x' } })).rejects.toMatchObject({ code: 'OPTIONS_INVALID' });
  });
}
