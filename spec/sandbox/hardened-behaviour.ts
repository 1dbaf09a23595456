import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { BindMount, SandboxPolicy, type Sandbox, type SandboxExecuteOptions } from '../../lib/sandbox';
import { tempDir } from './helpers';

/** How one backend is built and what it is expected to offer. */
export interface HardenedBackend {
  /** Builds a sandbox; `mounts` are extra read-write binds (ignored by backends without mounts). */
  make(policy: SandboxPolicy, options: { mounts: readonly BindMount[]; inheritEnvironment?: readonly string[] }): Sandbox;
  /** The variables every command gets without asking, name to value. */
  base: Readonly<Record<string, string>>;
  /** Variables the backend adds for its own bookkeeping (the run tag). */
  ownNames: readonly string[];
  /** Whether `readOnly` is enforced (else refused with READ_ONLY_UNSUPPORTED). */
  readOnly: boolean;
  /** Where a command sees a host path of the policy, and the target of the extra bind. */
  inside(hostPath: string): string;
  bindTarget: string;
  /** A POSIX command that opens a TCP connection to 127.0.0.1:port (busybox nc). */
  connect(port: number): string;
  /** Whether a call without readOnly reaches a listener on the host's loopback (the positive control). */
  reachesHostLoopback: boolean;
}

/** Names a shell sets or exports itself. */
const SHELL_NAMES = ['PWD', 'OLDPWD', 'SHLVL', '_'];

/** Every way a command writes that a read-only run must refuse, as `[name, command]` (`BIND`: the bind's target). */
function writeAttempts(): [string, string][] {
  return [
    ['a redirect', 'echo x > new-file'],
    ['an append to an existing file', 'echo x >> existing'],
    ['a truncation', ': > existing'],
    ['touch', 'touch new-file'],
    ['mkdir', 'mkdir new-dir'],
    ['rm', 'rm existing'],
    ['mv', 'mv existing moved'],
    ['cp', 'cp existing copy'],
    ['ln -s', 'ln -s existing link'],
    ['chmod', 'chmod 600 existing'],
    ['dd', 'dd if=/dev/zero of=dd-file bs=1 count=1'],
    ['tee', 'echo x | tee tee-file'],
    ['a write to /tmp', 'echo x > /tmp/ro-probe'],
    ['a mkdir in /tmp', 'mkdir /tmp/ro-dir'],
    ['a write to /dev/shm', 'echo x > /dev/shm/ro-probe'],
    ['a mkdir in /dev/shm', 'mkdir /dev/shm/ro-dir'],
    ['a write to the root', 'echo x > /ro-probe'],
    ['a write to a read-write bind', 'echo x > BIND/new-file'],
    ['a write to a writable path', 'echo x > out/new-file'],
  ];
}

/**
 * What every backend must do about the shell that runs a command, the environment it gets, and `readOnly`, attacked
 * on the real engine: a command with `readOnly` cannot write anywhere nor connect, while the same command without it
 * can; the environment holds the base set and what the host passed, never a host variable.
 */
