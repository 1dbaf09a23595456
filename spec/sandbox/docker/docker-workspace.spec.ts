import { readFileSync } from 'node:fs';
import Docker from 'dockerode';
import { SandboxPolicy } from '../../../lib/sandbox';
import { DockerSandbox, DockerWorkspace, dockerOptionsFromUrl } from '../../../lib/sandbox/docker';
import { runArgv } from '../../../lib/sandbox/docker/docker-workspace-exec';
import type { Workspace } from '../../../lib/workspace';
import { describeWithEngine, dockerEngine, tempDir, uniqueSleep, watchSleepers } from '../helpers';

const codeOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(() => 'resolved', (error: { code?: string }) => error.code ?? error);

describeWithEngine('docker', 'DockerWorkspace (real Docker engine, no shared disk)', () => {
  // Without an engine the suite is skipped (or failed in CI) by describeWithEngine; these placeholders only let it load.
  const { host, image } = dockerEngine() ?? { host: 'unix:///engine-not-configured.sock', image: 'not-configured' };
  const docker = new Docker(dockerOptionsFromUrl(host));
  let container: Docker.Container;
  let count = 0;
  let root: string;
  let ws: DockerWorkspace;
  /** Runs a program in the container, as an attacker inside it would. */
  const sh = async (script: string, ...args: string[]): Promise<string> => {
    const result = await runArgv(container, ['/bin/sh', '-c', script, 'sh', ...args], undefined);
    if (result.exitCode !== 0) throw new Error(`script failed (${String(result.exitCode)}): ${result.stderr}`);
    return result.stdout.toString('utf8');
  };

  beforeAll(async () => {
    // A plain container with no bind mount: every byte goes through the engine's API, as with a remote engine.
    container = await docker.createContainer({ Image: image, Cmd: ['sleep', '100000'], HostConfig: { AutoRemove: false, NetworkMode: 'none' } });
    await container.start();
  });
  afterAll(async () => {
    await container?.remove({ force: true });
  });
  beforeEach(async () => {
    root = `/data/w${++count}`;
    ws = new DockerWorkspace(container, { root });
    await sh('mkdir -p "$1" "$1-evil" && echo secret > "$1-evil/secret" && mkdir -p /outside && echo outside > /outside/secret', root);
  });

  describe('round trips', () => {
    it('writes and reads text and bytes, creating missing folders', async () => {
      await ws.writeFile('src/deep/a.ts', 'export const a = 1;\n');
      expect(await ws.readFile('src/deep/a.ts')).toBe('export const a = 1;\n');
      expect(await sh('cat "$1/src/deep/a.ts"', root)).toBe('export const a = 1;\n');
      const bytes = new Uint8Array([0, 255, 10, 13, 0x80, 1]);
      await ws.writeBytes('bin/data.bin', bytes);
      expect(Buffer.from(await ws.readBytes('bin/data.bin'))).toEqual(Buffer.from(bytes));
      await ws.writeFile(`${root}/abs.txt`, 'absolute inside');
      expect(await ws.readFile('abs.txt')).toBe('absolute inside');
      await ws.writeFile('empty.txt', '');
      expect(await ws.readFile('empty.txt')).toBe('');
    });

    it('replaces a file atomically and keeps its permission bits', async () => {
      await ws.writeFile('run.sh', 'old');
      await sh('chmod 750 "$1/run.sh"', root);
      await ws.writeFile('run.sh', 'new');
      expect(await ws.readFile('run.sh')).toBe('new');
      expect((await sh('stat -c %a "$1/run.sh"', root)).trim()).toBe('750');
      expect((await sh('ls -A "$1"', root)).trim()).toBe('run.sh'); // no temporary file left behind
    });

    it('edits once, all occurrences, and refuses ambiguous or missing text', async () => {
      await ws.writeFile('e.txt', 'one two two');
      expect(await ws.editFile('e.txt', 'one', '1')).toBe(1);
      expect(await codeOf(ws.editFile('e.txt', 'two', '2'))).toBe('AMBIGUOUS_MATCH');
      expect(await codeOf(ws.editFile('e.txt', 'three', '3'))).toBe('TEXT_NOT_FOUND');
      expect(await codeOf(ws.editFile('e.txt', '', '3'))).toBe('INVALID_ARGUMENT');
      expect(await codeOf(ws.editFile('e.txt', 'x', 3 as unknown as string))).toBe('INVALID_ARGUMENT');
      expect(await ws.editFile('e.txt', 'two', '$&2', { replaceAll: true })).toBe(2);
      expect(await ws.readFile('e.txt')).toBe('1 $&2 $&2');
    });

    it('lists, describes and globs with the local semantics', async () => {
      await ws.writeFile('src/a.ts', 'a');
      await ws.writeFile('src/b.js', 'bb');
      await ws.writeFile('.env', 'x');
      await sh('ln -s a.ts "$1/src/link.ts" && mkdir "$1/src/sub"', root);
      const listed = await ws.listDir('src');
      expect(listed.map((e) => [e.path, e.isDirectory, e.isSymlink, e.size])).toEqual([
        ['src/a.ts', false, false, 1], ['src/b.js', false, false, 2], ['src/link.ts', false, true, null], ['src/sub', true, false, null],
      ]);
      expect((await ws.listDir()).map((e) => e.path)).toEqual(['.env', 'src']);
      const file = await ws.stat('src/b.js');
      expect(file).toMatchObject({ path: 'src/b.js', isDirectory: false, isSymlink: false, size: 2 });
      expect(Math.floor(file!.modifiedMs / 1000)).toBe(Number(await sh('stat -c %Y "$1/src/b.js"', root)));
      expect(await ws.stat('src/link.ts')).toMatchObject({ path: 'src/link.ts', isSymlink: true, size: 1 });
      expect(await ws.stat('.')).toMatchObject({ path: '.', isDirectory: true });
      expect(await ws.stat('missing/x')).toBeNull();
      expect(await ws.stat('src/a.ts/x')).toBeNull();
      expect((await ws.glob('**/*.ts')).map((e) => e.path)).toEqual(['src/a.ts']); // links are not listed
      expect((await ws.glob('*')).map((e) => e.path)).toEqual(['src']);
      expect((await ws.glob('*', { dot: true })).map((e) => e.path)).toEqual(['.env', 'src']);
      expect((await ws.glob('src/{a,b}.*')).map((e) => e.path)).toEqual(['src/a.ts', 'src/b.js']);
    });
  });

  describe('errors carry the LocalWorkspace codes', () => {
    it.each([
      ['readFile missing', (w: Workspace) => w.readFile('nope.txt'), 'NOT_FOUND'],
      ['readFile under a missing folder', (w: Workspace) => w.readFile('no/such/file'), 'NOT_FOUND'],
      ['readFile of a folder', (w: Workspace) => w.readFile('dir'), 'NOT_A_FILE'],
      ['readFile of the root', (w: Workspace) => w.readFile('.'), 'NOT_A_FILE'],
      ['readFile through a file', (w: Workspace) => w.readFile('file.txt/x'), 'NOT_A_DIRECTORY'],
      ['readFile of binary', (w: Workspace) => w.readFile('bin'), 'NOT_TEXT'],
      ['readFile of a FIFO', (w: Workspace) => w.readFile('fifo'), 'NOT_A_FILE'],
      ['writeFile over a folder', (w: Workspace) => w.writeFile('dir', 'x'), 'NOT_A_FILE'],
      ['writeFile to the root', (w: Workspace) => w.writeFile('.', 'x'), 'NOT_A_FILE'],
      ['writeFile under a file', (w: Workspace) => w.writeFile('file.txt/x', 'x'), 'NOT_A_DIRECTORY'],
      ['writeFile without overwrite', (w: Workspace) => w.writeFile('file.txt', 'x', { overwrite: false }), 'ALREADY_EXISTS'],
      ['writeFile of bytes', (w: Workspace) => w.writeFile('x', new Uint8Array(1) as unknown as string), 'INVALID_ARGUMENT'],
      ['writeBytes of text', (w: Workspace) => w.writeBytes('x', 'x' as unknown as Uint8Array), 'INVALID_ARGUMENT'],
      ['listDir of a file', (w: Workspace) => w.listDir('file.txt'), 'NOT_A_DIRECTORY'],
      ['listDir missing', (w: Workspace) => w.listDir('gone'), 'NOT_FOUND'],
      ['editFile missing', (w: Workspace) => w.editFile('gone', 'a', 'b'), 'NOT_FOUND'],
      ['a NUL byte', (w: Workspace) => w.readFile('a\0b'), 'INVALID_PATH'],
      ['not a string', (w: Workspace) => w.stat(42 as unknown as string), 'INVALID_PATH'],
      ['a glob with NUL', (w: Workspace) => w.glob('a\0*'), 'INVALID_PATH'],
    ])('%s', async (_name, call, code) => {
      await sh('cd "$1" && mkdir dir && echo hi > file.txt && printf "\\377\\376" > bin && mkfifo fifo', root);
      expect(await codeOf(call(ws))).toBe(code);
    });

    it('creates a new file with overwrite false, once', async () => {
      await ws.writeFile('once.txt', 'first', { overwrite: false });
      expect(await codeOf(ws.writeFile('once.txt', 'second', { overwrite: false }))).toBe('ALREADY_EXISTS');
      expect(await ws.readFile('once.txt')).toBe('first');
      expect((await sh('ls -A "$1"', root)).trim()).toBe('once.txt');
    });

    it('refuses bad options and reports an engine failure as IO_ERROR', async () => {
      expect(() => new DockerWorkspace(container, { maxFileSize: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
      expect(() => new DockerWorkspace(container, { root: 'relative' })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
      const gone = new DockerWorkspace('agenttoolkit-no-such-container', { connection: host });
      expect(await codeOf(gone.readFile('x'))).toBe('IO_ERROR');
    });
  });

  describe('confinement (attacks)', () => {
    it.each([
      '../w-evil/secret', '../../outside/secret', 'a/../../x', './../x', 'a/b/../../../x', '/outside/secret', '/etc/passwd',
      // a sibling whose name starts with the root's: only isWithin, not a string prefix, tells them apart
      '-evil/secret',
    ])('refuses %j for every method', async (raw) => {
      const path = raw === '-evil/secret' ? `${root}-evil/secret` : raw;
      for (const call of [
        () => ws.readFile(path), () => ws.readBytes(path), () => ws.writeFile(path, 'pwned'), () => ws.writeBytes(path, new Uint8Array(1)),
        () => ws.editFile(path, 'secret', 'pwned'), () => ws.listDir(path), () => ws.stat(path),
      ]) expect(await codeOf(call())).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await sh('cat "$1-evil/secret" /outside/secret', root)).toBe('secret\noutside\n');
    });

    it.each([
      ['an absolute link to a folder', 'ln -s /outside "$1/link"', 'link/secret'],
      ['a relative link climbing out', 'ln -s ../../outside "$1/link"', 'link/secret'],
      ['a link to a file', 'ln -s /outside/secret "$1/link"', 'link'],
      ['a chain of links', 'ln -s /outside "$1/hop2" && ln -s hop2 "$1/link"', 'link/secret'],
      ['a link in a sub folder', 'mkdir "$1/sub" && ln -s ../../../outside "$1/sub/link"', 'sub/link/secret'],
      ['a link to the sibling with the root prefix', 'ln -s "$1-evil" "$1/link"', 'link/secret'],
    ])('refuses %s made inside the container', async (_name, make, path) => {
      await sh(make, root);
      for (const call of [
        () => ws.readFile(path), () => ws.writeFile(path, 'pwned'), () => ws.editFile(path, 'secret', 'pwned'), () => ws.stat(path),
      ]) expect(await codeOf(call())).toBe('PATH_OUTSIDE_WORKSPACE');
      const folder = path.replace(/\/secret$/, '');
      if (folder !== path) {
        expect(await codeOf(ws.listDir(folder))).toBe('PATH_OUTSIDE_WORKSPACE');
        expect(await codeOf(ws.writeFile(`${folder}/planted`, 'pwned'))).toBe('PATH_OUTSIDE_WORKSPACE');
      }
      expect(await sh('cat /outside/secret "$1-evil/secret"; ls /outside; ls "$1-evil"', root)).toBe('outside\nsecret\nsecret\nsecret\n');
      // glob neither follows nor lists links
      expect((await ws.glob('**/*', { dot: true })).map((e) => e.path).filter((p) => p.includes('secret'))).toEqual([]);
    });

    it('follows links that stay inside the root', async () => {
      await ws.writeFile('real/target.txt', 'inside');
      await sh('ln -s real "$1/alias" && ln -s "$1/real/target.txt" "$1/abs-alias"', root);
      expect(await ws.readFile('alias/target.txt')).toBe('inside');
      expect(await ws.readFile('abs-alias')).toBe('inside');
      await ws.writeFile('alias/target.txt', 'changed');
      expect(await sh('cat "$1/real/target.txt"', root)).toBe('changed');
      expect((await sh('[ -L "$1/abs-alias" ] && echo link', root)).trim()).toBe('link');
    });

    it('refuses a link loop without hanging', async () => {
      await sh('ln -s b "$1/a" && ln -s a "$1/b"', root);
      expect(await codeOf(ws.readFile('a'))).toBe('NOT_FOUND');
      expect(await ws.stat('a/x')).toBeNull();
    });

    it.each(['../*', '../**/secret', '{..,a}/*', 'a/{x,..}/*', '\\.\\./*', '/outside/*', '/etc/passwd'])('refuses the glob pattern %j', async (pattern) => {
      expect(await codeOf(ws.glob(pattern))).toBe('PATH_OUTSIDE_WORKSPACE');
    });

    it.each([
      '-rf', '--help', '-', 'a b', ' lead', 'trail ', 'new\nline', 'ends-with-newline\n', 'tab\there', '$(touch pwned)', '`id`', "quote'd", 'semi;colon', '*', 'back\\slash', 'ünïcødé ✓',
    ])('keeps the name %j intact', async (name) => {
      await ws.writeFile(name, `content of ${name}`);
      expect(await ws.readFile(name)).toBe(`content of ${name}`);
      expect(await ws.editFile(name, 'content', 'text')).toBe(1);
      expect((await ws.listDir()).map((e) => e.path)).toEqual([name]);
      expect((await ws.glob('*', { dot: true })).map((e) => e.path)).toEqual([name]);
      expect(await ws.stat(name)).toMatchObject({ path: name, size: Buffer.byteLength(`text of ${name}`) });
      await ws.writeFile(`dir ${name}/inner`, 'x');
      expect(await ws.readFile(`dir ${name}/inner`)).toBe('x');
      // nothing was run: no file appeared anywhere else
      expect(await sh('find / -name pwned -o -name "*.tmp" 2>/dev/null | grep -v ^/proc || true')).toBe('');
    });
  });

  describe('concurrent changes', () => {
    it('refuses an edit when the file changed after it was read (the change is observed, then refused)', async () => {
      await ws.writeFile('busy.log', 'MARKER\n');
      // A writer inside the container appends without pause until told to stop.
      const writer = await container.exec({ Cmd: ['/bin/sh', '-c', 'while [ ! -e "$1.stop" ]; do echo x >> "$1"; done', 'sh', `${root}/busy.log`] });
      const attached = (await writer.start({ hijack: true, stdin: false })) as NodeJS.ReadableStream & { destroy(): void };
      attached.resume();
      const outcomes: unknown[] = [];
      try {
        for (let i = 0; i < 5; i++) outcomes.push(await codeOf(ws.editFile('busy.log', 'MARKER', 'EDITED')));
      } finally {
        await sh('touch "$1/busy.log.stop"', root);
        while ((await writer.inspect()).Running) await new Promise((resolve) => setTimeout(resolve, 20));
        attached.destroy();
      }
      // Every edit raced the writer; each one must have been refused, none may have dropped the appended lines.
      expect(outcomes).toEqual(Array(5).fill('PATH_CHANGED'));
      expect((await sh('head -1 "$1/busy.log"', root)).trim()).toBe('MARKER');
    });
  });

  describe('size limit', () => {
    it('refuses reads, writes and edits over maxFileSize', async () => {
      const small = new DockerWorkspace(container, { root, maxFileSize: 16 });
      expect(await codeOf(small.writeFile('big', 'x'.repeat(17)))).toBe('FILE_TOO_LARGE');
      expect(await codeOf(small.writeBytes('big', new Uint8Array(17)))).toBe('FILE_TOO_LARGE');
      await small.writeFile('fits', 'x'.repeat(16));
      await sh('head -c 17 /dev/zero > "$1/over"', root);
      expect(await codeOf(small.readBytes('over'))).toBe('FILE_TOO_LARGE');
      expect(await codeOf(small.editFile('fits', 'x', 'yy', { replaceAll: true }))).toBe('FILE_TOO_LARGE');
      expect(await small.readFile('fits')).toBe('x'.repeat(16));
      expect(new DockerWorkspace(container).maxFileSize).toBe(10 * 1024 * 1024);
    });
  });

  describe('the user option: helper commands run as that user', () => {
    const nobody = '65534:65534';
    beforeEach(async () => {
      await sh('cd "$1" && echo original > file.txt && mkdir -p locked private && echo hidden > private/f && chmod 700 private', root);
    });

    it('reports a root it may not create as IO_ERROR, with the engine\'s reason', async () => {
      const ws = new DockerWorkspace(container, { root: `${root}/locked/inner`, user: nobody });
      const error = (await ws.readFile('x').catch((e: unknown) => e)) as { code?: string; message: string };
      expect(error.code).toBe('IO_ERROR');
      expect(error.message).toMatch(/create the workspace root[\s\S]*Permission denied/);
    });

    it('reports folders it may not create, a file it may not replace and a folder it may not list as IO_ERROR', async () => {
      const ws = new DockerWorkspace(container, { root, user: nobody });
      expect(await ws.readFile('file.txt')).toBe('original\n');
      expect(await codeOf(ws.writeFile('sub/new.txt', 'x'))).toBe('IO_ERROR');
      // The engine extracts the upload as its own user; committing it as nobody fails and leaves the file as it was.
      const error = (await ws.writeFile('file.txt', 'changed').catch((e: unknown) => e)) as { code?: string; message: string };
      expect(error.code).toBe('IO_ERROR');
      expect(error.message).toMatch(/write/);
      expect(await sh('cat "$1/file.txt"', root)).toBe('original\n');
      expect(await codeOf(ws.listDir('private'))).toBe('IO_ERROR');
      expect((await ws.execArgv(['id', '-u'])).stdout.toString().trim()).toBe('65534');
    });
  });

  describe('more outcomes with the LocalWorkspace codes', () => {
    it('creates a new file once when writers race with overwrite false', async () => {
      const outcomes = await Promise.all([1, 2, 3, 4, 5].map((n) => codeOf(ws.writeFile('race.txt', `writer ${n}`, { overwrite: false }))));
      expect(outcomes.filter((o) => o === 'resolved')).toHaveLength(1);
      expect(outcomes.filter((o) => o !== 'resolved')).toEqual(Array(4).fill('ALREADY_EXISTS'));
      expect(await ws.readFile('race.txt')).toMatch(/^writer [1-5]$/);
      expect((await sh('ls -A "$1"', root)).trim()).toBe('race.txt'); // the losers' uploads were removed
    });

    it('answers null for a missing file, NOT_TEXT for an edit of binary, NOT_A_FILE for a device, INVALID_PATH for null', async () => {
      await sh('cd "$1" && printf "\\377\\376" > bin && mknod dev c 1 3', root);
      expect(await ws.stat('nope.txt')).toBeNull();
      expect(await codeOf(ws.editFile('bin', 'a', 'b'))).toBe('NOT_TEXT');
      const device = (await ws.readFile('dev').catch((e: unknown) => e)) as { code?: string; message: string };
      expect(device.code).toBe('NOT_A_FILE');
      expect(device.message).toContain('a device');
      expect(await codeOf(ws.stat(null as unknown as string))).toBe('INVALID_PATH');
    });

    it('works with the container\'s / as its root', async () => {
      const whole = new DockerWorkspace(container, { root: '/' });
      await whole.writeFile(`${root.slice(1)}/from-slash.txt`, 'slash');
      expect(await ws.readFile('from-slash.txt')).toBe('slash');
      expect(await whole.stat('etc')).toMatchObject({ path: 'etc', isDirectory: true });
      expect((await whole.listDir()).map((e) => e.path)).toEqual(expect.arrayContaining(['bin', 'etc', 'data']));
      expect((await whole.listDir('etc')).map((e) => e.path)).toContain('etc/passwd');
    });
  });

  describe('resolve and execArgv', () => {
    it('resolves inside the root and refuses links that lead out', async () => {
      await sh('mkdir "$1/real" && ln -s real "$1/alias" && ln -s /outside "$1/out"', root);
      expect(await ws.resolve('alias/new.txt')).toBe(`${root}/real/new.txt`);
      expect(await ws.resolve('.')).toBe(root);
      expect(await codeOf(ws.resolve('out/secret'))).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await codeOf(ws.resolve('../x'))).toBe('PATH_OUTSIDE_WORKSPACE');
    });

    it('runs argv in the root, passes stdin and keeps every word intact', async () => {
      const run = await ws.execArgv(['/bin/sh', '-c', 'pwd; cat; printf "[%s]" "$@"', 'sh', '$(id)', 'a b', '-n']);
      expect(run).toMatchObject({ exitCode: 0, stderr: '' });
      expect(run.stdout.toString()).toBe(`${root}\n[$(id)][a b][-n]`);
      const piped = await ws.execArgv(['cat'], { stdin: new Uint8Array([104, 105]), cwd: '/' });
      expect(piped.stdout.toString()).toBe('hi');
      expect((await ws.execArgv(['/bin/sh', '-c', 'echo oops >&2; exit 3'])).exitCode).toBe(3);
    });

    it('kills the program inside the container when the signal fires or its output passes the cap', async () => {
      const controller = new AbortController();
      // Aborted once the program runs (its process is visible on the engine's host), not after a fixed delay: under
      // load the exec may not have started 300 ms later, and then there is no program to kill (exitCode null).
      const marker = uniqueSleep();
      const { seen, outcome } = await watchSleepers(marker, ws.execArgv(['sleep', marker], { signal: controller.signal }), () => controller.abort());
      expect(seen.length).toBeGreaterThan(0);
      expect(outcome).toMatchObject({ status: 'fulfilled', value: { stopped: 'abort', exitCode: 137 } });
      expect(await ws.execArgv(['true'], { signal: AbortSignal.abort() })).toMatchObject({ stopped: 'abort', exitCode: null });
      // Aborted while the exec is being created (runArgv checks the signal synchronously first): the program is
      // killed as soon as its pid is known.
      const early = new AbortController();
      const pending = runArgv(container, ['sleep', '30'], { signal: early.signal });
      early.abort();
      expect(await pending).toMatchObject({ stopped: 'abort', exitCode: 137 });
      const capped = await ws.execArgv(['yes', 'y'], { maxOutputBytes: 1000 });
      expect(capped.stopped).toBe('output');
      expect(capped.stdout.toString()).toBe('y\n'.repeat(500));
      const quiet = await ws.execArgv(['echo', 'ok'], { maxOutputBytes: 1000, signal: new AbortController().signal });
      expect(quiet).toMatchObject({ exitCode: 0 });
      expect(quiet.stdout.toString()).toBe('ok\n');
      expect(await sh('ps | grep -c "[s]leep 30\\|[y]es y" || true')).toBe('0\n');
    });

    it.each([[[]], [['a\0b']], [[1]], ['sh']])('refuses the argv %j', async (argv) => {
      expect(await codeOf(ws.execArgv(argv as unknown as string[]))).toBe('INVALID_ARGUMENT');
    });

    it('reports an engine failure as IO_ERROR', async () => {
      const gone = new DockerWorkspace('agenttoolkit-no-such-container', { connection: host });
      expect(await codeOf(gone.execArgv(['true']))).toBe('IO_ERROR');
    });
  });

  describe('sharing a DockerSandbox container', () => {
    it('writes where the sandbox commands see the file, and reads what they wrote', async () => {
      const dir = tempDir();
      const sandbox = new DockerSandbox(image, new SandboxPolicy({ workingDirectory: dir.path, writablePaths: [dir.path] }), { connection: host });
      try {
        const shared = new DockerWorkspace(sandbox, { connection: host });
        await shared.writeFile('from-workspace.txt', 'hello');
        expect((await sandbox.execute('cat /workspace/from-workspace.txt')).stdout).toBe('hello');
        await sandbox.execute('echo from sandbox > /workspace/out.txt');
        expect(await shared.readFile('out.txt')).toBe('from sandbox\n');
        expect(readFileSync(`${dir.path}/from-workspace.txt`, 'utf8')).toBe('hello');
      } finally {
        await sandbox.close();
        dir.remove();
      }
    });
  });
});
