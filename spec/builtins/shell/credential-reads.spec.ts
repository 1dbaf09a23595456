/**
 * Credential reads that name no credential path in a plain argument: glued short values (`file -f.env`), wrapper
 * file options (`xargs -a .env echo`), `NAME=PATH` operands (`dd if=.env`), git object reads of a tracked or staged
 * `.env`, `/proc/<pid>/environ`, system secret files, and folders that hold credentials, through the permission
 * engine with the real Bash tool in DEFAULT, ACCEPT_EDITS, EXPLORE and BYPASS; and the same paths for Read, Grep and
 * Glob.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PermissionBehavior, type PermissionDecision, PermissionEngine, PermissionMode } from '../../../lib/permissions';
import { bashTool, fileTools, holdsCredentialPaths, isCredentialPath, SYSTEM_CREDENTIAL_PATHS } from '../../../lib/builtins';
import { LocalWorkspace } from '../../../lib/workspace';
import { tempDir } from '../../sandbox/helpers';
import { ContractSandbox } from './contract-sandbox';

const { ALLOW, ASK } = PermissionBehavior;

let dir: ReturnType<typeof tempDir>;
let repo: string;
beforeAll(() => {
  dir = tempDir('agenttoolkit-credential-reads-');
  repo = join(dir.path, 'repo');
  mkdirSync(join(repo, 'src'), { recursive: true });
  writeFileSync(join(repo, '.env'), 'TOKEN=secret\n');
  writeFileSync(join(repo, 'src', 'a.txt'), 'hello\n');
});
afterAll(() => dir.remove());

async function decision(command: string, mode = PermissionMode.DEFAULT, allow: string[] = [], cwd = repo): Promise<PermissionDecision> {
  const bash = bashTool({ sandbox: new ContractSandbox({ shells: ['posix', 'bash'], readOnly: true }, cwd) });
  const engine = new PermissionEngine({ mode, cwd, workingDirectories: [cwd], settings: { allow } });
  return engine.check(bash, { command });
}

async function decide(command: string, mode = PermissionMode.DEFAULT, allow: string[] = [], cwd = repo): Promise<PermissionBehavior> {
  return (await decision(command, mode, allow, cwd)).behavior;
}

/** Whether the decision is the credential ask (not the default ask of a command that is not read-only). */
async function credentialAsk(command: string, cwd = repo): Promise<boolean> {
  const d = await decision(command, PermissionMode.DEFAULT, [], cwd);
  return d.behavior === ASK && d.message.includes('credential');
}

const READS = [
  'file -f.env',
  'date -f.env',
  'grep -f.env x src/a.txt',
  'grep -rf.env x src',
  'sort -T. -o/dev/stdout .env',
  'head -n1 -- .env',
  'cat -- ./.env',
  'xargs -a .env echo',
  'xargs --arg-file=.env echo',
  'xargs -a.env echo',
  'dd if=.env',
  'dd if=./src/../.env of=/dev/stdout',
  'git show :.env',
  'git show HEAD:.env',
  'git cat-file -p HEAD:.env',
  'git cat-file -p 0123456789abcdef0123456789abcdef01234567',
  'cat /proc/self/environ',
  'cat /proc/1/environ',
  'cat /proc/thread-self/environ',
  'cat /proc/self/task/1/environ',
  'cat //proc/./self/environ',
  'cat /proc/*/environ',
  'tr "\\0" "\\n" < /proc/self/environ',
  'head /etc/shadow',
  'cat /etc/gshadow',
  'cat /etc/shadow-',
  'cat /etc/../etc/shadow',
  'cat /etc/sudoers',
  'cat /etc/sudoers.d/90-cloud',
  'cat /etc/ssh/ssh_host_ed25519_key',
  'cat /etc/ssh/ssh_host_*_key',
  'cat /etc/sh*',
  'cat /etc/ssl/private/x.pem',
  'grep -r . ~/.aws',
  'grep -r token ~/.config',
  'rg x ~/.config/gh/hosts.yml',
  'rg -uu x ~/.aws',
  'grep -r x /etc',
  'grep -r x /etc/ssh',
  'grep -r x /',
];

