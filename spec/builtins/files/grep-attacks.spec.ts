// Grep as an attacker would use it: patterns, globs, types and paths that try to be ripgrep options, a config file
// in the environment, paths out of the workspace, credential files, and a search that never ends.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { AGENT_STATE, ToolContext, Tools, type ActionResult } from '../../../lib';
import { PermissionEngine, PermissionMode, type PermissionDecision } from '../../../lib/permissions';
import { LocalWorkspace } from '../../../lib/workspace';
import { GrepTool, ripgrepPath, type GrepToolOptions } from '../../../lib/builtins';
import { expectWithinGenerousBound } from '../../support/generous-bound';
import { waitFor } from '../../support/wait-for';

let base: string;
let root: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'builtins-grep-attack-')));
  root = join(base, 'project');
  mkdirSync(root);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function write(files: Record<string, string>, at = root): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(at, path)), { recursive: true });
    writeFileSync(join(at, path), text);
  }
}

function grep(options: Partial<GrepToolOptions> = {}): GrepTool {
  return new GrepTool({ workspace: new LocalWorkspace(root), ...options });
}

async function run(args: Record<string, unknown>, options: Partial<GrepToolOptions> = {}, signal?: AbortSignal): Promise<ActionResult> {
  const tools = new Tools({ context: new ToolContext().provide(AGENT_STATE, {}) }).register(grep(options));
  return tools.execute('Grep', args, signal === undefined ? {} : { signal });
}

describe('option injection: nothing the model writes is read as a ripgrep option', () => {
  let marker: string;
  beforeEach(() => {
    marker = join(base, 'PRE-RAN');
    // A preprocessor that leaves a marker when ripgrep runs it.
    write({ 'pre.sh': `#!/bin/sh\ntouch '${marker}'\ncat "$1"\n`, 'notes.txt': 'the text --pre=./pre.sh and -rf and --files\n' });
    chmodSync(join(root, 'pre.sh'), 0o755);
  });

  it('the marker works: ripgrep run directly with --pre does run the script (so the checks below can fail)', () => {
    execFileSync(ripgrepPath(), ['--pre=./pre.sh', 'text', 'notes.txt'], { cwd: root });
    expect(existsSync(marker)).toBe(true);
  });

  it.each([
    '--pre=./pre.sh', '--pre={root}/pre.sh', '--pre', '-rf', '--files', '--help', '--version', '-e', '--', '-',
    '--search-zip', '-z', '--pre-glob=*', '--type-add=x:*', '--no-config', '-f/etc/passwd', '--ignore-file=/etc/passwd',
  ])('pattern %s is a pattern', async (written) => {
    const pattern = written.replace('{root}', root);
    const result = await run({ pattern, output_mode: 'content' });
    expect(existsSync(marker)).toBe(false);
    // Searched as text: either it is in notes.txt, or nothing matches, or it is an invalid regex: never an option's effect.
    if (result.ok) {
      const text = result.result as string;
      expect(text === `No matches for '${pattern}'.` || text.startsWith('notes.txt:1:') || text.startsWith('pre.sh:')).toBe(true);
    } else {
      expect(result.error).toMatch(/regex/i);
    }
  });

  it('the literal text of an option is found as text', async () => {
    const result = await run({ pattern: '--pre=./pre.sh', output_mode: 'content' });
    expect(result.result).toBe('notes.txt:1:the text --pre=./pre.sh and -rf and --files');
    expect(await run({ pattern: '-rf' })).toMatchObject({ ok: true, result: 'Found 1 file\nnotes.txt' });
  });

  it.each(['--pre=./pre.sh', '-rf', '--files', '--search-zip'])('glob, type and path %s are not options', async (word) => {
    mkdirSync(join(root, word), { recursive: true });
    writeFileSync(join(root, word, 'in.txt'), 'text');
    await run({ pattern: 'text', glob: word });
    await run({ pattern: 'text', path: word });
    await run({ pattern: 'text', path: `./${word}` });
    expect(existsSync(marker)).toBe(false);
    expect(await run({ pattern: 'text', path: word })).toMatchObject({ ok: true, result: `Found 1 file\n${word}/in.txt` });
    expect(await run({ pattern: 'text', type: '--pre' })).toMatchObject({ ok: false });
    expect(await run({ pattern: 'text', type: '--pre=./pre.sh' })).toMatchObject({ ok: false, error: expect.stringMatching(/type/) });
    expect(existsSync(marker)).toBe(false);
  });

  it('a ripgrep config in the workspace does nothing: the environment that could name it is not passed on (see the abort test)', async () => {
    write({ '.ripgreprc': '--pre=./pre.sh\n' });
    execFileSync(ripgrepPath(), ['text', 'notes.txt'], { cwd: root, env: { RIPGREP_CONFIG_PATH: join(root, '.ripgreprc') } });
    expect(existsSync(marker)).toBe(true); // a plain rg told of the config runs the preprocessor
    rmSync(marker);
    expect(await run({ pattern: 'text', output_mode: 'content' })).toMatchObject({ ok: true });
    expect(existsSync(marker)).toBe(false);
  });
});

