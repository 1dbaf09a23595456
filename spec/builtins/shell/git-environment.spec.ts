/**
 * The Bash tool's hardened environment against git 2.39's real behaviour, in repositories whose configuration a model
 * could have written: what the environment closes (fsmonitor, the pager, external diff, a folder taken as a bare
 * repository) and what it cannot (textconv drivers), which therefore stays out of the read-only set.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASH_ENVIRONMENT, analyzeCommand, isReadOnlyCommand } from '../../../lib/builtins';
import { tempDir } from '../../sandbox/helpers';

const gitMissing = spawnSync('git', ['--version']).status !== 0 || spawnSync('script', ['-qec', 'true', '/dev/null']).status !== 0;

let dir: ReturnType<typeof tempDir>;
beforeEach(() => (dir = tempDir('agenttoolkit-git-env-')));
afterEach(() => dir.remove());

/** Runs `command` in bash on a terminal (script(1)), as git starts its pager only there. */
function run(command: string, hardened: boolean): void {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir.path, TERM: 'dumb', ...(hardened ? BASH_ENVIRONMENT : {}) };
  spawnSync('script', ['-qec', command, '/dev/null'], { cwd: dir.path, env, stdio: 'ignore', timeout: 20_000 });
}

function marker(name: string): string {
  return join(dir.path, `ran-${name}`);
}

/** A work tree with one changed file, whose configuration names a program for each hook git offers. */
function repository(): void {
  const git = (...args: string[]) => spawnSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd: join(dir.path, 'r'), stdio: 'ignore' });
  mkdirSync(join(dir.path, 'r'));
  git('init', '-q');
  writeFileSync(join(dir.path, 'r', 'a'), 'one\n');
  git('add', 'a');
  git('commit', '-qm', 'a');
  writeFileSync(join(dir.path, 'r', 'a'), 'one\ntwo\n');
  writeFileSync(join(dir.path, 'r', '.gitattributes'), '* diff=x\n');
  git('config', 'core.fsmonitor', `touch ${marker('fsmonitor')}; false`);
  git('config', 'core.pager', `touch ${marker('pager')}; cat`);
  git('config', 'diff.external', `touch ${marker('external')}; true`);
  git('config', 'diff.x.textconv', `sh -c 'touch ${marker('textconv')}; cat "$0"'`);
}

(gitMissing ? describe.skip : describe)('git under the Bash environment', () => {
  it.each([
    ['git -C r status', 'fsmonitor'],
    ['git -C r -p log', 'pager'],
    ['git -C r diff', 'external'],
  ])('%s runs the configured %s without the environment, and not with it', (command, name) => {
    repository();
    run(command, false);
    expect(existsSync(marker(name))).toBe(true);
    rmSync(marker(name));
    run(command, true);
    expect(existsSync(marker(name))).toBe(false);
  });

  it('a textconv driver still runs on git log -p with the environment: such commands are not read-only without --no-textconv', async () => {
    repository();
    spawnSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-qam', 'b'], { cwd: join(dir.path, 'r'), stdio: 'ignore' });
    run('git -C r log -p', true);
    expect(existsSync(marker('textconv'))).toBe(true);
    rmSync(marker('textconv'));
    run('git -C r log -p --no-textconv', true);
    expect(existsSync(marker('textconv'))).toBe(false);
    for (const command of ['git log -p', 'git show', 'git diff', 'git blame a', 'git diff --no-textconv']) expect(isReadOnlyCommand(await analyzeCommand(command))).toBe(false);
    for (const command of ['git log --oneline', 'git log -p --no-textconv', 'git show --no-textconv', 'git diff --cached --no-textconv --no-ext-diff', 'git status']) expect(isReadOnlyCommand(await analyzeCommand(command))).toBe(true);
  });

  it('a folder holding HEAD, config, objects/ and refs/ is no repository under the environment', () => {
    mkdirSync(join(dir.path, 'evil', 'objects'), { recursive: true });
    mkdirSync(join(dir.path, 'evil', 'refs'));
    writeFileSync(join(dir.path, 'evil', 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(dir.path, 'evil', 'config'), `[core]\n\tpager = touch ${marker('pager')}; cat\n`);
    run('git -C evil -p config --list', false);
    expect(existsSync(marker('pager'))).toBe(true);
    rmSync(marker('pager'));
    run('git -C evil -p config --list', true);
    expect(existsSync(marker('pager'))).toBe(false);
  });

  it('what the environment cannot close is not read-only: -c and --config-env, an unknown subcommand (an alias), cat-file --filters', async () => {
    for (const command of ['git -c core.pager=x log', 'git --config-env=core.pager=X log', 'git lg', 'git cat-file --filters HEAD:a', 'git --git-dir=evil log']) {
      expect(isReadOnlyCommand(await analyzeCommand(command))).toBe(false);
    }
  });
});
