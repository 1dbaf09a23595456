// How Grep finds and runs ripgrep on each backend: a copy into a container without rg, the clear failure when there
// is none, the rgPath option in a sandbox and a container, cancellation inside the container, option checks.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { AGENT_STATE, ToolContext, Tools, type ActionResult } from '../../../lib';
import { CONTAINER_RIPGREP_PATH, GrepTool, isContainerWorkspace, ripgrepMount, ripgrepPath, SANDBOX_RIPGREP_PATH, type GrepToolOptions } from '../../../lib/builtins';
import { BubblewrapSandbox, SandboxPolicy, UnsafeLocalSandbox } from '../../../lib/sandbox';
import { DockerSandbox, DockerWorkspace, dockerOptionsFromUrl } from '../../../lib/sandbox/docker';
import { LocalWorkspace } from '../../../lib/workspace';
import { shellQuote } from '../../../lib/builtins/files/ripgrep-backends';
import { describeWithEngine, dockerEngine } from '../../sandbox/helpers';

jest.setTimeout(60_000);

const run = (options: GrepToolOptions, args: Record<string, unknown>, signal?: AbortSignal): Promise<ActionResult> =>
  new Tools({ context: new ToolContext().provide(AGENT_STATE, {}) }).register(new GrepTool(options)).execute('Grep', args, signal === undefined ? {} : { signal });

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'grep-backends-')));
  mkdirSync(join(dir, 'project'));
  writeFileSync(join(dir, 'project', 'a.txt'), "needle it's here\n");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('options and the sandbox port', () => {
  it('binds the binary @vscode/ripgrep ships read-only at the sandbox path', () => {
    expect(ripgrepMount()).toMatchObject({ source: ripgrepPath(), target: SANDBOX_RIPGREP_PATH, readOnly: true });
    expect(ripgrepMount('/usr/bin/rg').source).toBe('/usr/bin/rg');
  });

  it('quotes every word for the shell so that it stands for itself', () => {
    expect(shellQuote("it's $(id) `x` \"y\" \\ *")).toBe("'it'\\''s $(id) `x` \"y\" \\ *'");
  });

  it('refuses a sandbox with a workspace that is not local', async () => {
    const workspace = new DockerWorkspace('unused-container', { connection: 'unix:///nowhere.sock' });
    expect(isContainerWorkspace(workspace)).toBe(true);
    expect(isContainerWorkspace(new LocalWorkspace(dir))).toBe(false);
    await using sandbox = new UnsafeLocalSandbox(new SandboxPolicy({ workingDirectory: dir }));
    expect(() => new GrepTool({ workspace, sandbox })).toThrow(expect.objectContaining({ code: 'INVALID_BUILTIN_OPTION' }));
  });

  it('runs through any sandbox; an rgPath missing there is RIPGREP_NOT_FOUND; a sandbox failure is a failed result', async () => {
    await using sandbox = new UnsafeLocalSandbox(new SandboxPolicy({ workingDirectory: dir, readablePaths: [dir] }));
    const workspace = new LocalWorkspace(join(dir, 'project'));
    expect(await run({ workspace, sandbox, rgPath: ripgrepPath() }, { pattern: "it's", output_mode: 'content' })).toMatchObject({ ok: true, result: "a.txt:1:needle it's here" });
    expect(await run({ workspace, sandbox, rgPath: '/no/such/rg' }, { pattern: 'needle' }))
      .toMatchObject({ ok: false, error: "RIPGREP_NOT_FOUND: Grep found no ripgrep at '/no/such/rg' in the sandbox. Bind it into the sandbox (mounts: [ripgrepMount()]) or install ripgrep where the sandbox sees it." });
    const outside = new UnsafeLocalSandbox(new SandboxPolicy({ workingDirectory: '/usr', readablePaths: ['/usr'] }));
    const refused = await run({ workspace, sandbox: outside }, { pattern: 'needle' });
    expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/^Grep could not run in the sandbox: CWD_INVALID/) });
    await outside.close();
  });

  it('cancellation and the timeout stop a search in a sandbox', async () => {
    await using sandbox = new UnsafeLocalSandbox(new SandboxPolicy({ workingDirectory: dir, readablePaths: [dir] }));
    const workspace = new LocalWorkspace(join(dir, 'project'));
    // A script in rg's place that never ends: the search can only end by being stopped.
    writeFileSync(join(dir, 'slow-rg'), '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    expect(await run({ workspace, sandbox, rgPath: join(dir, 'slow-rg') }, { pattern: 'x' }, controller.signal)).toMatchObject({ ok: false });
    expect(await run({ workspace, sandbox, rgPath: join(dir, 'slow-rg'), timeoutMs: 300 }, { pattern: 'x' }))
      .toMatchObject({ ok: false, error: "Grep 'x' took longer than 300 ms and was stopped. Narrow the path, glob or type." });
  });
});