describe('credential reads through the Bash tool', () => {
  it.each(READS)('%j asks in DEFAULT and ACCEPT_EDITS, is not allowed in EXPLORE; BYPASS lets it through', async (command) => {
    for (const mode of [PermissionMode.DEFAULT, PermissionMode.ACCEPT_EDITS]) {
      expect([command, mode, await decide(command, mode)]).toEqual([command, mode, ASK]);
    }
    expect([command, await decide(command, PermissionMode.EXPLORE)]).not.toEqual([command, ALLOW]);
    expect(await decide(command, PermissionMode.BYPASS)).toBe(ALLOW);
  });

  it.each(['xargs -a .env echo', 'xargs --arg-file=.env echo', 'xargs -a.env echo', 'xargs --arg-file .env echo', 'env xargs -a .env echo'])(
    '%j still asks under an allow rule for echo: the rule names the program run, not the file its wrapper reads',
    async (command) => {
      expect(await decide(command, PermissionMode.DEFAULT, ['Bash(echo:*)'])).toBe(ASK);
      expect(await decide(command, PermissionMode.DONT_ASK, ['Bash(echo:*)'])).toBe(PermissionBehavior.DENY);
    },
  );

  it.each(['file -b src/a.txt', 'date -d tomorrow', 'grep -e x src/a.txt', 'ls ~/.aws', 'ls /etc', 'cat /proc/cpuinfo', 'cat /etc/hostname', 'git -C src show HEAD'])(
    '%j is no credential read',
    async (command) => {
      expect(await credentialAsk(command)).toBe(false);
    },
  );
});

const gitMissing = spawnSync('git', ['--version']).status !== 0;

(gitMissing ? describe.skip : describe)('git object reads of a tracked or staged credential file', () => {
  const git = (cwd: string, ...args: string[]) => spawnSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd, encoding: 'utf8' });
  let staged: string;
  let clean: string;
  beforeAll(() => {
    staged = join(dir.path, 'staged');
    clean = join(dir.path, 'clean');
    for (const [folder, version] of [[staged, '2'], [clean, '4']] as const) {
      mkdirSync(join(folder, 'src'), { recursive: true });
      git(folder, 'init', '-q');
      git(folder, 'config', 'index.version', version);
      writeFileSync(join(folder, 'src', 'a.txt'), 'hello\n');
      git(folder, 'add', 'src/a.txt');
      git(folder, 'commit', '-qm', 'a');
    }
    writeFileSync(join(staged, '.env'), 'TOKEN=secret\n');
    git(staged, 'add', '.env');
  });

  it.each(['git diff --cached', 'git diff --staged', 'git show', 'git log -p', 'git grep --cached TOKEN', 'git -C . diff --cached', 'git --no-pager show :0:.env'])(
    '%j asks where .env is staged, and not in a repository without credential files',
    async (command) => {
      expect(await decide(command, PermissionMode.DEFAULT, [], staged)).toBe(ASK);
      expect(await decide(command, PermissionMode.BYPASS, [], staged)).toBe(ALLOW);
      expect(await credentialAsk(command, staged)).toBe(true);
      if (!command.includes('.env')) expect(await credentialAsk(command, clean)).toBe(false);
    },
  );

  it('asks when the repository cannot be told or its index read, and follows a worktree\'s .git file and -C', async () => {
    for (const command of ['git --git-dir=x show', 'git --work-tree x show', 'git -C "$d" show']) {
      expect([command, await decide(command, PermissionMode.DEFAULT, [], clean)]).toEqual([command, ASK]);
    }
    expect(await credentialAsk('git -C', clean)).toBe(false);
    expect((await decision(`git -C ${staged} diff --cached`, PermissionMode.DEFAULT, [], clean)).message).toContain('credential');
    expect(await credentialAsk('git -c core.x=1 -C src diff --cached', staged)).toBe(true);
    expect(await credentialAsk('git status', staged)).toBe(false);
    const linked = join(dir.path, 'linked');
    mkdirSync(linked);
    writeFileSync(join(linked, '.git'), `gitdir: ${join(staged, '.git')}\n`);
    expect(await credentialAsk('git show', linked)).toBe(true);
    const relative = join(dir.path, 'relative');
    mkdirSync(relative);
    writeFileSync(join(relative, '.git'), 'gitdir: ../clean/.git\n');
    expect(await credentialAsk('git show', relative)).toBe(false);
    const broken = join(dir.path, 'broken');
    mkdirSync(join(broken, '.git'), { recursive: true });
    writeFileSync(join(broken, '.git', 'index'), 'DIRC\0\0\0\x02\0\0\0\x05garbage');
    expect(await credentialAsk('git show', broken)).toBe(true);
    writeFileSync(join(broken, '.git', 'index'), 'not an index');
    expect(await credentialAsk('git log -p', broken)).toBe(true);
    const folderIndex = join(dir.path, 'folder-index');
    mkdirSync(join(folderIndex, '.git', 'index'), { recursive: true });
    expect(await credentialAsk('git show', folderIndex)).toBe(true);
    const fresh = join(dir.path, 'fresh');
    mkdirSync(join(fresh, '.git'), { recursive: true });
    expect(await credentialAsk('git show', fresh)).toBe(false);
  });

  it('git cat-file asks in any repository: a blob hash says nothing of its path', async () => {
    const blob = git(staged, 'rev-parse', ':.env').stdout.trim();
    expect(git(staged, 'cat-file', '-p', blob).stdout).toContain('TOKEN=secret');
    expect(await decide(`git cat-file -p ${blob}`, PermissionMode.DEFAULT, [], staged)).toBe(ASK);
    expect(await decide('git cat-file -t HEAD', PermissionMode.DEFAULT, [], clean)).toBe(ASK);
  });
});

