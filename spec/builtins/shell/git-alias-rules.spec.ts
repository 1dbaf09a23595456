/**
 * git aliases against command rules: a subcommand git does not know may be an alias (`-c alias.p=push`,
 * `--config-env`, `[alias]` in the repository's configuration), which runs whatever git command it names. Under a
 * deny rule `Bash(git push:*)` these pushed in BYPASS mode; here they are denied in every mode, covered by no allow
 * rule, and the push they would make is shown by running them with git against a local bare repository.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PermissionBehavior, PermissionEngine, PermissionMode } from '../../../lib/permissions';
import { bashTool } from '../../../lib/builtins';
import { tempDir } from '../../sandbox/helpers';
import { ContractSandbox } from './contract-sandbox';

const { ALLOW, DENY } = PermissionBehavior;
const gitMissing = spawnSync('git', ['--version']).status !== 0;

let dir: ReturnType<typeof tempDir>;
let repo: string;
let remote: string;
beforeEach(() => {
  dir = tempDir('agenttoolkit-git-alias-');
  repo = join(dir.path, 'repo');
  remote = join(dir.path, 'remote.git');
  mkdirSync(repo);
});
afterEach(() => dir.remove());

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir.path } });
  return result.stdout.trim();
}

/** A repository with one commit, a bare `origin` beside it, and `[alias] sync = push` in its configuration. */
function repository(): void {
  git(dir.path, 'init', '-q', '--bare', remote);
  git(repo, 'init', '-q');
  writeFileSync(join(repo, 'a'), 'one\n');
  git(repo, 'add', 'a');
  git(repo, 'commit', '-qm', 'a');
  git(repo, 'remote', 'add', 'origin', remote);
  git(repo, 'config', 'alias.sync', 'push');
}

async function decide(command: string, settings: { allow?: string[]; deny?: string[] }, mode: PermissionMode): Promise<PermissionBehavior> {
  const bash = bashTool({ sandbox: new ContractSandbox({ shells: ['posix', 'bash'], readOnly: false }, repo) });
  const engine = new PermissionEngine({ mode, cwd: repo, workingDirectories: [repo], settings });
  return (await engine.check(bash, { command })).behavior;
}

const ALIASED = [
  'git -c alias.p=push p origin HEAD',
  'git sync origin HEAD',
  'git --config-env=alias.p=P p origin HEAD',
  'git -C . sync origin HEAD',
  'git  sync',
  "'git' sync",
  '\\git sync',
  '/usr/bin/git sync',
  'command git sync',
  'env git sync',
  'timeout 5 git sync',
  'git --no-pager sync',
  'git -c x.y=1 -c alias.p=push p',
  'git pushh',
  'git -c "$x" push',
  'echo hi && git sync',
];

describe('a git subcommand that may be an alias', () => {
  it.each([PermissionMode.DEFAULT, PermissionMode.ACCEPT_EDITS, PermissionMode.EXPLORE, PermissionMode.BYPASS, PermissionMode.DONT_ASK])(
    'is denied by Bash(git push:*) in %s mode, in every spelling',
    async (mode) => {
      for (const command of ALIASED) expect([command, await decide(command, { deny: ['Bash(git push:*)'] }, mode)]).toEqual([command, DENY]);
      if (mode !== PermissionMode.EXPLORE) expect(await decide('git status', { deny: ['Bash(git push:*)'] }, mode)).not.toBe(DENY);
    },
  );

  it.each([['git sync:*', 'git sync origin HEAD'], ['git p:*', 'git -c alias.p=push p'], ['git:*', 'git sync'], ['git sync', 'git sync']])(
    'allow %j does not cover %j (it asks; dont-ask denies)',
    async (rule, command) => {
      expect(await decide(command, { allow: [`Bash(${rule})`] }, PermissionMode.DEFAULT)).not.toBe(ALLOW);
      expect(await decide(command, { allow: [`Bash(${rule})`] }, PermissionMode.DONT_ASK)).toBe(DENY);
    },
  );

  it('a built-in subcommand stays covered: aliases cannot hide built-in commands (git(1))', async () => {
    expect(await decide('git log -n 1', { allow: ['Bash(git log:*)'] }, PermissionMode.DEFAULT)).toBe(ALLOW);
    expect(await decide('git log -n 1', { deny: ['Bash(git push:*)'] }, PermissionMode.BYPASS)).not.toBe(DENY);
    // A command-line alias setting makes any git command opaque, a built-in one too: deny rules match it (fail closed).
    expect(await decide('git -c alias.log=push log', { deny: ['Bash(git push:*)'] }, PermissionMode.BYPASS)).toBe(DENY);
  });

  (gitMissing ? it.skip : it)('really pushes when run: `git -c alias.p=push p` and a repository alias reach the remote', () => {
    repository();
    const head = git(repo, 'rev-parse', 'HEAD');
    expect(git(remote, 'rev-parse', '--verify', '-q', 'refs/heads/master', 'refs/heads/main')).toBe('');
    spawnSync('bash', ['-c', 'git -c alias.p=push p -q origin HEAD:refs/heads/one && git sync -q origin HEAD:refs/heads/two'], { cwd: repo, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir.path } });
    expect(git(remote, 'rev-parse', 'refs/heads/one')).toBe(head);
    expect(git(remote, 'rev-parse', 'refs/heads/two')).toBe(head);
  });
});