describe('confinement: the searched path stays inside the workspace', () => {
  beforeEach(() => {
    write({ 'secret.txt': 'OUTSIDE-SECRET' }, base);
    mkdirSync(join(base, 'outdir'));
    writeFileSync(join(base, 'outdir', 'x.txt'), 'OUTSIDE-SECRET');
    write({ 'src/in.txt': 'inside', 'src/deep/in.txt': 'inside' });
    symlinkSync(join(base, 'outdir'), join(root, 'out'));
    symlinkSync(join(base, 'secret.txt'), join(root, 'src', 'notes.txt'));
    symlinkSync('../../outdir', join(root, 'src', 'rel'));
    symlinkSync(join(root, 'src', 'deep'), join(root, 'inlink'));
  });

  it.each([
    '..', '../', '../secret.txt', '../outdir', 'src/../..', 'src/../../secret.txt', './../secret.txt', '/etc', '/etc/passwd', '/',
    '{base}/secret.txt', '{root}/../secret.txt', 'out', 'out/x.txt', 'out/', 'src/notes.txt', 'src/rel', 'src/rel/x.txt', 'inlink/../../secret.txt',
  ])('refuses %s', async (written) => {
    const path = written.replace('{base}', base).replace('{root}', root);
    const result = await run({ pattern: 'SECRET', path });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^Refused: .* is outside the workspace/);
  });

  it('a recursive search does not follow links out (nor in), and a link that stays inside is searched as its target', async () => {
    expect(await run({ pattern: 'SECRET' })).toMatchObject({ ok: true, result: "No matches for 'SECRET'." });
    expect(await run({ pattern: 'inside' })).toMatchObject({ ok: true, result: 'Found 2 files\nsrc/deep/in.txt\nsrc/in.txt' });
    expect(await run({ pattern: 'inside', path: 'inlink' })).toMatchObject({ ok: true, result: 'Found 1 file\nsrc/deep/in.txt' });
    expect(readlinkSync(join(root, 'out'))).toBe(join(base, 'outdir'));
  });

  it('a NUL byte or a link loop in the path fails', async () => {
    symlinkSync('loop', join(root, 'loop'));
    expect((await run({ pattern: 'x', path: 'src\0/..' })).ok).toBe(false);
    expect(await run({ pattern: 'x', path: 'loop' })).toMatchObject({ ok: false, error: expect.stringMatching(/cannot be resolved/) });
  });
});