export function hardenedBehaviour(backend: HardenedBackend): void {
  let dir: ReturnType<typeof tempDir>;
  let extra: ReturnType<typeof tempDir>;
  const opened: Sandbox[] = [];
  const open = (policy: SandboxPolicy, inheritEnvironment?: readonly string[]): Sandbox => {
    const sandbox = backend.make(policy, { mounts: [BindMount.readWrite(extra.path, backend.bindTarget)], inheritEnvironment });
    opened.push(sandbox);
    return sandbox;
  };
  const workspace = (options: { network?: boolean } = {}): SandboxPolicy =>
    SandboxPolicy.forWorkspace(dir.path, { writable: true, writablePaths: [join(dir.path, 'out')], enableNetworkAccess: options.network ?? false });
  beforeEach(() => {
    dir = tempDir();
    extra = tempDir();
    mkdirSync(join(dir.path, 'out'));
    writeFileSync(join(dir.path, 'existing'), 'original\n');
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
    dir.remove();
    extra.remove();
  });

  describe('the shell', () => {
    it("runs bash for shell 'bash' and the POSIX shell for 'posix' (the default)", async () => {
      const sandbox = open(workspace());
      const probe = String.raw`printf '%s|' "$BASH_VERSION"; printf '%s' $'a\tb'`;
      const bash = await sandbox.execute(probe, { shell: 'bash' });
      expect(bash).toMatchObject({ exitCode: 0, stderr: '' });
      expect(bash.stdout).toMatch(/^5\.\d+\.\d+.*\|a\tb$/);
      for (const options of [{}, { shell: 'posix' }] as SandboxExecuteOptions[]) {
        // dash and busybox ash set no BASH_VERSION.
        expect((await sandbox.execute('printf "[%s]" "$BASH_VERSION"', options)).stdout).toBe('[]');
      }
    });

    it('runs a construct only bash knows under bash; the POSIX shell (dash, busybox ash) rejects it', async () => {
      const sandbox = open(workspace());
      const command = 'list=(first second); echo "${list[1]}"';
      expect((await sandbox.execute(command, { shell: 'bash' })).stdout).toBe('second\n');
      const posix = await sandbox.execute(command, { shell: 'posix' });
      expect(posix.exitCode).not.toBe(0);
      expect(posix.stdout).toBe('');
    });

    it('reports bash among its shells, and whether it enforces readOnly', async () => {
      const sandbox = open(workspace());
      await expect(sandbox.capabilities!()).resolves.toEqual({ shells: ['posix', 'bash'], readOnly: backend.readOnly });
    });

    it.each([['an unknown shell', { shell: 'zsh' }], ['a shell that is not a string', { shell: 1 }], ['a readOnly that is not a boolean', { readOnly: 'yes' }]])('refuses %s with OPTIONS_INVALID', async (_name, options) => {
      const sandbox = open(workspace());
      await expect(sandbox.execute('true', options as unknown as SandboxExecuteOptions)).rejects.toMatchObject({ code: 'OPTIONS_INVALID' });
    });
  });

  describe('the environment', () => {
    const secret = 'sk-agenttoolkit-fake-api-key-0123456789';
    beforeEach(() => {
      process.env.AGENTTOOLKIT_FAKE_API_KEY = secret;
      process.env.AGENTTOOLKIT_FORWARDED = 'forwarded-value';
    });
    afterEach(() => {
      delete process.env.AGENTTOOLKIT_FAKE_API_KEY;
      delete process.env.AGENTTOOLKIT_FORWARDED;
    });

    it.each([['posix'], ['bash']] as const)('holds only the base set and what the host passed, under %s', async (shell) => {
      const policy = SandboxPolicy.forWorkspace(dir.path, { environment: { FROM_POLICY: 'policy-value' } });
      const sandbox = open(policy, ['AGENTTOOLKIT_FORWARDED']);
      const result = await sandbox.execute('env; echo ===; cat /proc/self/environ | tr "\\0" "\\n"', { shell, env: { FROM_CALL: 'call-value' } });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).not.toContain(secret);
      for (const part of result.stdout.split('===\n')) {
        const entries = part.split('\n').filter(Boolean).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const);
        const names = entries.map(([name]) => name).filter((name) => !SHELL_NAMES.includes(name) && !backend.ownNames.includes(name)).sort();
        expect(names).toEqual([...Object.keys(backend.base), 'AGENTTOOLKIT_FORWARDED', 'FROM_CALL', 'FROM_POLICY'].sort());
        expect(Object.fromEntries(entries)).toMatchObject({ ...backend.base, AGENTTOOLKIT_FORWARDED: 'forwarded-value', FROM_CALL: 'call-value', FROM_POLICY: 'policy-value' });
      }
    });

    it('lets the host override a base variable explicitly', async () => {
      const sandbox = open(SandboxPolicy.forWorkspace(dir.path, { environment: { LANG: 'C' } }));
      expect((await sandbox.execute('echo "$LANG $TERM"', { env: { TERM: 'xterm' } })).stdout).toBe('C xterm\n');
    });
  });

  if (!backend.readOnly) {
    it('refuses readOnly, which it cannot enforce, before running anything', async () => {
      const sandbox = open(workspace());
      await expect(sandbox.execute('touch ran', { readOnly: true })).rejects.toMatchObject({ code: 'READ_ONLY_UNSUPPORTED' });
      expect(existsSync(join(dir.path, 'ran'))).toBe(false);
    });
    return;
  }

  describe('readOnly', () => {
    const snapshot = (): string => JSON.stringify([readdirSync(dir.path).sort(), readdirSync(join(dir.path, 'out')), readdirSync(extra.path), readFileSync(join(dir.path, 'existing'), 'utf8')]);

    it.each(writeAttempts())('refuses %s: "Read-only file system", nothing changes on the host', async (_name, command) => {
      const sandbox = open(workspace({ network: true }));
      const before = snapshot();
      for (const shell of ['posix', 'bash'] as const) {
        const result = await sandbox.execute(command.replace('BIND', backend.bindTarget), { readOnly: true, shell });
        expect(result.exitCode).not.toBe(0);
        expect(result.stderr).toMatch(/Read-only file system/);
        expect(snapshot()).toBe(before);
      }
    });

    it('still writes without readOnly, to the workspace, a writable path, a bind and /tmp', async () => {
      const sandbox = open(workspace());
      const result = await sandbox.execute(`echo w > new-file && echo w > out/new-file && echo w > ${backend.bindTarget}/new-file && echo w > /tmp/probe && cat /tmp/probe && rm existing`);
      expect(result).toMatchObject({ exitCode: 0, stdout: 'w\n', stderr: '' });
      expect(readFileSync(join(dir.path, 'new-file'), 'utf8')).toBe('w\n');
      expect(readFileSync(join(dir.path, 'out', 'new-file'), 'utf8')).toBe('w\n');
      expect(readFileSync(join(extra.path, 'new-file'), 'utf8')).toBe('w\n');
      expect(existsSync(join(dir.path, 'existing'))).toBe(false);
    });

    it('reads the same files read-only as without it, the working directory included', async () => {
      const sandbox = open(workspace());
      writeFileSync(join(extra.path, 'bound'), 'bound\n');
      const command = `cat existing ${backend.bindTarget}/bound; pwd`;
      const plain = await sandbox.execute(command);
      const readOnly = await sandbox.execute(command, { readOnly: true });
      expect(readOnly).toMatchObject({ exitCode: 0, stdout: plain.stdout, stderr: '' });
      expect(readOnly.stdout).toBe(`original\nbound\n${backend.inside(dir.path)}\n`);
    });

    describe('connecting to a listener on the host', () => {
      let server: Server;
      let port: number;
      let connections: number;
      beforeEach(async () => {
        connections = 0;
        server = createServer((socket) => {
          connections++;
          socket.end('hello\n');
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        port = (server.address() as { port: number }).port;
      });
      afterEach(async () => {
        await new Promise((resolve) => server.close(resolve));
      });

      it('fails with readOnly, through nc and through bash /dev/tcp, even when the policy allows the network', async () => {
        const sandbox = open(workspace({ network: true }));
        const nc = await sandbox.execute(backend.connect(port), { readOnly: true });
        expect(nc.exitCode).not.toBe(0);
        const devTcp = await sandbox.execute(`exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`, { readOnly: true, shell: 'bash' });
        expect(devTcp.exitCode).not.toBe(0);
        expect(devTcp.stdout).toBe('');
        expect(connections).toBe(0);
        if (backend.reachesHostLoopback) {
          const control = await sandbox.execute(`exec 3<>/dev/tcp/127.0.0.1/${port} && head -n1 <&3`, { shell: 'bash' });
          expect(control).toMatchObject({ exitCode: 0, stdout: 'hello\n' });
          expect(connections).toBe(1);
        }
      });
    });
  });
}