describe('the same paths for Read, Grep and Glob', () => {
  const check = async (name: 'Read' | 'Grep' | 'Glob', input: Record<string, unknown>) => {
    const files = fileTools({ workspace: new LocalWorkspace(repo) });
    const tool = name === 'Read' ? files.read : name === 'Grep' ? files.grep : files.glob;
    return (await new PermissionEngine({ mode: PermissionMode.DEFAULT, cwd: repo, workingDirectories: [repo] }).check(tool, input)).behavior;
  };

  it.each(['/etc/shadow', '/etc/gshadow', '/etc/sudoers', '/etc/ssh/ssh_host_rsa_key', '/proc/self/environ', '/proc/1/environ', '/etc/../etc/shadow'])('Read of %s asks', async (path) => {
    expect(await check('Read', { file_path: path })).toBe(ASK);
  });

  it.each([['Grep', { pattern: 'x', path: '/etc/shadow' }], ['Grep', { pattern: 'x', path: '/proc/self' }], ['Glob', { pattern: '*', path: '/proc/self' }]] as const)('%s %j asks', async (name, input) => {
    expect(await check(name, input)).toBe(ASK);
  });

  it('the data: every system entry is a credential path, its folders hold credentials, public /proc files are none', () => {
    for (const entry of SYSTEM_CREDENTIAL_PATHS) {
      expect(isCredentialPath(entry.path.replace('*', 'x'))).toBe(true);
      expect(entry.reason.length).toBeGreaterThan(10);
    }
    expect(isCredentialPath('/proc/cpuinfo')).toBe(false);
    expect(isCredentialPath('/etc/ssh/ssh_host_rsa_key.pub')).toBe(false);
    expect(isCredentialPath('/etc/ssh/x/ssh_host_rsa_key')).toBe(false);
    expect(isCredentialPath('etc/shadow')).toBe(false);
    expect(holdsCredentialPaths('/etc')).toBe(true);
    expect(holdsCredentialPaths('/usr')).toBe(false);
    expect(holdsCredentialPaths('~/.aws')).toBe(true);
    expect(holdsCredentialPaths('src')).toBe(false);
  });
});