describe('credential files', () => {
  const SECRETS = ['.env', '.env.local', '.ENV', 'sub/.env.production', '.envrc', '.ssh/id_rsa', 'a/.SSH/key', '.aws/credentials', '.aws/config',
    '.config/gcloud/creds.json', '.azure/token', '.gnupg/key', '.kube/config', '.docker/config.json', '.netrc', 'sub/.npmrc', '.pypirc',
    '.git-credentials', 'secrets.json', 'vault/key'];
  const options = { credentialPaths: { files: ['secrets.json'], directories: ['vault'] } };

  beforeEach(() => write({ ...Object.fromEntries(SECRETS.map((p) => [p, 'TOKEN=1'])), 'src/a.ts': 'TOKEN=1', '.envelope': 'TOKEN=1', 'environment.md': 'TOKEN=1' }));

  it('are left out of every search that does not name them', async () => {
    expect(await run({ pattern: 'TOKEN' }, options)).toMatchObject({ ok: true, result: 'Found 3 files\n.envelope\nenvironment.md\nsrc/a.ts' });
    expect(await run({ pattern: 'TOKEN', path: '.aws' }, options)).toMatchObject({ ok: true, result: "No matches for 'TOKEN' in '.aws'." });
    expect(await run({ pattern: 'TOKEN', path: 'sub' }, options)).toMatchObject({ ok: true, result: "No matches for 'TOKEN' in 'sub'." });
    expect(await run({ pattern: 'TOKEN', glob: '*.ts', output_mode: 'count' }, options)).toMatchObject({ ok: true, result: 'src/a.ts:1\n\n(1 matching line in 1 file.)' });
    expect(await run({ pattern: 'TOKEN', glob: '**' }, options)).toMatchObject({ ok: true, result: 'Found 3 files\n.envelope\nenvironment.md\nsrc/a.ts' });
  });

  it('a workspace whose root is itself inside a credential entry (a root named .aws) still leaves them out', async () => {
    const aws = join(base, '.aws');
    write({ credentials: 'TOKEN=1', 'notes.txt': 'TOKEN=1' }, aws);
    const tools = new Tools({ context: new ToolContext().provide(AGENT_STATE, {}) }).register(new GrepTool({ workspace: new LocalWorkspace(aws) }));
    expect(await tools.execute('Grep', { pattern: 'TOKEN' })).toMatchObject({ ok: true, result: 'Found 1 file\nnotes.txt' });
  });

  async function decide(args: Record<string, unknown>, mode = PermissionMode.DEFAULT): Promise<string> {
    const d: PermissionDecision = await new PermissionEngine({ mode, workingDirectories: [root], cwd: root }).check(grep(options), args);
    return `${d.behavior}/${d.reason.type}${d.bypassImmune ? '/immune' : ''}`;
  }

  it('a search that names them (path or glob) asks, is not bypass-immune, and once allowed finds them', async () => {
    for (const args of [{ path: '.env' }, { path: '.ssh' }, { path: 'a/.SSH' }, { path: 'vault' }, { glob: '.env*' }, { glob: '**/.ssh/**' },
      { glob: '*.npmrc' }, { path: '.aws', glob: 'cred*' }, { glob: 'secrets.json' }, { glob: '.e\\nv' }]) {
      expect([args, await decide({ pattern: 'TOKEN', ...args })]).toEqual([args, 'ask/tool']);
      expect(await decide({ pattern: 'TOKEN', ...args }, PermissionMode.BYPASS)).toBe('allow/mode');
    }
    expect(await run({ pattern: 'TOKEN', path: '.env' }, options)).toMatchObject({ ok: true, result: 'Found 1 file\n.env' });
    expect(await run({ pattern: 'TOKEN', path: '.ssh' }, options)).toMatchObject({ ok: true, result: 'Found 1 file\n.ssh/id_rsa' });
    expect(await run({ pattern: 'TOKEN', glob: '.env*' }, options)).toMatchObject({ ok: true, result: expect.stringContaining('.env.local') });
  });

  it('a glob that matches them without naming them stays read-only, and the exclusions still keep them out', async () => {
    for (const glob of ['secrets.*', '.e*', '*', '.?nv', '**/.[s]sh/*', '*credentials', '*.{json,txt}']) {
      expect(await decide({ pattern: 'TOKEN', glob })).toBe('allow/read_only');
      const result = await run({ pattern: 'TOKEN', glob }, options);
      expect(result.ok).toBe(true);
      for (const secret of SECRETS) expect((result.result as string).split('\n')).not.toContain(secret);
    }
  });

  it('an ordinary search is read-only in every mode', async () => {
    for (const mode of Object.values(PermissionMode)) {
      expect(await decide({ pattern: 'TOKEN' }, mode)).toBe('allow/read_only');
      expect(await decide({ pattern: 'TOKEN', path: 'src', glob: '*.ts' }, mode)).toBe('allow/read_only');
    }
  });

  it('a link with a harmless name that leads to a credential file asks', async () => {
    symlinkSync(join(root, '.env'), join(root, 'notes.txt'));
    expect(await decide({ pattern: 'TOKEN', path: 'notes.txt' })).toBe('ask/tool');
  });

  it('path rules judge the searched path', async () => {
    const engine = (settings: { allow?: string[]; deny?: string[] }) => new PermissionEngine({ mode: PermissionMode.DEFAULT, settings, workingDirectories: [root], cwd: root });
    expect((await engine({ deny: ['Grep(src/**)'] }).check(grep(options), { pattern: 'x', path: 'src/a.ts' })).behavior).toBe('deny');
    expect((await engine({ deny: ['Grep(src/**)'] }).check(grep(options), { pattern: 'x', path: 'lib' })).behavior).toBe('allow');
    expect((await engine({ allow: ['Grep(.env)'] }).check(grep(options), { pattern: 'x', path: '.env' })).behavior).toBe('allow');
  });
});

