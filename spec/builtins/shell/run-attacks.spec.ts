/**
 * Attacks on how a command is run, each class with variants, through the permission engine and the real Bash tool
 * (over the contract sandbox: bash offered, or only dash): dialect confusion, here-documents, steering assignments,
 * compounds whose earlier parts move what later paths name, and reads of a process's environment.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PermissionBehavior, PermissionEngine, PermissionMode } from '../../../lib/permissions';
import { analyzeCommand, bashTool, isReadOnlyCommand } from '../../../lib/builtins';
import { tempDir } from '../../sandbox/helpers';
import { ContractSandbox } from './contract-sandbox';

const { ALLOW, ASK, DENY } = PermissionBehavior;
const BASH = { shells: ['posix', 'bash'] as const, readOnly: false };
const POSIX = { shells: ['posix'] as const, readOnly: false };

let dir: ReturnType<typeof tempDir>;
let repo: string;
beforeEach(() => {
  dir = tempDir('agenttoolkit-run-attacks-');
  repo = join(dir.path, 'repo');
  mkdirSync(join(repo, 'a'), { recursive: true });
  mkdirSync(join(dir.path, 'outdir'));
  symlinkSync('../../outdir', join(repo, 'a', 'd'));
  writeFileSync(join(repo, 'payload'), 'x\n');
});
afterEach(() => dir.remove());

async function decide(command: string, options: { mode?: PermissionMode; deny?: string[]; shells?: typeof BASH | typeof POSIX } = {}): Promise<PermissionBehavior> {
  const bash = bashTool({ sandbox: new ContractSandbox(options.shells ?? BASH, repo) });
  const engine = new PermissionEngine({ mode: options.mode ?? PermissionMode.DEFAULT, cwd: repo, workingDirectories: [repo], settings: { deny: options.deny ?? [] } });
  return (await engine.check(bash, { command })).behavior;
}

describe('dialect: bash-only spellings where only a POSIX sh runs', () => {
  it.each([
    "echo $'\\' ; touch /outside/x ; #'",
    "echo $'\\'' ; rm x",
    'echo x &>/dev/null touch /outside/x',
    'echo x &>>/dev/null rm x',
    'echo x |& rm x',
    'cat <<< x; rm y',
    'echo $"x" ; rm y',
    '[[ -n x ]] ; rm y',
    'echo {a,b}',
    'function f { rm x; }',
    'a=(rm x)',
    'echo ${x/a/b}',
    'select x in a; do rm y; done',
    'coproc rm x',
    'declare y=1',
    '((1)) && rm y',
    'cat <(rm x)',
    '[ a == a ]',
  ])('%j asks, is denied by Bash(rm:*) under dash, and never allowed', async (command) => {
    expect(await decide(command, { shells: POSIX })).toBe(ASK);
    expect(await decide(command, { shells: POSIX, deny: ['Bash(rm:*)'] })).toBe(DENY);
    expect(await decide(command, { shells: POSIX, mode: PermissionMode.ACCEPT_EDITS })).not.toBe(ALLOW);
  });

  it('the same spellings are plain bash where bash runs: the dash reading is not the one judged', async () => {
    expect(await decide("echo $'\\' ; touch /outside/x ; #'")).toBe(ALLOW);
    expect(await decide('echo x &>/dev/null')).toBe(ALLOW);
  });
});

describe('here-documents', () => {
  it.each([
    "cat <<E'O'F\nhi\nEOF\ntouch /outside/x\nE'O'F\n",
    'cat <<E"O"F\nhi\nEOF\nrm x\nE"O"F\n',
    'cat <<E\\OF\nhi\nEOF\nrm x\nE\\OF\n',
    'cat <<EOF\nhi\nEOF \nrm x\nEOF\n',
    'cat <<-EOF\nhi\n\t\tEOF\nrm x\nEOF\n',
    'cat <<EOF\nhi\nE\\\nOF\nrm x\nEOF\n',
    'cat <<$EOF\nhi\n$EOF\n',
  ])('%j, whose document the shell ends elsewhere than the parser, asks in every mode but bypass', async (command) => {
    for (const shells of [BASH, POSIX]) {
      expect(await decide(command, { shells })).toBe(ASK);
      expect(await decide(command, { shells, mode: PermissionMode.ACCEPT_EDITS })).toBe(ASK);
      expect(await decide(command, { shells, deny: ['Bash(rm:*)'] })).toBe(DENY);
    }
  });

  it.each([
    'cat <<EOF\n`rm x`\nEOF\n',
    'cat <<EOF\na `rm x` b\nEOF\n',
    'cat <<EOF\n$(rm x)\nEOF\n',
    'cat <<EOF\n${y:-$(rm x)}\nEOF\n',
    'cat <<-EOF\n\t`rm x`\n\tEOF\n',
    'cat <<EOF\n\\\\`rm x`\nEOF\n',
  ])('%j: a substitution in an unquoted body is seen, under bash and dash', async (command) => {
    for (const dialect of ['bash', 'posix'] as const) {
      const analysis = await analyzeCommand(command, { dialect });
      expect(analysis.commands.map((c) => c.program)).toContain('rm');
    }
    expect(await decide(command, { deny: ['Bash(rm:*)'] })).toBe(DENY);
  });

  it.each(["cat <<'EOF'\n`rm x` $(rm y)\nEOF\n", 'cat <<"EOF"\n`rm x`\nEOF\n', 'cat <<\\EOF\n`rm x`\nEOF\n', 'cat <<EOF\n\\`rm x\\`\nEOF\n'])('%j: a quoted delimiter or an escaped backquote runs nothing, and is read-only', async (command) => {
    expect(await decide(command)).toBe(ALLOW);
  });
});

describe('assignments as statements', () => {
  it.each([
    'PATH=bin; ls',
    'HOME=h; git status',
    'IFS=/; ls',
    'export PATH=bin; ls',
    'export PATH; ls',
    'readonly HOME=h; git status',
    'declare -x GIT_DIR=evil; git status',
    'local PATH=bin; ls',
    'typeset PATH=bin; ls',
    'BASH_ENV=x; ls',
    'GIT_CONFIG_GLOBAL=x; git status',
    'LD_PRELOAD=x.so; ls',
    'read -r PATH < f; ls',
    'printf -v PATH bin; ls',
    'mapfile PATH < f; ls',
    'getopts a PATH; ls',
    'set -k; ls',
    'hash -p ./x ls; ls',
    'shopt -s expand_aliases; ls',
    'unset PATH; ls',
    'for PATH in bin; do ls; done',
  ])('%j is neither read-only nor an in-folder edit', async (command) => {
    expect(await decide(command)).not.toBe(ALLOW);
    expect(await decide(command, { mode: PermissionMode.ACCEPT_EDITS })).not.toBe(ALLOW);
    expect(await decide(`${command}; touch new`, { mode: PermissionMode.ACCEPT_EDITS })).not.toBe(ALLOW);
  });

  it.each(["printf -v 'a[$(rm x)]' y", "read 'a[$(rm x)]' < f", "test -v 'a[$(rm x)]'", "let 'a[$(rm x)]'"])('%j evaluates a subscript, which runs code: it asks even in accept-edits', async (command) => {
    expect(await decide(command, { mode: PermissionMode.ACCEPT_EDITS })).toBe(ASK);
  });

  it('a plain local of a harmless name stays read-only', async () => {
    expect(await decide('f=1; ls')).toBe(ALLOW);
    expect((await analyzeCommand('set -euo pipefail; ls')).features.has('assignment')).toBe(false);
  });
});

describe('compounds judged before their first part runs', () => {
  it.each([
    'mv a/d d2 && cp payload d2/new-file',
    'mv a/d d2; cp payload d2/new-file',
    'ln -s ../outdir d2 && cp payload d2/new-file',
    'cp -R a d3 && cp payload d3/d/new-file',
    'mv a/d d2 | cp payload d2/new-file',
  ])('%j is not auto-allowed in accept-edits (its later path may lead outside)', async (command) => {
    expect(await decide(command, { mode: PermissionMode.ACCEPT_EDITS })).not.toBe(ALLOW);
    expect(await decide(command, { mode: PermissionMode.DONT_ASK })).toBe(DENY);
  });

  it('parts that only create folders and files, or remove them, stay allowed', async () => {
    expect(await decide('mkdir -p src/new && touch src/new/a.ts', { mode: PermissionMode.ACCEPT_EDITS })).toBe(ALLOW);
    expect(await decide('cp payload copy', { mode: PermissionMode.ACCEPT_EDITS })).toBe(ALLOW);
  });
});

describe("a process's environment", () => {
  it.each(['cat /proc/self/environ', 'cat < /proc/self/environ', 'cat /proc/1/environ', 'cat /proc/self/env*', 'cat /proc/*/environ', 'tr "\\0" "\\n" < /proc/self/environ', 'grep -ra KEY /proc/self', 'cat /proc/thread-self/environ', 'cat /proc/self/../self/environ'])('%j asks as a credential read, and explore mode denies it', async (command) => {
    expect(await decide(command)).toBe(ASK);
    expect(await decide(command, { mode: PermissionMode.EXPLORE })).toBe(DENY);
    expect(await decide(command, { mode: PermissionMode.BYPASS })).toBe(ALLOW);
  });

  it('a link to it counts too, and machine files of /proc stay read-only', async () => {
    symlinkSync('/proc/self/environ', join(repo, 'notes'));
    expect(await decide('cat notes')).toBe(ASK);
    expect(await decide('cat /proc/cpuinfo')).toBe(ALLOW);
  });
});