describe("the sandbox's own limits", () => {
  it("a search past the sandbox's output limit says the total is unknown; past its time limit, that it was stopped", async () => {
    for (let i = 0; i < 40; i++) writeFileSync(join(dir, 'project', `f${String(i).padStart(2, '0')}.txt`), 'needle\n');
    const workspace = new LocalWorkspace(join(dir, 'project'));
    await using small = new UnsafeLocalSandbox(new SandboxPolicy({ workingDirectory: dir, readablePaths: [dir], limits: { maxOutputBytes: 100 } }));
    const cut = await run({ workspace, sandbox: small, rgPath: ripgrepPath() }, { pattern: 'needle' });
    expect(cut).toMatchObject({ ok: true, result: expect.stringMatching(/^Found at least \d+ files\n[\s\S]*ripgrep printed too much and was stopped, so the total is unknown/) });
    writeFileSync(join(dir, 'slow-rg'), '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
    await using slow = new UnsafeLocalSandbox(new SandboxPolicy({ workingDirectory: dir, readablePaths: [dir], limits: { timeoutMs: 300 } }));
    expect(await run({ workspace, sandbox: slow, rgPath: join(dir, 'slow-rg') }, { pattern: 'x' }))
      .toMatchObject({ ok: false, error: expect.stringMatching(/^Grep 'x' took longer than/) });
  });
});

describeWithEngine('bwrap', 'Grep in a BubblewrapSandbox', () => {
  it('finds no ripgrep where none is bound and says how to bind one', async () => {
    await using sandbox = new BubblewrapSandbox(new SandboxPolicy({ workingDirectory: dir, readablePaths: [dir] }));
    const result = await run({ workspace: new LocalWorkspace(join(dir, 'project')), sandbox, rgPath: '/opt/none/rg' }, { pattern: 'needle' });
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/^RIPGREP_NOT_FOUND: .*mounts: \[ripgrepMount\(\)\]/) });
  });
});

describeWithEngine('docker', 'Grep in containers', () => {
  const { host, image } = dockerEngine() ?? { host: 'unix:///engine-not-configured.sock', image: 'not-configured' };
  const docker = new Docker(dockerOptionsFromUrl(host));
  let plain: Docker.Container;
  let count = 0;
  beforeAll(async () => {
    // A container with a writable root and no rg of its own (the busybox test image has none).
    plain = await docker.createContainer({ Image: image, Cmd: ['sleep', '100000'], HostConfig: { NetworkMode: 'none' } });
    await plain.start();
  });
  afterAll(async () => {
    await plain?.remove({ force: true });
  });

  const fresh = async (options: Partial<GrepToolOptions> = {}) => {
    const workspace = new DockerWorkspace(plain, { root: `/grep/t${++count}` });
    await workspace.writeFile('a.txt', "needle it's here\n");
    return { workspace, grep: (args: Record<string, unknown>, signal?: AbortSignal) => run({ workspace, ...options }, args, signal) };
  };

  it('copies the host ripgrep into a container without one, once, and searches there', async () => {
    const { workspace, grep } = await fresh();
    await plain.exec({ Cmd: ['rm', '-f', CONTAINER_RIPGREP_PATH] }).then((e) => e.start({}));
    expect(await grep({ pattern: "it's", output_mode: 'content' })).toMatchObject({ ok: true, result: "a.txt:1:needle it's here" });
    const listed = await workspace.execArgv(['ls', '-l', CONTAINER_RIPGREP_PATH]);
    expect(listed.stdout.toString()).toMatch(/^-rwxr-xr-x/);
    expect(await grep({ pattern: 'needle' })).toMatchObject({ ok: true, result: 'Found 1 file\na.txt' });
  });

  it('runs an rgPath given in the container, and says so when it is missing', async () => {
    const { grep } = await fresh({ rgPath: CONTAINER_RIPGREP_PATH });
    expect(await (await fresh()).grep({ pattern: 'needle' })).toMatchObject({ ok: true }); // makes sure the copy exists
    expect(await grep({ pattern: 'needle' })).toMatchObject({ ok: true, result: 'Found 1 file\na.txt' });
    const missing = await fresh({ rgPath: '/opt/none/rg' });
    expect(await missing.grep({ pattern: 'needle' })).toMatchObject({ ok: false, error: expect.stringMatching(/^RIPGREP_NOT_FOUND: Grep could not run ripgrep at '\/opt\/none\/rg' in the container: .*not found/) });
  });

  it('kills ripgrep inside the container on cancellation and on timeout', async () => {
    const { workspace, grep } = await fresh();
    await workspace.execArgv(['mkfifo', 'pipe']); // ripgrep blocks reading a FIFO nobody writes
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    // The registry may answer for the tool as soon as the signal fires; the tool kills ripgrep either way.
    expect(await grep({ pattern: 'x', path: 'pipe' }, controller.signal)).toMatchObject({ ok: false, error: expect.stringMatching(/was cancelled/) });
    const timed = await fresh({ timeoutMs: 500 });
    await timed.workspace.execArgv(['mkfifo', 'pipe']);
    expect(await timed.grep({ pattern: 'x', path: 'pipe' })).toMatchObject({ ok: false, error: "Grep 'x' in 'pipe' took longer than 500 ms and was stopped. Narrow the path, glob or type." });
    const running = async () => (await workspace.execArgv(['/bin/sh', '-c', 'ps -o args | grep -c "[r]egexp=x" || true'])).stdout.toString().trim();
    for (let i = 0; i < 50 && (await running()) !== '0'; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await running()).toBe('0');
  });

  it('in a DockerSandbox container with a read-only root and no ripgrep bound in: a clear RIPGREP_NOT_FOUND', async () => {
    const sandbox = new DockerSandbox(image, new SandboxPolicy({ workingDirectory: dir, writablePaths: [dir] }), { connection: host });
    try {
      const workspace = new DockerWorkspace(sandbox, { connection: host });
      await workspace.writeFile('a.txt', 'needle\n');
      const result = await run({ workspace }, { pattern: 'needle' });
      expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/^RIPGREP_NOT_FOUND: Grep found no ripgrep in the container, and a copy of the host's could not run there \(.+\)\. Install ripgrep in the image/) });
    } finally {
      await sandbox.close();
    }
  });

  it('an unreachable container is a failed result', async () => {
    const workspace = new DockerWorkspace('agenttoolkit-no-such-container', { connection: host });
    expect(await run({ workspace }, { pattern: 'x' })).toMatchObject({ ok: false, error: expect.stringMatching(/^Grep could not reach the workspace: IO_ERROR/) });
  });
});