describe('a search that does not end', () => {
  /** ripgrep processes whose working directory is the workspace root. */
  function rgProcesses(): number[] {
    const found: number[] = [];
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        if (readlinkSync(`/proc/${pid}/cwd`) === root && readlinkSync(`/proc/${pid}/exe`).endsWith('/rg')) found.push(Number(pid));
      } catch { /* gone, or not ours */ }
    }
    return found;
  }

  /** Waits for a state of the ripgrep processes (2 s of polling was too short on a loaded machine). */
  const until = (predicate: () => boolean) => waitFor(predicate, 'the ripgrep processes reach the state awaited');

  beforeEach(() => execFileSync('mkfifo', [join(root, 'pipe')])); // ripgrep blocks opening a pipe nobody writes to

  it('abort kills ripgrep and answers that the search was cancelled', async () => {
    const controller = new AbortController();
    const pending = run({ pattern: 'x', path: 'pipe' }, {}, controller.signal);
    await until(() => rgProcesses().length > 0);
    const running = rgProcesses();
    expect(running).toHaveLength(1); // the adversarial state: ripgrep is blocked
    expect(readFileSync(`/proc/${running[0]}/environ`, 'utf8')).toBe(''); // no RIPGREP_CONFIG_PATH, nothing inherited
    expect(readFileSync(`/proc/${running[0]}/cmdline`, 'utf8').split('\0')).toEqual(expect.arrayContaining(['--no-config', '--regexp=x', '--', 'pipe']));
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: expect.stringMatching(/cancelled/) });
    await until(() => rgProcesses().length === 0);
    expect(rgProcesses()).toEqual([]);
  });

  it('the tool itself answers that the search was cancelled', async () => {
    const controller = new AbortController();
    const pending = grep().call({ pattern: 'x', path: 'pipe' }, { context: new ToolContext(), signal: controller.signal });
    await until(() => rgProcesses().length > 0);
    expect(rgProcesses()).toHaveLength(1);
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: "Grep 'x' in 'pipe' was cancelled." });
    await until(() => rgProcesses().length === 0);
    expect(rgProcesses()).toEqual([]);
  });

  it('a timeout kills ripgrep and says so', async () => {
    // The pipe never ends, so only the timeout can end this call; the processes are then checked gone.
    const result = await expectWithinGenerousBound({ withoutItMs: Infinity, busyMs: 1_500, limitMs: 15_000 }, () => run({ pattern: 'x', path: 'pipe' }, { timeoutMs: 300 }));
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/took longer than 300 ms and was stopped/) });
    await until(() => rgProcesses().length === 0);
    expect(rgProcesses()).toEqual([]);
  });

  it('an already aborted signal starts nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await run({ pattern: 'x', path: 'pipe' }, {}, controller.signal)).toMatchObject({ ok: false });
  });
});
