import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import Docker from 'dockerode';
import { BindMount, SandboxPolicy } from '../../../lib/sandbox';
import { DockerSandbox, SANDBOX_LABEL, dockerOptionsFromUrl } from '../../../lib/sandbox/docker';
import { READ_ONLY_LABEL } from '../../../lib/sandbox/docker/container-spec';
import { commonBehaviour } from '../common-behaviour';
import { isCI } from '../../../scripts/ci-flag';
import { hardenedBehaviour, type HardenedBackend } from '../hardened-behaviour';
import { describeWithEngine, dockerEngine, isDead, processesMatching, sleepers, tempDir, uniqueSleep, watchSleepers } from '../helpers';
import { waitFor } from '../../support/wait-for';

const MiB = 1024 * 1024;

describeWithEngine('docker', 'DockerSandbox (real Docker engine)', () => {
  // Without an engine the suite is skipped (or failed in CI) by describeWithEngine; these placeholders only let it load.
  const { host, image } = dockerEngine() ?? { host: 'unix:///engine-not-configured.sock', image: 'not-configured' };
  const docker = new Docker(dockerOptionsFromUrl(host));
  const sandboxes: DockerSandbox[] = [];
  // Other runs may share the engine: this run's containers carry a label of their own.
  const RUN_LABEL = `io.agenttoolkit.spec-run=${process.pid}-${Date.now()}`;
  const make = (policy: SandboxPolicy, options: ConstructorParameters<typeof DockerSandbox>[2] = {}): DockerSandbox => {
    const sandbox = new DockerSandbox(image, policy, { connection: host, labels: { 'io.agenttoolkit.spec-run': RUN_LABEL.split('=')[1]! }, ...options });
    sandboxes.push(sandbox);
    return sandbox;
  };
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    await Promise.all(sandboxes.splice(0).map((s) => s.close()));
    dir.remove();
  });
  afterAll(async () => {
    // Every test closed its sandbox: no container of ours may be left on the engine.
    const left = await docker.listContainers({ all: true, filters: { label: [SANDBOX_LABEL, RUN_LABEL] } });
    expect(left).toEqual([]);
  });

  describe('shared behaviour', () => {
    commonBehaviour((policy) => make(policy), { floodBytes: 256 * MiB, keepBackground: true });
  });

  const hardened: HardenedBackend = {
    // The host's network, so that a call without readOnly reaches the host's loopback (the positive control).
    make: (policy, { mounts, inheritEnvironment }) => make(policy, { mounts, inheritEnvironment, network: 'host' }),
    base: { PATH: '/bin', HOME: '/tmp', LANG: 'C.UTF-8', TERM: 'dumb' },
    ownNames: ['AGENTTOOLKIT_SANDBOX_RUN'],
    readOnly: true,
    inside: () => '/workspace',
    bindTarget: '/extra',
    connect: (port) => `nc 127.0.0.1 ${port} </dev/null`,
    reachesHostLoopback: true,
  };

  describe('shell, environment and readOnly (runc)', () => {
    hardenedBehaviour(hardened);
  });

  const runsc = process.env.AGENTTOOLKIT_DOCKER_RUNSC;
  describe('shell, environment and readOnly (gVisor runsc)', () => {
    if (!runsc) {
      // Required in CI like every engine; skipped locally with the reason.
      (isCI() ? it : it.skip)('needs an engine with the runsc runtime (apt-get install runsc, then scripts/test-engine.sh start)', () => {
        throw new Error('AGENTTOOLKIT_DOCKER_RUNSC is not set: the engine has no runsc runtime.');
      });
      return;
    }
    // The test engine gives runsc only its loopback (scripts/test-engine.sh): no control call reaches the host.
    hardenedBehaviour({ ...hardened, make: (policy, { mounts, inheritEnvironment }) => make(policy, { mounts, inheritEnvironment, network: 'none', runtime: runsc }), reachesHostLoopback: false });
  });

  describe('the read-only companion container', () => {
    const ours = async (): Promise<Docker.ContainerInfo[]> => docker.listContainers({ all: true, filters: { label: [SANDBOX_LABEL, RUN_LABEL] } });

    it('is made on the first readOnly call only, reused, and sees the same binds read-only without network', async () => {
      const out = join(dir.path, 'out');
      mkdirSync(out);
      const sandbox = make(SandboxPolicy.forWorkspace(dir.path, { writablePaths: [out], enableNetworkAccess: true }), { network: 'host' });
      await sandbox.execute('true');
      expect(await ours()).toHaveLength(1);
      await sandbox.execute('true', { readOnly: true });
      await sandbox.execute('true', { readOnly: true });
      const containers = await ours();
      expect(containers).toHaveLength(2);
      const readOnly = containers.filter((c) => c.Labels[READ_ONLY_LABEL] === 'true');
      expect(readOnly).toHaveLength(1);
      const info = await docker.getContainer(readOnly[0]!.Id).inspect();
      expect(info.HostConfig).toMatchObject({ ReadonlyRootfs: true, NetworkMode: 'none', CapDrop: ['ALL'], IpcMode: 'none' });
      const binds = info.HostConfig.Mounts!.filter((m) => m.Type === 'bind');
      expect(binds.map((m) => m.Target).sort()).toEqual(['/workspace', '/workspace/out']);
      expect(binds.every((m) => m.ReadOnly === true)).toBe(true);
    });

    it('has its own /tmp and its own processes', async () => {
      const marker = uniqueSleep();
      const sandbox = make(SandboxPolicy.forWorkspace(dir.path));
      try {
        await sandbox.execute(`echo left > /tmp/left; sleep ${marker} >/dev/null 2>&1 &`, { keepBackground: true });
        const sleeping = `for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' <"$f"; echo; done | grep -c "^sleep ${marker}"`;
        const seen = await sandbox.execute(`cat /tmp/left 2>&1; ${sleeping}`, { readOnly: true });
        expect(seen.stdout).toMatch(/No such file/);
        expect(seen.stdout).toMatch(/^0$/m);
        expect((await sandbox.execute(`cat /tmp/left; ${sleeping}`)).stdout).toBe('left\n1\n');
      } finally {
        await sandbox.close();
      }
      expect(sleepers(marker)).toEqual([]);
    });

    it('keeps the HOSTNAME the host passes, and drops the one the engine adds', async () => {
      const sandbox = make(SandboxPolicy.forWorkspace(dir.path));
      // Shells set a HOSTNAME of their own (not exported): look at what a program inherits.
      expect((await sandbox.execute('env | grep ^HOSTNAME=; echo end')).stdout).toBe('end\n');
      expect((await sandbox.execute('env | grep ^HOSTNAME=', { env: { HOSTNAME: 'chosen' } })).stdout).toBe('HOSTNAME=chosen\n');
    });
  });

  describe("shell 'bash' on an image without bash", () => {
    const posixImage = process.env.AGENTTOOLKIT_DOCKER_POSIX_IMAGE ?? 'agenttoolkit-test:busybox-posix';

    it('refuses it with SHELL_UNAVAILABLE naming what to install, never running another shell; posix still runs', async () => {
      const sandbox = new DockerSandbox(posixImage, SandboxPolicy.forWorkspace(dir.path, { writable: true }), { connection: host, labels: { 'io.agenttoolkit.spec-run': RUN_LABEL.split('=')[1]! } });
      sandboxes.push(sandbox);
      await expect(sandbox.capabilities()).resolves.toEqual({ shells: ['posix'], readOnly: true });
      for (const readOnly of [false, true]) {
        const error = await sandbox.execute('touch ran', { shell: 'bash', readOnly }).catch((e: unknown) => e);
        expect(error).toMatchObject({ code: 'SHELL_UNAVAILABLE', message: expect.stringMatching(/no working bash at \/bin\/bash, \/usr\/bin\/bash, \/usr\/local\/bin\/bash.*apt-get install bash/) });
      }
      expect((await sandbox.execute('ls; echo posix')).stdout).toBe('posix\n');
    });

    it('reports an unreachable engine from capabilities(), and refuses it once closed', async () => {
      const unreachable = new DockerSandbox(image, new SandboxPolicy(), { connection: 'unix:///nonexistent/agenttoolkit.sock' });
      await expect(unreachable.capabilities()).rejects.toMatchObject({ code: 'ENGINE_UNAVAILABLE' });
      await unreachable.close();
      await expect(unreachable.capabilities()).rejects.toMatchObject({ code: 'SANDBOX_CLOSED' });
    });

    it('refuses an empty runtime name', () => {
      expect(() => new DockerSandbox(image, new SandboxPolicy(), { connection: host, runtime: '' })).toThrow(expect.objectContaining({ code: 'OPTIONS_INVALID' }));
    });
  });

  it('creates a hardened container: init, read-only root, no capabilities, no-new-privileges, tmpfs /tmp, no network, default limits', async () => {
    const sandbox = make(SandboxPolicy.forWorkspace(dir.path));
    const id = await sandbox.start();
    const info = await docker.getContainer(id).inspect();
    expect(info.HostConfig).toMatchObject({ Init: true, ReadonlyRootfs: true, CapDrop: ['ALL'], SecurityOpt: ['no-new-privileges'], NetworkMode: 'none', Memory: 512 * MiB, MemorySwap: 512 * MiB, PidsLimit: 256 });
    expect(info.HostConfig.Tmpfs).toHaveProperty('/tmp');
    expect(info.Config.Labels).toMatchObject({ [SANDBOX_LABEL]: 'true', 'io.agenttoolkit.spec-run': RUN_LABEL.split('=')[1] });
    const result = await sandbox.execute("grep -E '^(CapEff|NoNewPrivs)' /proc/self/status; touch /root-file; touch /tmp/ok && echo tmp-ok; cat /proc/net/dev");
    expect(result.stdout).toMatch(/CapEff:\s+0000000000000000/);
    expect(result.stdout).toMatch(/NoNewPrivs:\s+1/);
    expect(result.stderr).toMatch(/Read-only file system/);
    expect(result.stdout).toContain('tmp-ok');
    expect(result.stdout.split('\n').filter((l) => l.includes(':') && !l.includes('|')).map((l) => l.split(':')[0]!.trim()).filter((n) => !n.startsWith('Cap') && !n.startsWith('NoNew'))).toEqual(['lo']);
  });

  it('joins the configured network when the policy enables it', async () => {
    const sandbox = make(SandboxPolicy.forWorkspace(dir.path, { enableNetworkAccess: true }), { network: 'host' });
    const inside = (await sandbox.execute('cat /proc/net/dev')).stdout.trim().split('\n').length;
    expect(inside).toBe(readFileSync('/proc/net/dev', 'utf8').trim().split('\n').length);
  });

  it('kills a memory hog at the memory limit and reports it', async () => {
    const sandbox = make(SandboxPolicy.forWorkspace(dir.path, { limits: { memoryBytes: 64 * MiB } }));
    const hog = await sandbox.execute('dd if=/dev/zero of=/dev/null bs=200M count=1');
    expect(hog).toMatchObject({ exitCode: 137, oomKilled: true, timedOut: false });
    const after = await sandbox.execute('echo alive');
    expect(after).toMatchObject({ exitCode: 0, stdout: 'alive\n', oomKilled: false });
  });

  it('stops a fork bomb at the pids limit while the host stays responsive', async () => {
    const sandbox = make(SandboxPolicy.forWorkspace(dir.path, { limits: { pids: 64, timeoutMs: 4_000, maxOutputBytes: 4096 } }));
    const running = sandbox.execute('bomb() { bomb | bomb & }; bomb; sleep 10');
    await new Promise((r) => setTimeout(r, 1_500));
    // While the bomb is at the limit, the host still forks and runs a process promptly (generous bound).
    expect(spawnSync('/bin/true', { timeout: 5_000 }).status).toBe(0);
    const bomb = await running;
    expect(bomb.timedOut).toBe(true);
    expect(bomb.stderr).toMatch(/can't fork|Resource temporarily unavailable/);
    const info = await docker.getContainer(await sandbox.start()).inspect();
    expect(info.HostConfig.PidsLimit).toBe(64);
    expect((await sandbox.execute('echo alive')).stdout).toBe('alive\n');
  });

  it('reports a limit the engine rejects as ENGINE_FAILED with the engine reason', async () => {
    const sandbox = make(SandboxPolicy.forWorkspace(dir.path, { limits: { cpus: 512 } }));
    await expect(sandbox.execute('true')).rejects.toMatchObject({ code: 'ENGINE_FAILED', message: expect.stringMatching(/Docker engine failed to create or start the container: .*CPU/i) });
  });

  it('maps the CPU limit to a kernel CPU quota', async () => {
    const sandbox = make(SandboxPolicy.forWorkspace(dir.path, { limits: { cpus: 0.5 } }));
    const quota = await sandbox.execute('cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us /sys/fs/cgroup/cpu/cpu.cfs_period_us 2>/dev/null || cat /sys/fs/cgroup/cpu.max');
    const [a, b] = quota.stdout.trim().split(/\s+/).map(Number);
    expect(a! / b!).toBeCloseTo(0.5);
  });

  it('binds the workspace read-only unless writable, other paths under /mnt, and BindMounts as asked', async () => {
    const out = join(dir.path, 'out');
    mkdirSync(out);
    writeFileSync(join(dir.path, 'in.txt'), 'input');
    const extra = tempDir();
    const data = tempDir();
    try {
      writeFileSync(join(data.path, 'd.txt'), 'data');
      const policy = SandboxPolicy.forWorkspace(dir.path, { writablePaths: [out], readablePaths: [data.path] });
      const sandbox = make(policy, { mounts: [BindMount.readWrite(extra.path, '/output'), BindMount.readOnly(extra.path, '/config')] });
      const result = await sandbox.execute(`cat in.txt; cat /mnt${data.path}/d.txt; touch ws.txt; echo a > out/a.txt; echo b > /output/b.txt; touch /config/c.txt; touch /mnt${data.path}/e.txt`);
      expect(result.stdout).toBe('inputdata');
      expect(result.stderr.match(/Read-only file system/g)).toHaveLength(3);
      expect(readFileSync(join(out, 'a.txt'), 'utf8')).toBe('a\n');
      expect(readFileSync(join(extra.path, 'b.txt'), 'utf8')).toBe('b\n');
      expect((await sandbox.execute('pwd', { cwd: 'out' })).stdout).toBe('/workspace/out\n');
      expect((await sandbox.execute('pwd', { cwd: data.path })).stdout).toBe(`/mnt${data.path}\n`);
    } finally {
      extra.remove();
      data.remove();
    }
  });

  it('holds only allow-listed variables, and an inherited secret never reaches the container config or exec command', async () => {
    const secret = 'hunter2-docker-secret';
    process.env.AGENTTOOLKIT_SECRET_TOKEN = secret;
    process.env.AGENTTOOLKIT_NOT_FORWARDED = 'leak';
    try {
      const sandbox = make(SandboxPolicy.forWorkspace(dir.path, { environment: { FROM_POLICY: '1' } }), { inheritEnvironment: ['AGENTTOOLKIT_SECRET_TOKEN'] });
      const result = await sandbox.execute('env', { env: { FROM_CALL: '2' } });
      const names = result.stdout.split('\n').map((l) => l.split('=')[0]!).filter(Boolean).sort();
      expect(names.filter((n) => !['PWD', 'SHLVL'].includes(n))).toEqual(['AGENTTOOLKIT_SANDBOX_RUN', 'AGENTTOOLKIT_SECRET_TOKEN', 'FROM_CALL', 'FROM_POLICY', 'HOME', 'LANG', 'PATH', 'TERM']);
      expect(result.stdout).toContain(`AGENTTOOLKIT_SECRET_TOKEN=${secret}`);
      // Inspect while an exec that carries the secret runs (the engine lists only running execs): once its program
      // is seen running, not after a fixed delay; then it is cancelled.
      const marker = uniqueSleep();
      const controller = new AbortController();
      const running = sandbox.execute(`sleep ${marker}`, { signal: controller.signal });
      await waitFor(() => sleepers(marker).length > 0, 'the exec runs');
      const info = await docker.getContainer(await sandbox.start()).inspect();
      expect(JSON.stringify(info)).not.toContain(secret);
      expect(info.ExecIDs).toHaveLength(1);
      const exec = await docker.getExec(info.ExecIDs![0]!).inspect();
      expect(exec.ProcessConfig).toMatchObject({ entrypoint: '/bin/sh', arguments: expect.arrayContaining(['-c', `sleep ${marker}`, 'sweep']) });
      expect(JSON.stringify(exec)).not.toContain(secret);
      controller.abort();
      await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      delete process.env.AGENTTOOLKIT_SECRET_TOKEN;
      delete process.env.AGENTTOOLKIT_NOT_FORWARDED;
    }
  });

  it("runs as the host's uid:gid with user 'host', and as any explicit user, owning the files it writes", async () => {
    chmodSync(dir.path, 0o777);
    const policy = SandboxPolicy.forWorkspace(dir.path, { writable: true });
    const hostUser = make(policy, { user: 'host' });
    expect((await hostUser.execute('id -u; id -g; touch by-host')).stdout).toBe(`${process.getuid!()}\n${process.getgid!()}\n`);
    expect(statSync(join(dir.path, 'by-host'))).toMatchObject({ uid: process.getuid!(), gid: process.getgid!() });
    const other = make(policy, { user: '4321:4321' });
    await other.execute('touch by-other');
    expect(statSync(join(dir.path, 'by-other'))).toMatchObject({ uid: 4321, gid: 4321 });
  });

  describe('process lifetime across concurrent calls', () => {
    /** When the sandbox's container last started: a container kill makes the next call start it again. */
    const startedAt = async (sandbox: DockerSandbox): Promise<string> => (await docker.getContainer(await sandbox.start()).inspect()).State.StartedAt;
    /** Waits until `sleep <marker>` runs on the host, and returns its pids. */
    const running = async (marker: string): Promise<number[]> => {
      for (let i = 0; i < 250; i++) {
        const pids = sleepers(marker);
        if (pids.length > 0) return pids;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`sleep ${marker} never started`);
    };

    it("one call's sweep leaves a concurrent call and its background processes alone", async () => {
      const sandbox = make(SandboxPolicy.forWorkspace(dir.path));
      const [markerA, markerB] = [uniqueSleep(), uniqueSleep()];
      const callA = sandbox.execute(`sleep ${markerA} >/dev/null 2>&1 & sleep 3; echo alive-a`);
      const pidsA = await running(markerA);
      const { seen, outcome } = await watchSleepers(markerB, sandbox.execute(`setsid sleep ${markerB} & (sleep ${markerB} &) & echo b; sleep 0.5`));
      expect(outcome).toMatchObject({ status: 'fulfilled', value: { exitCode: 0, stdout: 'b\n' } });
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(seen.filter((pid) => !isDead(pid))).toEqual([]);
      // B's sweep ran while A was running: A's background process is still alive, and A completes normally.
      expect(pidsA.filter((pid) => isDead(pid))).toEqual([]);
      expect(await callA).toMatchObject({ exitCode: 0, stdout: 'alive-a\n', timedOut: false });
      expect(pidsA.filter((pid) => !isDead(pid))).toEqual([]);
    });

    it('catches a process that cleared its environment: at once when alone, at the next lone sweep otherwise (documented limit)', async () => {
      const sandbox = make(SandboxPolicy.forWorkspace(dir.path));
      const alone = uniqueSleep();
      const { seen, outcome } = await watchSleepers(alone, sandbox.execute(`env -i sleep ${alone} >/dev/null 2>&1 & sleep 0.5`));
      expect(outcome.status).toBe('fulfilled');
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.filter((pid) => !isDead(pid))).toEqual([]);

      const [markerA, hidden] = [uniqueSleep(), uniqueSleep()];
      const callA = sandbox.execute(`sleep ${markerA}`, { timeoutMs: 2_500 });
      await running(markerA);
      await sandbox.execute(`env -i sleep ${hidden} >/dev/null 2>&1 &`);
      const escaped = await running(hidden);
      expect(escaped.filter((pid) => isDead(pid))).toEqual([]);
      expect((await callA).timedOut).toBe(true);
      expect(escaped.filter((pid) => !isDead(pid))).toEqual([]);
    });

    it('freezes and kills pid-hopping processes when alone, without falling back to a container kill', async () => {
      const sandbox = make(SandboxPolicy.forWorkspace(dir.path, { writable: true }));
      const hop = '[ -e stop ] && exit 0; sh -c "$HOP" "$0" & exit 0';
      const before = await startedAt(sandbox);
      let survivors = 0;
      let seenRunning = 0;
      try {
        for (let attempt = 0; attempt < 5; attempt++) {
          const marker = `hop-${uniqueSleep()}`;
          const sample = setInterval(() => (seenRunning += processesMatching(marker).length), 10);
          await sandbox.execute(`sh -c "$HOP" ${marker} & sh -c "$HOP" ${marker} & sh -c "$HOP" ${marker} & sleep 0.3`, { env: { HOP: hop } });
          clearInterval(sample);
          for (let i = 0; i < 5; i++) {
            survivors += processesMatching(marker).length;
            await new Promise((r) => setTimeout(r, 20));
          }
        }
        // The chains really ran; the lone sweep ended each of them by itself (a container kill would restart it).
        expect(seenRunning).toBeGreaterThan(0);
        expect(survivors).toBe(0);
        expect(await startedAt(sandbox)).toBe(before);
      } finally {
        writeFileSync(join(dir.path, 'stop'), '');
      }
    });

    it('waits for a killed process that is slow to die (a large memory to free) instead of falling back to a container kill', async () => {
      // Freeing ~1 GiB after SIGKILL outlasts 20 fast rounds of the lone sweep: the process stays in /proc, not yet
      // a zombie. Counting those rounds as failed killed the container (and every other process in it). `env -i`
      // hides the process from the per-call sweep, so the lone sweep is the one that kills it.
      const sandbox = make(SandboxPolicy.forWorkspace(dir.path, { limits: { memoryBytes: 3 * 1024 * MiB } }));
      const before = await startedAt(sandbox);
      for (let attempt = 0; attempt < 2; attempt++) {
        const result = await sandbox.execute(`env -i awk 'BEGIN { s = "x"; while (length(s) < 900000000) s = s s; while (1) {} }' >/dev/null 2>&1 & while [ "$(cut -d' ' -f24 /proc/$!/stat)" -lt 100000 ]; do sleep 0.2; done; echo big`);
        expect(result).toMatchObject({ exitCode: 0, stdout: 'big\n' });
      }
      expect((await sandbox.execute('ps -o comm | grep -c awk')).stdout).toBe('0\n');
      expect(await startedAt(sandbox)).toBe(before);
    });

    it('catches a pid-hopping process at the next lone sweep when another call runs (documented limit)', async () => {
      const sandbox = make(SandboxPolicy.forWorkspace(dir.path, { writable: true }));
      const [markerA, hopper] = [uniqueSleep(), `hop-${uniqueSleep()}`];
      const hop = '[ -e stop ] && exit 0; sh -c "$HOP" "$0" & exit 0';
      const count = (): number => processesMatching(hopper).length;
      try {
        const callA = sandbox.execute(`sleep ${markerA}`, { timeoutMs: 8_000 });
        await running(markerA);
        let seen = 0;
        const sample = setInterval(() => (seen += count()), 10);
        const b = await sandbox.execute(`sh -c "$HOP" ${hopper} & sleep 0.5; echo b`, { env: { HOP: hop } });
        clearInterval(sample);
        expect(b.stdout).toBe('b\n');
        expect(seen).toBeGreaterThan(0);
        // B's sweep ran beside A, per tag: a process that is gone by the time it is killed can slip through it...
        // ...but A's sweep, alone, kills every process of the container but its own.
        expect((await callA).timedOut).toBe(true);
        let after = 0;
        for (let i = 0; i < 10; i++) {
          after += count();
          await new Promise((r) => setTimeout(r, 20));
        }
        expect(after).toBe(0);
      } finally {
        writeFileSync(join(dir.path, 'stop'), '');
      }
    });

    it('still sweeps when the call plants fake tr and grep on its PATH and preloads a missing library', async () => {
      const sandbox = make(SandboxPolicy.forWorkspace(dir.path, { writable: true }));
      mkdirSync(join(dir.path, 'bin'));
      for (const tool of ['tr', 'grep', 'kill']) {
        writeFileSync(join(dir.path, 'bin', tool), '#!/bin/sh\nexit 1\n');
        chmodSync(join(dir.path, 'bin', tool), 0o755);
      }
      const marker = uniqueSleep();
      const env = { PATH: '/workspace/bin:/bin', LD_PRELOAD: '/workspace/missing.so' };
      const { seen, outcome } = await watchSleepers(marker, sandbox.execute(`setsid sleep ${marker} >/dev/null 2>&1 & sleep 0.3; echo done`, { env }));
      expect(outcome).toMatchObject({ status: 'fulfilled', value: { exitCode: 0, stdout: 'done\n' } });
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.filter((pid) => !isDead(pid))).toEqual([]);
    });

    it('still sweeps when the command kills its wrapper or overrides the tag variable', async () => {
      const sandbox = make(SandboxPolicy.forWorkspace(dir.path));
      const marker = uniqueSleep();
      const command = `sleep ${marker} & sleep 0.3; kill -9 $PPID`;
      const { seen, outcome } = await watchSleepers(marker, sandbox.execute(command, { env: { AGENTTOOLKIT_SANDBOX_RUN: 'forged' } }));
      expect(outcome).toMatchObject({ status: 'fulfilled', value: { exitCode: 137 } });
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.filter((pid) => !isDead(pid))).toEqual([]);
    });

    it('keeps kept background processes through later calls until close', async () => {
      const sandbox = make(SandboxPolicy.forWorkspace(dir.path));
      const marker = uniqueSleep();
      await sandbox.execute(`sleep ${marker} >/dev/null 2>&1 &`, { keepBackground: true });
      const kept = await running(marker);
      expect((await sandbox.execute('echo next')).stdout).toBe('next\n');
      expect(kept.filter((pid) => isDead(pid))).toEqual([]);
      await sandbox.close();
      expect(kept.filter((pid) => !isDead(pid))).toEqual([]);
    });
  });

  describe('when the image cannot run the per-call sweep (no tr or grep)', () => {
    const minimal = 'agenttoolkit-test:no-tr';
    beforeAll(async () => {
      // A real image without tr and grep, built offline from the host's own dash, sleep and setsid and their libraries
      // (busybox would not do: its shell finds every applet even without a link).
      const root = tempDir('agenttoolkit-minimal-');
      try {
        chmodSync(root.path, 0o755);
        const programs = ['/bin/dash', '/bin/sleep', '/usr/bin/setsid', '/bin/cat', '/bin/echo'];
        const ldd = spawnSync('ldd', programs, { encoding: 'utf8' }).stdout;
        const libraries = [...new Set(ldd.split('\n').map((line) => /(\/\S+\.so[.\d]*)/.exec(line)?.[1]).filter((lib): lib is string => lib !== undefined))];
        for (const file of [...programs, ...libraries]) {
          mkdirSync(join(root.path, dirname(file)), { recursive: true });
          spawnSync('cp', ['-L', file, join(root.path, file)]);
        }
        mkdirSync(join(root.path, 'tmp'));
        symlinkSync('dash', join(root.path, 'bin', 'sh'));
        const tar = spawnSync('tar', ['-C', root.path, '-cf', '-', '.'], { maxBuffer: 64 * MiB });
        const stream = await docker.importImage(Readable.from([tar.stdout]), { repo: 'agenttoolkit-test', tag: 'no-tr', changes: ['ENV PATH=/bin:/usr/bin'] } as object);
        await new Promise((resolve, reject) => docker.modem.followProgress(stream, (error) => (error ? reject(error) : resolve(undefined))));
      } finally {
        root.remove();
      }
    });

    it('sweeps alone without them, and falls back to killing the container when another call runs (documented limit)', async () => {
      const sandbox = new DockerSandbox(minimal, SandboxPolicy.forWorkspace(dir.path), { connection: host, labels: { 'io.agenttoolkit.spec-run': RUN_LABEL.split('=')[1]! } });
      sandboxes.push(sandbox);
      const alone = uniqueSleep();
      const first = await watchSleepers(alone, sandbox.execute(`setsid sleep ${alone} & sleep 0.5; echo done`));
      expect(first.outcome).toMatchObject({ status: 'fulfilled', value: { exitCode: 0, stdout: 'done\n' } });
      expect(first.seen.length).toBeGreaterThan(0);
      expect(first.seen.filter((pid) => !isDead(pid))).toEqual([]);
      const id = await sandbox.start();

      const [markerA, markerB] = [uniqueSleep(), uniqueSleep()];
      const callA = sandbox.execute(`sleep ${markerA}; echo a`);
      await waitFor(() => sleepers(markerA).length > 0, 'the concurrent call runs');
      const second = await watchSleepers(markerB, sandbox.execute(`setsid sleep ${markerB} & sleep 0.5`, { timeoutMs: 1_500 }));
      expect(second.seen.length).toBeGreaterThan(0);
      expect(second.seen.filter((pid) => !isDead(pid))).toEqual([]);
      // The fallback killed the container, and the concurrent call with it.
      expect((await callA).stdout).not.toContain('a');
      expect(sleepers(markerA)).toEqual([]);
      expect((await sandbox.execute('echo back')).stdout).toBe('back\n');
      expect(await sandbox.start()).toBe(id);

      const [markerC, markerD] = [uniqueSleep(), uniqueSleep()];
      const callC = sandbox.execute(`sleep ${markerC}`);
      await waitFor(() => sleepers(markerC).length > 0, 'the concurrent call runs');
      const timedOut = await watchSleepers(markerD, sandbox.execute(`setsid sleep ${markerD} & sleep 30`, { timeoutMs: 1_500 }));
      expect(timedOut.outcome).toMatchObject({ status: 'fulfilled', value: { timedOut: true } });
      expect(timedOut.seen.filter((pid) => !isDead(pid))).toEqual([]);
      await callC;
      expect(sleepers(markerC)).toEqual([]);
    });
  });

  it('refuses a BindMount from inside a writable path, which a command could swap for a link before the container restarts', async () => {
    mkdirSync(join(dir.path, 'cfg'));
    const secret = tempDir();
    try {
      writeFileSync(join(secret.path, 'key'), 'TOPSECRET');
      const nested = make(SandboxPolicy.forWorkspace(dir.path, { writable: true }), { mounts: [BindMount.readOnly(join(dir.path, 'cfg'), '/config')] });
      await expect(nested.execute(`rm -rf cfg && ln -s ${secret.path} cfg`)).rejects.toMatchObject({ code: 'MOUNT_INVALID' });
      expect(statSync(join(dir.path, 'cfg')).isDirectory()).toBe(true);
      // Spelled outside, but really inside the writable workspace.
      symlinkSync(join(dir.path, 'cfg'), join(secret.path, 'alias'));
      const aliased = make(SandboxPolicy.forWorkspace(dir.path, { writable: true }), { mounts: [BindMount.readOnly(join(secret.path, 'alias'), '/config')] });
      await expect(aliased.start()).rejects.toMatchObject({ code: 'MOUNT_INVALID' });
    } finally {
      secret.remove();
    }
  });

  it('refuses a label that is not a string', () => {
    expect(() => make(new SandboxPolicy(), { labels: { a: 1 as unknown as string } })).toThrow(expect.objectContaining({ code: 'OPTIONS_INVALID' }));
  });

  it('starts the container again after a timeout killed it', async () => {
    const sandbox = make(SandboxPolicy.forWorkspace(dir.path));
    const id = await sandbox.start();
    expect((await sandbox.execute('sleep 30', { timeoutMs: 500 })).timedOut).toBe(true);
    expect((await sandbox.execute('echo again')).stdout).toBe('again\n');
    expect(await sandbox.start()).toBe(id);
  });

  it('brings its container back when it was stopped or removed behind its back', async () => {
    const sandbox = make(SandboxPolicy.forWorkspace(dir.path));
    const id = await sandbox.start();
    await docker.getContainer(id).stop({ t: 0 });
    expect((await sandbox.execute('echo restarted')).stdout).toBe('restarted\n');
    expect(await sandbox.start()).toBe(id);
    await docker.getContainer(id).remove({ force: true });
    expect((await sandbox.execute('echo recreated')).stdout).toBe('recreated\n');
    expect(await sandbox.start()).not.toBe(id);
  });

  it('removes its container on close', async () => {
    const sandbox = make(SandboxPolicy.forWorkspace(dir.path));
    const id = await sandbox.start();
    await sandbox.close();
    await expect(docker.getContainer(id).inspect()).rejects.toMatchObject({ statusCode: 404 });
    await expect(sandbox.start()).rejects.toMatchObject({ code: 'SANDBOX_CLOSED' });
  });

  it('refuses a missing image, a missing mount source and a cwd that is not mounted', async () => {
    await using noImage = new DockerSandbox('agenttoolkit-test:no-such-tag', new SandboxPolicy(), { connection: host });
    await expect(noImage.start()).rejects.toMatchObject({ code: 'ENGINE_UNAVAILABLE', message: expect.stringContaining('pull or build it') });
    const missing = make(SandboxPolicy.forWorkspace(dir.path), { mounts: [BindMount.readOnly(join(dir.path, 'nope'), '/nope')] });
    await expect(missing.execute('true')).rejects.toMatchObject({ code: 'MOUNT_INVALID' });
    const outside = make(new SandboxPolicy());
    await expect(outside.execute('true', { cwd: dir.path })).rejects.toMatchObject({ code: 'CWD_INVALID' });
    expect((await outside.execute('pwd')).stdout).toBe('/\n');
  });
});
