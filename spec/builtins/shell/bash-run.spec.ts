/**
 * The Bash tool runs exactly what it analysed: the sandbox's capabilities asked once, bash when offered (else the
 * POSIX sh, and the analysis for it), the hardened environment on every call, and a command judged read-only run with
 * `readOnly` where the sandbox enforces it. Over a spec-only sandbox implementing the port's contract on the host's
 * real bash, dash and bubblewrap; the real backends' specs at the end need their contract implemented (sandbox side).
 */
import { createServer, type Server } from 'node:net';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tools } from '../../../lib';
import { PermissionBehavior, PermissionEngine, PermissionMode } from '../../../lib/permissions';
import { BASH_ENVIRONMENT, bashTool, type BashTool } from '../../../lib/builtins';
import { READ_ONLY_VERDICT } from '../../../lib/builtins/shell/read-only-verdict';
import { BubblewrapSandbox, SandboxPolicy, UnsafeLocalSandbox, type Sandbox } from '../../../lib/sandbox';
import { DockerSandbox } from '../../../lib/sandbox/docker';
import { describeWithEngine, dockerEngine, tempDir } from '../../sandbox/helpers';
import { ContractSandbox, contractReadOnlyMissing } from './contract-sandbox';

const { ALLOW, ASK, DENY } = PermissionBehavior;
const BASH_AND_READ_ONLY = { shells: ['posix', 'bash'] as const, readOnly: true };
const POSIX_ONLY = { shells: ['posix'] as const, readOnly: false };

let dir: ReturnType<typeof tempDir>;
beforeEach(() => (dir = tempDir('agenttoolkit-bash-run-')));
afterEach(() => dir.remove());

/** A tool whose read-only verdict is forced to true: a wrong verdict, to show what enforcement leaves it. */
function wronglyReadOnly(sandbox: Sandbox): BashTool {
  return bashTool({ sandbox, ...{ [READ_ONLY_VERDICT]: () => true } });
}