describe('tilde prefixes, which the shell expands to folders outside the working directory', () => {
  it.each([
    'cp payload ~/../x',
    'cp payload ~/.cargo/bin/whoami',
    "sed -i 's/a/b/' ~/../etc/passwd",
    'mv payload ~',
    'touch ~root/x',
    'cp payload ~+/../x',
    'cp payload ~-/x',
    'mkdir -p ~/.ssh',
    'rm ~/../x',
    'ln -s payload ~/x',
    'cp -t ~/.. payload',
    'echo x > ~/../x',
    'echo x >> ~/.bashrc',
    'X=~/..; cp payload $X/x',
  ])('%j is never auto-allowed in accept-edits, and dont-ask denies it', async (command) => {
    expect(await decide(command, { mode: PermissionMode.ACCEPT_EDITS })).not.toBe(ALLOW);
    expect(await decide(command, { mode: PermissionMode.DONT_ASK })).toBe(DENY);
    expect(await decide(command, { mode: PermissionMode.ACCEPT_EDITS, shells: POSIX })).not.toBe(ALLOW);
  });

  it('the attacked spelling really leaves the working directory when a shell runs it', async () => {
    const home = join(dir.path, 'home');
    mkdirSync(home);
    const run = spawnSync('bash', ['-c', 'cp payload ~/../x'], { cwd: repo, env: { PATH: process.env.PATH, HOME: home } });
    expect(run.status).toBe(0);
    expect(readFileSync(join(dir.path, 'x'), 'utf8')).toBe('x\n');
  });

  it('a quoted or escaped tilde is a literal name inside the folder, and reads of the home stay read-only', async () => {
    expect(await decide("cp payload '~/x'", { mode: PermissionMode.ACCEPT_EDITS })).toBe(ALLOW);
    expect(await decide('cp payload \\~', { mode: PermissionMode.ACCEPT_EDITS })).toBe(ALLOW);
    expect(await decide('ls ~')).toBe(ALLOW);
    expect(await decide('ls ~/projects')).toBe(ALLOW);
    expect(await decide('cat ~/.aws/credentials')).toBe(ASK);
    expect(await decide('cat ~/.aws/../.aws/credentials')).toBe(ASK);
  });

  it('an allow rule written with the same tilde matches; a deny rule matches any tilde word; a file command on one still asks', async () => {
    const bash = bashTool({ sandbox: new ContractSandbox(BASH, repo) });
    const engine = (settings: { allow?: string[]; deny?: string[] }) => new PermissionEngine({ mode: PermissionMode.DEFAULT, cwd: repo, workingDirectories: [repo], settings });
    expect((await engine({ allow: ['Bash(make -C ~/app)'] }).check(bash, { command: 'make -C ~/app' })).behavior).toBe(ALLOW);
    expect((await engine({ allow: ['Bash(make -C ~/app)'] }).check(bash, { command: 'make -C ~/a\\pp' })).behavior).toBe(ASK);
    expect((await engine({ allow: ['Bash(make -C ~/app)'] }).check(bash, { command: 'make -C ~other/app' })).behavior).toBe(ASK);
    expect((await engine({ deny: ['Bash(make -C ~/app)'] }).check(bash, { command: 'make -C ~/a\\pp' })).behavior).toBe(DENY);
    expect((await engine({ allow: ['Bash(touch ~/notes)'] }).check(bash, { command: 'touch ~/notes' })).behavior).toBe(ASK);
  });
});

describe("bash's network redirections", () => {
  it.each(['cat </dev/tcp/127.0.0.1/9', 'cat < /dev/udp/127.0.0.1/9', 'head -1 </dev/tcp/example.com/80', 'cat < $HOST', 'cat <"$F"', 'wc -l < $(echo x)'])('%j may connect: never read-only, and explore mode denies it', async (command) => {
    expect(isReadOnlyCommand(await analyzeCommand(command))).toBe(false);
    expect(await decide(command)).not.toBe(ALLOW);
    expect(await decide(command, { mode: PermissionMode.EXPLORE })).toBe(DENY);
  });

  it('a literal file or a tilde path as input stays read-only', async () => {
    expect(isReadOnlyCommand(await analyzeCommand('cat < payload'))).toBe(true);
    expect(isReadOnlyCommand(await analyzeCommand('wc -l < ~/notes'))).toBe(true);
    expect(isReadOnlyCommand(await analyzeCommand('cat < /dev/null'))).toBe(true);
  });
});
