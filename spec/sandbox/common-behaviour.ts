import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SandboxError, SandboxPolicy, type Sandbox } from '../../lib/sandbox';
import { expectWithinGenerousBound } from '../support/generous-bound';
import { waitFor } from '../support/wait-for';
import { collectListenerWarnings, isDead, processesMatching, sleepers, tempDir, uniqueSleep, watchSleepers } from './helpers';

/** Builds a sandbox for one test; the suite closes it. `root` is a fresh host folder usable as a workspace. */
export type SandboxFactory = (policy: SandboxPolicy) => Sandbox;

/**
 * The behaviour every backend shares (the Sandbox port's contract): results, environment overlay, the timeout that
 * kills the whole tree, bounded output, cancellation and close. Run against real processes, bwrap or Docker.
 */
export function commonBehaviour(make: SandboxFactory, options: { floodBytes: number; keepBackground: boolean }): void {
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
    // Left alone, the sleepers would hold the pipes for at least 1,000 s; the call returns after the 1 s timeout and
    // the kill (about 3 s on a busy machine).
    const result = await expectWithinGenerousBound({ withoutItMs: 1_000_000, busyMs: 3_000, limitMs: 30_000 }, () => sandbox.execute(command));
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    for (const marker of markers) expect(processesMatching(marker)).toEqual([]);
  }, 60_000);

  it('caps output while reading an endless stream and flags it truncated', async () => {
    const sandbox = open(SandboxPolicy.forWorkspace(dir.path, { limits: { timeoutMs: 1_500, maxOutputBytes: 64 * 1024 } }));
    const result = await sandbox.execute('yes; yes >&2');
    expect(result.timedOut).toBe(true);
    expect(result.truncated).toBe(true);
    expect(Buffer.byteLength(result.stdout) + Buffer.byteLength(result.stderr)).toBe(64 * 1024);
    expect(result.stdout.startsWith('y\ny\n')).toBe(true);
  });

  it.each([
    ['a 3-byte character', 10, String.raw`printf 'aaaaaaaaa\342\202\254tail'`],
    ['a 4-byte character', 11, String.raw`printf 'aaaaaaaaa\360\237\216\211tail'`],
    ['a 2-byte character on stderr', 10, String.raw`printf 'aaaaaaaaa\303\251tail' >&2`],
  ])('cuts output at a character boundary when the cap splits %s', async (_name, maxOutputBytes, command) => {
    const sandbox = open(SandboxPolicy.forWorkspace(dir.path, { limits: { maxOutputBytes } }));
    const result = await sandbox.execute(command);
    expect(result.truncated).toBe(true);
    expect(result.stdout + result.stderr).toBe('aaaaaaaaa');
  });

  it('keeps a multi-byte character that ends exactly at the cap', async () => {
    const sandbox = open(SandboxPolicy.forWorkspace(dir.path, { limits: { maxOutputBytes: 12 } }));
    const result = await sandbox.execute(String.raw`printf 'aaaaaaaaa\342\202\254tail'`);
    expect(result).toMatchObject({ stdout: 'aaaaaaaaa€', truncated: true });
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
    // Aborted once the sleepers run (not after a fixed delay, which a loaded machine may not meet).
    const run = sandbox.execute(`setsid sleep ${marker} & sleep ${marker}`, { signal: controller.signal });
    const { seen, outcome } = await watchSleepers(marker, run, () => controller.abort());
    expect(seen.length).toBeGreaterThan(0);
    expect(outcome).toMatchObject({ status: 'rejected', reason: { name: 'AbortError' } });
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
    await waitFor(() => sleepers(marker).length > 0, 'the command runs');
    await sandbox.close();
    await running;
    expect(processesMatching(marker)).toEqual([]);
    await expect(sandbox.execute('true')).rejects.toMatchObject({ code: 'SANDBOX_CLOSED' });
    await sandbox.close();
  });

  describe('no process outlives its call', () => {
    const starts: [string, (marker: string) => string][] = [
      ['setsid', (m) => `setsid sleep ${m} &`],
      ['nohup', (m) => `nohup sleep ${m} >/dev/null 2>&1 &`],
      ['double-forked', (m) => `(sleep ${m} &) &`],
      ['plain background', (m) => `sleep ${m} &`],
      ['signal-ignoring setsid', (m) => `setsid sh -c "trap '' HUP INT TERM; sleep ${m}" >/dev/null 2>&1 &`],
      ['stopped parent', (m) => `sh -c 'sleep ${m} & kill -STOP $$' >/dev/null 2>&1 &`],
      ['nested setsid', (m) => `sh -c "setsid sh -c 'sleep ${m}' >/dev/null 2>&1 &" &`],
    ];
    const endings = ['exits normally', 'times out', 'is cancelled'] as const;
    const cases = starts.flatMap(([name, start]) => endings.map((ending) => [name, ending, start] as const));

    it.each(cases)('kills a %s process when the command %s', async (_name, ending, start) => {
      const sandbox = open(SandboxPolicy.forWorkspace(dir.path, { limits: { timeoutMs: 2_000 } }));
      const marker = uniqueSleep();
      const controller = new AbortController();
      const command = ending === 'exits normally' ? `${start(marker)}\nsleep 0.6\nexit 0` : `${start(marker)}\nsleep 30`;
      const cancel = ending === 'is cancelled' ? () => setTimeout(() => controller.abort(), 200) : undefined;
      const { seen, outcome } = await watchSleepers(marker, sandbox.execute(command, { signal: controller.signal }), cancel);
      // The background process really ran (seen by pid on the host) before the call ended...
      expect(seen.length).toBeGreaterThan(0);
      if (ending === 'is cancelled') expect(outcome).toMatchObject({ status: 'rejected', reason: { name: 'AbortError' } });
      else expect(outcome).toMatchObject({ status: 'fulfilled', value: ending === 'times out' ? { timedOut: true, exitCode: null } : { timedOut: false, exitCode: 0 } });
      // ...and none of those pids runs once the call has returned.
      expect(seen.filter((pid) => !isDead(pid))).toEqual([]);
      expect(sleepers(marker)).toEqual([]);
    });

    it('kills a process that keeps changing its pid (forks a copy of itself and exits, in a loop)', async () => {
      const sandbox = open(SandboxPolicy.forWorkspace(dir.path, { writable: true, limits: { timeoutMs: 10_000 } }));
      const marker = `hop-${uniqueSleep()}`;
      // Each generation starts the next and exits at once; the file 'stop' in the workspace ends the chain.
      const hop = '[ -e stop ] && exit 0; sh -c "$HOP" "$0" & exit 0';
      let seen = 0;
      const sample = setInterval(() => (seen += processesMatching(marker).length), 10);
      try {
        const result = await sandbox.execute(`sh -c "$HOP" ${marker} & sleep 0.5; echo started`, { env: { HOP: hop } });
        expect(result.stdout).toBe('started\n');
        expect(seen).toBeGreaterThan(0);
        let after = 0;
        for (let i = 0; i < 25; i++) {
          after += processesMatching(marker).length;
          await new Promise((r) => setTimeout(r, 20));
        }
        expect(after).toBe(0);
      } finally {
        clearInterval(sample);
        writeFileSync(join(dir.path, 'stop'), '');
      }
    });

    if (options.keepBackground) {
      it('keeps background processes only when asked, until close', async () => {
        const sandbox = open(SandboxPolicy.forWorkspace(dir.path));
        const marker = uniqueSleep();
        const result = await sandbox.execute(`setsid sleep ${marker} >/dev/null 2>&1 &`, { keepBackground: true });
        expect(result.exitCode).toBe(0);
        let kept = sleepers(marker);
        for (let i = 0; i < 100 && kept.length === 0; i++) {
          await new Promise((r) => setTimeout(r, 20));
          kept = sleepers(marker);
        }
        expect(kept).toHaveLength(1);
        await new Promise((r) => setTimeout(r, 300));
        expect(isDead(kept[0]!)).toBe(false);
        await sandbox.close();
        expect(isDead(kept[0]!)).toBe(true);
      });
    } else {
      it('refuses keepBackground, which it cannot honour', async () => {
        const sandbox = open(SandboxPolicy.forWorkspace(dir.path));
        await expect(sandbox.execute('true', { keepBackground: true })).rejects.toMatchObject({ code: 'OPTIONS_INVALID' });
      });
    }
  });

  describe('many concurrent calls', () => {
    const shared = new AbortController();
    it.each([
      ['without a caller signal', () => undefined],
      ['sharing one caller signal', () => shared.signal],
    ])('runs 20 calls at once without a MaxListenersExceededWarning, %s', async (_name, signal) => {
      const sandbox = open(SandboxPolicy.forWorkspace(dir.path));
      const stop = collectListenerWarnings();
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => sandbox.execute(`sleep 0.3; echo ${i}`, { signal: signal() })));
      await new Promise((r) => setImmediate(r));
      expect(stop()).toEqual([]);
      expect(results.map((r) => r.stdout)).toEqual(Array.from({ length: 20 }, (_, i) => `${i}\n`));
    });

    it('close() still aborts all 20 running calls and kills their processes', async () => {
      const sandbox = open(SandboxPolicy.forWorkspace(dir.path));
      const stop = collectListenerWarnings();
      const marker = uniqueSleep();
      const calls = Array.from({ length: 20 }, () => sandbox.execute(`sleep ${marker}`));
      const watched = watchSleepers(marker, Promise.allSettled(calls));
      // Close once the calls run (all 20, or at least one after 15 s on a loaded machine), not after a fixed delay.
      for (const start = Date.now(); Date.now() - start < 15_000; ) {
        const running = sleepers(marker).length;
        if (running === 20 || (running > 0 && Date.now() - start > 5_000)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await sandbox.close();
      const { seen, outcome } = await watched;
      await new Promise((r) => setImmediate(r));
      expect(stop()).toEqual([]);
      expect(seen.length).toBeGreaterThan(0);
      const settled = (outcome as PromiseFulfilledResult<PromiseSettledResult<unknown>[]>).value;
      expect(settled.map((s) => s.status)).toEqual(Array.from({ length: 20 }, () => 'rejected'));
      expect(settled.map((s) => (s as PromiseRejectedResult).reason.code)).toEqual(Array.from({ length: 20 }, () => 'SANDBOX_CLOSED'));
      expect(sleepers(marker)).toEqual([]);
    }, 60_000);

    it('cancelling the shared caller signal cancels every call that uses it, and only those', async () => {
      const sandbox = open(SandboxPolicy.forWorkspace(dir.path));
      const shared = new AbortController();
      const cancelled = Array.from({ length: 12 }, () => sandbox.execute('sleep 30', { signal: shared.signal }));
      const other = sandbox.execute('sleep 1.5; echo other');
      setTimeout(() => shared.abort(), 700);
      const settled = await Promise.allSettled(cancelled);
      expect(settled.every((s) => s.status === 'rejected' && (s.reason as Error).name === 'AbortError')).toBe(true);
      expect((await other).stdout).toBe('other\n');
    });
  });

  describe('oversized commands and environments (what execve refuses with E2BIG)', () => {
    const secret = 'sekrit-value-';
    const big = secret.repeat(Math.ceil((200 * 1024) / secret.length));
    const spread = (count: number): Record<string, string> => Object.fromEntries(Array.from({ length: count }, (_, i) => [`SPREAD_${i}`, secret.repeat(5_000)]));
    it.each([
      ['one 200 KiB variable in the call env', {}, { BIG: big }, 'true'],
      ['one 200 KiB variable in the policy environment', { BIG: big }, {}, 'true'],
      ['a 200 KiB command', {}, {}, `true ${big}`],
      ['3 MiB of variables, each small enough on its own', {}, spread(48), 'true'],
      ['1.1 MiB split between the policy and the call', spread(14), { EXTRA: secret.repeat(9_000), MORE: secret.repeat(9_000) }, 'true'],
    ])('refuses %s with OPTIONS_INVALID, quoting no value', async (_name, environment, env, command) => {
      const sandbox = open(SandboxPolicy.forWorkspace(dir.path, { environment }));
      const error = await sandbox.execute(command, { env }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SandboxError);
      expect(error).toMatchObject({ code: 'OPTIONS_INVALID' });
      expect((error as Error).message).not.toContain(secret);
      expect((error as Error).message.length).toBeLessThan(400);
    });

    it('passes 900 KiB of variables through intact (no pipe or argument limit in between)', async () => {
      const sandbox = open(SandboxPolicy.forWorkspace(dir.path));
      const env = spread(13);
      const result = await sandbox.execute(Object.keys(env).map((name) => `echo "${'$'}{#${name}}"`).join('; '), { env, timeoutMs: 20_000 });
      expect(result.stderr).toBe('');
      expect(result.stdout.trim().split(/\s+/).map(Number)).toEqual(Array.from({ length: 13 }, () => secret.length * 5_000));
    });
  });

  it.each([
    ['a link to a host folder', (root: string) => ({ link: join(root, 'etc-link'), to: '/etc', cwd: 'etc-link' })],
    ['a folder below a link', (root: string) => ({ link: join(root, 'up'), to: '/usr', cwd: 'up/share' })],
  ])('refuses a cwd spelled inside the policy that reaches outside it through %s', async (_name, layout) => {
    const { link, to, cwd } = layout(dir.path);
    symlinkSync(to, link);
    const sandbox = open(SandboxPolicy.forWorkspace(dir.path));
    await expect(sandbox.execute('pwd', { cwd })).rejects.toMatchObject({ code: 'CWD_INVALID' });
  });

  it('accepts a cwd reached through a link that stays inside the policy', async () => {
    mkdirSync(join(dir.path, 'real'));
    symlinkSync('real', join(dir.path, 'alias'));
    const sandbox = open(SandboxPolicy.forWorkspace(dir.path));
    expect((await sandbox.execute('ls -a', { cwd: 'alias' })).exitCode).toBe(0);
  });

  it('rejects a bad working directory, command or option before running anything', async () => {
    const sandbox = open(SandboxPolicy.forWorkspace(dir.path));
    await expect(sandbox.execute('true', { cwd: 'missing' })).rejects.toMatchObject({ code: 'CWD_INVALID' });
    await expect(sandbox.execute('true', { cwd: '/' })).rejects.toMatchObject({ code: 'CWD_INVALID' });
    await expect(sandbox.execute('')).rejects.toBeInstanceOf(SandboxError);
    await expect(sandbox.execute('true', { timeoutMs: 0 })).rejects.toMatchObject({ code: 'OPTIONS_INVALID' });
    // Past 2^31 - 1 ms a Node timer fires at once: the call would time out immediately.
    await expect(sandbox.execute('true', { timeoutMs: 2 ** 31 })).rejects.toMatchObject({ code: 'OPTIONS_INVALID' });
    expect(() => new SandboxPolicy({ limits: { timeoutMs: 30 * 24 * 3600 * 1000 } })).toThrow(expect.objectContaining({ code: 'POLICY_INVALID' }));
    expect((await sandbox.execute('echo ok', { timeoutMs: 2 ** 31 - 1 })).stdout).toBe('ok\n');
    await expect(sandbox.execute('true', { env: { 'A=B': 'x' } })).rejects.toMatchObject({ code: 'OPTIONS_INVALID' });
    await expect(sandbox.execute('true', { keepBackground: 'yes' as unknown as boolean })).rejects.toMatchObject({ code: 'OPTIONS_INVALID' });
  });

  describe('onOutput streaming', () => {
    it('hands output on while the command runs: the first piece arrives before the second is printed', async () => {
      const sandbox = open(SandboxPolicy.forWorkspace(dir.path));
      const flag = join(dir.path, 'go');
      const seen: string[] = [];
      let flagWasMissing = false;
      // The command waits for the flag, which the listener creates only once it has seen 'first'.
      const result = await sandbox.execute('echo first; echo e1 >&2; while [ ! -e go ]; do sleep 0.05; done; echo second', {
        onOutput: (chunk) => {
          seen.push(`${chunk.stream}:${chunk.text}`);
          if (chunk.text.includes('first')) {
            flagWasMissing = !existsSync(flag);
            writeFileSync(flag, '');
          }
        },
      });
      expect(flagWasMissing).toBe(true);
      expect(result).toMatchObject({ exitCode: 0, stdout: 'first\nsecond\n', stderr: 'e1\n' });
      expect(seen.filter((s) => s.startsWith('stdout:')).join('')).toBe('stdout:first\nstdout:second\n');
      expect(seen).toContain('stderr:e1\n');
    });

    it('streams exactly what the output budget keeps, never splitting a character, and survives a throwing listener', async () => {
      const sandbox = open(SandboxPolicy.forWorkspace(dir.path, { limits: { maxOutputBytes: 1001 } }));
      const texts: string[] = [];
      let calls = 0;
      // 'é' is two bytes: a 1001-byte budget splits the 501st; the flood goes on far past the budget.
      const result = await sandbox.execute("i=0; while [ $i -lt 2000 ]; do printf 'éééééééééé'; i=$((i+1)); done", {
        onOutput: (chunk) => {
          texts.push(chunk.text);
          calls += 1;
          if (calls === 1) throw new Error('listener bug');
        },
      });
      expect(result.truncated).toBe(true);
      expect(texts.join('')).toBe(result.stdout);
      expect(result.stdout).toBe('é'.repeat(500));
      expect(texts.join('')).not.toContain('\uFFFD');
    });

    it('refuses an onOutput that is not a function', async () => {
      const sandbox = open(SandboxPolicy.forWorkspace(dir.path));
      await expect(sandbox.execute('true', { onOutput: 'yes' as unknown as () => void })).rejects.toMatchObject({ code: 'OPTIONS_INVALID' });
    });
  });
}