describe('Bash over a sandbox offering bash and read-only runs', () => {
  it('asks the capabilities once and runs every command with shell bash, analysed as bash', async () => {
    const sandbox = new ContractSandbox(BASH_AND_READ_ONLY, dir.path);
    const tools = new Tools().register(bashTool({ sandbox }));
    expect(await tools.execute('Bash', { command: "echo $'a\\tb'" })).toMatchObject({ ok: true, result: 'a\tb' });
    expect(await tools.execute('Bash', { command: 'echo x &>/dev/null; echo y' })).toMatchObject({ ok: true, result: 'y' });
    expect(sandbox.capabilityCalls).toBe(1);
    expect(sandbox.calls.map((c) => c.options.shell)).toEqual(['bash', 'bash']);
  });

  it('sets the hardened environment on every call: pagers off, git configuration that runs no program', async () => {
    const sandbox = new ContractSandbox(BASH_AND_READ_ONLY, dir.path);
    const tools = new Tools().register(bashTool({ sandbox }));
    const result = await tools.execute('Bash', { command: 'echo "$PAGER $GIT_PAGER $MANPAGER [$LESSOPEN] $GIT_OPTIONAL_LOCKS $GIT_CONFIG_NOSYSTEM $GIT_CONFIG_GLOBAL $GIT_CONFIG_COUNT"' });
    expect(result).toMatchObject({ ok: true, result: `cat cat cat [] 0 1 /dev/null ${BASH_ENVIRONMENT.GIT_CONFIG_COUNT}` });
    for (const call of sandbox.calls) expect(call.options.env).toEqual(BASH_ENVIRONMENT);
  });

  it('runs a command judged read-only with readOnly, and one that writes without it', async () => {
    const sandbox = new ContractSandbox(BASH_AND_READ_ONLY, dir.path);
    const tools = new Tools().register(bashTool({ sandbox }));
    await tools.execute('Bash', { command: 'ls -la' });
    await tools.execute('Bash', { command: 'git status' });
    await tools.execute('Bash', { command: 'touch made' });
    await tools.execute('Bash', { command: 'PATH=.; ls' });
    expect(sandbox.calls.map((c) => c.options.readOnly === true)).toEqual([true, true, false, false]);
    expect(existsSync(join(dir.path, 'made'))).toBe(true);
  });

  (contractReadOnlyMissing() === undefined ? describe : describe.skip)('a wrongly judged read-only command (bubblewrap-backed contract)', () => {
    let server: Server;
    let port: number;
    let connections = 0;
    beforeAll(async () => {
      server = createServer((socket) => {
        connections++;
        socket.end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('can read but not write nor connect', async () => {
      writeFileSync(join(dir.path, 'data'), 'secret-free\n');
      const sandbox = new ContractSandbox(BASH_AND_READ_ONLY, dir.path);
      const tools = new Tools().register(wronglyReadOnly(sandbox));
      expect(await tools.execute('Bash', { command: 'cat data' })).toMatchObject({ ok: true, result: 'secret-free' });
      const write = await tools.execute('Bash', { command: 'touch made' });
      expect(write.ok).toBe(false);
      expect(write.error).toContain('Read-only file system');
      expect(existsSync(join(dir.path, 'made'))).toBe(false);
      const connect = await tools.execute('Bash', { command: `exec 3<>/dev/tcp/127.0.0.1/${port}` });
      expect(connect.ok).toBe(false);
      expect(connections).toBe(0);
      // The same tool without the wrong verdict reaches the server: the refusal above is the enforcement's.
      const open = await new Tools().register(bashTool({ sandbox: new ContractSandbox({ shells: ['posix', 'bash'], readOnly: false }, dir.path) })).execute('Bash', { command: `exec 3<>/dev/tcp/127.0.0.1/${port}` });
      expect(open.ok).toBe(true);
      expect(connections).toBe(1);
    });
  });
});

describe('Bash over a sandbox offering only a POSIX sh', () => {
  it('runs without a shell option or readOnly, and bash-only syntax asks and is denied by a deny rule', async () => {
    const sandbox = new ContractSandbox(POSIX_ONLY, dir.path);
    const bash = bashTool({ sandbox });
    const tools = new Tools().register(bash);
    expect(await tools.execute('Bash', { command: 'ls' })).toMatchObject({ ok: true });
    expect(sandbox.calls[0]!.options.shell).toBeUndefined();
    expect(sandbox.calls[0]!.options.readOnly).toBeUndefined();
    const engine = new PermissionEngine({ settings: { deny: ['Bash(rm:*)'] } });
    // dash reads these as three commands; bash as one echo.
    for (const command of ["echo $'\\' ; rm -f x ; #'", 'echo x &>/dev/null rm x', 'echo {a,b}', 'cat <<< x']) {
      const decision = await engine.check(bash, { command });
      expect(decision.behavior).toBe(DENY);
      expect((await new PermissionEngine({}).check(bash, { command })).behavior).toBe(ASK);
    }
    expect((await engine.check(bash, { command: 'ls -la' })).behavior).toBe(ALLOW);
  });

  it('a sandbox without capabilities() is taken to offer only a POSIX sh', async () => {
    const contract = new ContractSandbox(POSIX_ONLY, dir.path);
    const bare: Sandbox = { execute: (c, o) => contract.execute(c, o), close: () => Promise.resolve(), [Symbol.asyncDispose]: () => Promise.resolve() };
    const bash = bashTool({ sandbox: bare });
    expect((await new PermissionEngine({}).check(bash, { command: "echo $'x'" })).behavior).toBe(ASK);
    expect(await new Tools().register(bash).execute('Bash', { command: 'echo plain' })).toMatchObject({ ok: true, result: 'plain' });
    expect(contract.calls[0]!.options.shell).toBeUndefined();
  });

  it('a sandbox whose capabilities() fails is taken to offer only a POSIX sh, and asked again next time', async () => {
    const contract = new ContractSandbox(POSIX_ONLY, dir.path);
    let asked = 0;
    const failing: Sandbox = { execute: (c, o) => contract.execute(c, o), capabilities: () => (asked++, Promise.reject(new Error('engine down'))), close: () => Promise.resolve(), [Symbol.asyncDispose]: () => Promise.resolve() };
    const bash = bashTool({ sandbox: failing });
    expect((await new PermissionEngine({}).check(bash, { command: "echo $'x'" })).behavior).toBe(ASK);
    await new PermissionEngine({}).check(bash, { command: 'ls' });
    expect(asked).toBe(2);
  });
});

describe('Bash modes over the contract sandbox', () => {
  it.each([
    [PermissionMode.DEFAULT, ALLOW, ASK],
    [PermissionMode.ACCEPT_EDITS, ALLOW, ASK],
    // Explore mode allows only tools' read-only shortcut, which Bash does not declare.
    [PermissionMode.EXPLORE, DENY, DENY],
    [PermissionMode.BYPASS, ALLOW, ALLOW],
  ])('in %s: a read-only command %s, a steering assignment before it %s', async (mode, readOnly, steered) => {
    const bash = bashTool({ sandbox: new ContractSandbox(BASH_AND_READ_ONLY, dir.path) });
    const engine = new PermissionEngine({ mode, workingDirectories: [dir.path], cwd: dir.path });
    expect((await engine.check(bash, { command: 'ls' })).behavior).toBe(readOnly);
    expect((await engine.check(bash, { command: 'PATH=bin; ls' })).behavior).toBe(steered);
  });
});

// These need the sandbox side of the contract (shell, readOnly, capabilities() on every backend).
describe('Bash over UnsafeLocalSandbox (needs the backends\' contract)', () => {
  it('runs bash, and cannot enforce read-only: the verdict stands alone', async () => {
    await using sandbox = new UnsafeLocalSandbox(SandboxPolicy.forWorkspace(dir.path, { writable: true }));
    expect(await (sandbox as Sandbox).capabilities?.()).toEqual({ shells: ['posix', 'bash'], readOnly: false });
    const tools = new Tools().register(bashTool({ sandbox }));
    expect(await tools.execute('Bash', { command: "echo $'a\\tb'" })).toMatchObject({ ok: true, result: 'a\tb' });
    expect(await tools.execute('Bash', { command: 'echo $BASH_VERSION | cut -c1' })).toMatchObject({ ok: true, result: '5' });
  });
});

function enforcementSpecs(make: (policy: SandboxPolicy) => Sandbox): void {
  it('offers bash and read-only runs, and a wrongly judged read-only command cannot write', async () => {
    mkdirSync(join(dir.path, 'sub'));
    writeFileSync(join(dir.path, 'sub', 'data'), 'readable\n');
    await using sandbox = make(SandboxPolicy.forWorkspace(dir.path, { writable: true }));
    expect(await sandbox.capabilities?.()).toMatchObject({ readOnly: true });
    expect((await sandbox.capabilities?.())?.shells).toContain('bash');
    const tools = new Tools().register(wronglyReadOnly(sandbox));
    expect(await tools.execute('Bash', { command: 'cat sub/data' })).toMatchObject({ ok: true, result: 'readable' });
    const write = await tools.execute('Bash', { command: 'echo x > sub/made; touch made2' });
    expect(write.ok).toBe(false);
    expect(existsSync(join(dir.path, 'sub', 'made'))).toBe(false);
    expect(existsSync(join(dir.path, 'made2'))).toBe(false);
    const connect = await tools.execute('Bash', { command: 'exec 3<>/dev/tcp/1.1.1.1/80' });
    expect(connect.ok).toBe(false);
    // Without the wrong verdict the same write goes through: the refusal was the enforcement's.
    expect(await new Tools().register(bashTool({ sandbox })).execute('Bash', { command: 'touch made2' })).toMatchObject({ ok: true });
    expect(existsSync(join(dir.path, 'made2'))).toBe(true);
  });
}

describeWithEngine('bwrap', 'Bash read-only enforcement over BubblewrapSandbox (needs the backends\' contract)', () => {
  enforcementSpecs((policy) => new BubblewrapSandbox(policy));
});

describeWithEngine('docker', 'Bash read-only enforcement over DockerSandbox (needs the backends\' contract)', () => {
  const { host, image } = dockerEngine() ?? { host: 'unix:///engine-not-configured.sock', image: 'not-configured' };
  enforcementSpecs((policy) => new DockerSandbox(image, policy, { connection: host, labels: { 'io.agenttoolkit.spec-run': `bash-run-${process.pid}` } }));
});
