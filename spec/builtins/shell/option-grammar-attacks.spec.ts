/**
 * Attacks on the read-only verdict and on unwrapping, each class with variants, through the permission engine and
 * the real Bash tool in every mode: option abbreviations and glued values of options that write or run, operands
 * that are written, network subcommands, `X version` of programs without a grammar, and wrappers whose options hide
 * which program runs (`timeout --sig KILL 5 rm`).
 */
import { PermissionBehavior, PermissionEngine, PermissionMode } from '../../../lib/permissions';
import { analyzeCommand, bashTool, isReadOnlyCommand } from '../../../lib/builtins';
import { tempDir } from '../../sandbox/helpers';
import { ContractSandbox } from './contract-sandbox';

const { ALLOW, ASK, DENY } = PermissionBehavior;
const BASH = { shells: ['posix', 'bash'] as const, readOnly: false };

let dir: ReturnType<typeof tempDir>;
beforeAll(() => {
  dir = tempDir('agenttoolkit-grammar-attacks-');
});
afterAll(() => dir.remove());

async function decide(command: string, options: { mode?: PermissionMode; deny?: string[]; allow?: string[] } = {}): Promise<PermissionBehavior> {
  const bash = bashTool({ sandbox: new ContractSandbox(BASH, dir.path) });
  const engine = new PermissionEngine({ mode: options.mode ?? PermissionMode.DEFAULT, cwd: dir.path, workingDirectories: [dir.path], settings: { deny: options.deny ?? [], allow: options.allow ?? [] } });
  return (await engine.check(bash, { command })).behavior;
}

/** The program a command's last simple command runs, as a deny rule names it. */
async function program(command: string): Promise<string> {
  const analysis = await analyzeCommand(command);
  return analysis.commands[analysis.commands.length - 1]!.program!;
}

/** Not read-only: no mode but bypass allows it without asking, and a deny rule for its program holds in bypass. */
async function expectNotReadOnly(command: string): Promise<void> {
  const analysis = await analyzeCommand(command);
  expect(isReadOnlyCommand(analysis)).toBe(false);
  const name = await program(command);
  expect(await decide(command)).toBe(ASK);
  expect(await decide(command, { mode: PermissionMode.ACCEPT_EDITS })).not.toBe(ALLOW);
  expect(await decide(command, { mode: PermissionMode.DONT_ASK })).not.toBe(ALLOW);
  expect(await decide(command, { mode: PermissionMode.BYPASS, deny: [`Bash(${name}:*)`] })).toBe(DENY);
}

describe('options that write or run, by any spelling getopt_long accepts', () => {
  it.each([
    // sort(1): --compress-program runs a program, --output writes, -T writes temporary files in a folder
    'sort -S 1 --compress-prog=sh data.txt',
    'sort --compress=sh data.txt',
    'sort --comp=sh data.txt',
    'sort --compress-program sh data.txt',
    'sort --out=/outside/x data.txt',
    'sort --o /outside/x data.txt',
    'sort -o/outside/x data.txt',
    'sort -ro /outside/x data.txt',
    'sort -rno/outside/x data.txt',
    'sort data.txt --output=/outside/x',
    'sort -T /outside data.txt',
    'sort --temp=/outside data.txt',
    // date(1): --set and an MMDDhhmm operand set the clock
    'date --s=2020-01-01',
    'date --se 2020-01-01',
    'date -s2020-01-01',
    'date -us 2020-01-01',
    'date 010112002020',
    // file(1): --compile writes, --preserve-date writes, -z runs decompressors
    'file --comp -m m',
    'file -C -m m',
    'file --co -m m',
    'file -bC -m m',
    'file -p x',
    'file --pres x',
    'file -z x.gz',
    'file --uncomp x.gz',
    // tree(1): -o writes, -R with -H writes an index into every folder
    'tree -R -H . /outside/dir',
    'tree -RH . /outside/dir',
    'tree --output x',
    'tree -o x',
    'tree -ox',
    // rg(1): --pre runs a program, -z runs decompressors; an unknown option (rg 14's --hostname-bin) is never read-only
    'rg --hostname-bin=/tmp/script x',
    'rg --pre=cat x',
    'rg --pre cat x',
    'rg --pre-glob "*" --pre cat x',
    'rg --search-zip x',
    'rg -iz x',
    // diff(1): --paginate runs pr
    'diff -l a b',
    'diff --pag a b',
    // df(1): --sync flushes every file system
    'df --sync',
    // ag(1): --pager runs a program
    'ag --pager=less x',
    'ag --pag less x',
  ])('%j is not read-only', expectNotReadOnly);
});

describe('operands that are written', () => {
  it.each([
    'echo s | uniq - /outside/x',
    'uniq - /outside/x',
    'uniq in /outside/x',
    'uniq -c in out',
    'uniq -- in out',
    'uniq in -c out',
  ])('%j is not read-only', expectNotReadOnly);
});

describe('git: pagers, output files, drivers and the network', () => {
  it.each([
    "git grep --no-index '-Otouch /outside/x;' -e hello",
    'git grep -Ovi hello',
    'git grep -O hello',
    'git grep -iOvi hello',
    'git grep --open-files-in-pag=x hello',
    'git grep --open-files-in-pager=x hello',
    'git grep --open=x hello',
    'git grep --op=x hello',
    'git grep --o=x hello',
    'git grep --textconv hello',
    'git grep --text hello --textc',
    'git remote show https://example.com/x.git',
    'git remote show origin',
    'git remote -v show origin',
    'git ls-remote https://example.com/x.git',
    'git fetch',
    'git diff --output=/outside/x --no-textconv --no-ext-diff',
    'git diff --outp=/outside/x --no-textconv --no-ext-diff',
    'git diff --ext-diff --no-textconv --no-ext-diff',
    'git diff',
    'git diff --no-textconv',
    'git log -p',
    'git log -U5',
    'git log --patch',
    'git log --pat',
    'git log --format --output=/outside/x',
    'git log --author --output=/outside/x',
    'git log --show-signature',
    'git show HEAD',
    'git show --textconv --no-textconv HEAD',
    'git blame x',
    'git annotate x',
    'git cat-file --textconv HEAD:x',
    'git cat-file --filters HEAD:x',
    'git cat-file --filt HEAD:x',
    'git -c core.pager=sh log',
    'git --config-env=core.pager=X log',
    'git --exec-path=/tmp log',
    'git --git-dir=/tmp/evil log',
    'git branch new-branch',
    'git branch -D main',
    'git branch --delete main',
    'git tag v1',
    'git config user.name x',
    'git config --unset user.name',
    'git config --get x --unset y',
    'git reflog expire --all',
    'git stash',
    'git lg',
  ])('%j is not read-only', expectNotReadOnly);

  it.each([
    'git grep -e hello',
    'git grep --no-index -e hello',
    'git log --oneline -n 5',
    'git log -p --no-textconv',
    'git log -p --no-textc',
    'git log --format=%H -3',
    'git -C sub log --oneline',
    'git --no-pager log --oneline',
    'git diff --cached --no-textconv --no-ext-diff --stat',
    'git show --no-textconv --stat HEAD',
    'git blame --no-textconv x',
    'git status -sb',
    'git branch -a -v',
    'git branch --list "feat*"',
    'git tag -l',
    'git remote -v',
    'git remote show -n origin',
    'git remote get-url origin',
    'git reflog',
    'git reflog show -n 3',
    'git config --get user.name',
    'git config --list',
    'git rev-parse --show-toplevel',
    'git ls-files -z',
    'git --version',
  ])('%j stays read-only', async (command) => {
    expect(isReadOnlyCommand(await analyzeCommand(command))).toBe(true);
    expect(await decide(command)).toBe(ALLOW);
  });
});

describe('no shortcut for a program without a grammar', () => {
  it('rm version removes a file: it asks, and only accept-edits allows it, as an edit inside the folder', async () => {
    expect(isReadOnlyCommand(await analyzeCommand('rm version'))).toBe(false);
    expect(await decide('rm version')).toBe(ASK);
    expect(await decide('rm version', { mode: PermissionMode.BYPASS, deny: ['Bash(rm:*)'] })).toBe(DENY);
  });

  it.each(['node version', 'make version', 'npm version', 'cargo version', 'python3 version', 'node -V', 'node --version x', 'make --version', 'rm --version'])('%j is not read-only', expectNotReadOnly);

  it.each(['node --version', 'node -v', 'ls --version', 'sort --version', 'git --version'])('%j is read-only: its grammar says the option only prints', async (command) => {
    expect(isReadOnlyCommand(await analyzeCommand(command))).toBe(true);
  });
});

describe('words known only at run time', () => {
  it.each(['sort $X data.txt', 'sort *.txt', 'uniq $IN', 'date $D', 'git log $X', 'find . $X', 'file $F'])('%j may become an option that writes or runs: not read-only', async (command) => {
    expect(isReadOnlyCommand(await analyzeCommand(command))).toBe(false);
  });

  it.each(['grep -rn x $DIR', 'grep -rn x src/$DIR', 'wc -l *.md', 'du -sh *'])('%j may become an option that names a file to read (`-f .env`, `--files0-from=.env`): not read-only', async (command) => {
    expect(isReadOnlyCommand(await analyzeCommand(command))).toBe(false);
  });

  it.each(['ls $X', 'cat *.ts', 'wc -l ./*.md', 'wc -l docs/*.md', 'head ~/notes.txt', 'sort ~/list', 'uniq ~/list'])('%j stays read-only: every option is harmless, the word cannot start with a dash, or a tilde word is never an option', async (command) => {
    expect(isReadOnlyCommand(await analyzeCommand(command))).toBe(true);
  });
});

describe('wrappers: the program they run is found through abbreviations and glued values', () => {
  it.each([
    'timeout --sig KILL 5 rm -f v',
    'timeout --signal=KILL 5 rm -f v',
    'timeout -sKILL 5 rm -f v',
    'timeout -s KILL -k 1 5 rm -f v',
    'timeout --kill=1 5 rm -f v',
    'timeout --k 1 5 rm -f v',
    'timeout --pres --fore 5 rm -f v',
    'timeout -v -- 5 rm -f v',
    'nice --adj 5 rm x',
    'nice --adjustment=5 rm x',
    'nice -n5 rm x',
    'nice -5 rm x',
    'env --uns X rm x',
    'env --unset=X rm x',
    'env -uX rm x',
    'env -i -uX FOO=1 rm x',
    'env --ignore-e -- rm x',
    'stdbuf --o L rm x',
    'stdbuf --output=L rm x',
    'stdbuf -oL -e0 rm x',
    'stdbuf --i=0 --e 0 rm x',
    'time --for x rm y',
    'time --format=x rm y',
    'time -fx rm y',
    'time -p -f x rm y',
    'flock --time 1 f rm x',
    'flock --timeout=1 f rm x',
    'flock -w1 -x f rm x',
    'flock --conf 3 f rm x',
    'xargs --max-a 1 rm',
    'xargs --max-args=1 rm',
    'xargs -n1 -P4 rm',
    'xargs --max-p 2 rm',
    'xargs -d , rm',
    'xargs -I{} rm {}',
    'xargs --repl rm {}',
    'xargs -0 --arg-file=list rm',
    'ionice -c2 -n7 rm x',
    'ionice --class 2 --classd 7 rm x',
    'chrt --rr 1 rm x',
    'taskset -c 0 rm x',
    'setsid -f rm x',
    'command -p rm x',
    'exec -a name rm x',
    'nohup rm x',
    'timeout 5 nice --adj 5 env --uns X stdbuf --o L rm x',
  ])('%j runs rm: a deny rule for rm holds in every mode', async (command) => {
    expect(await program(command)).toBe('rm');
    for (const mode of [PermissionMode.DEFAULT, PermissionMode.ACCEPT_EDITS, PermissionMode.DONT_ASK, PermissionMode.BYPASS]) {
      expect(await decide(command, { mode, deny: ['Bash(rm:*)'] })).toBe(DENY);
    }
  });

  it.each([
    'timeout --sig KILL 5 rm -rf v',
    'nice --adj 5 rm -rf v',
    'env --uns X rm -fr v',
    'stdbuf --o L rm -rf v',
    'flock --time 1 f rm -rf v',
    'time --for x rm -rf v',
    'xargs --max-a 1 rm -rf',
  ])('%j keeps the ask of rm -rf that no allow rule silences', async (command) => {
    const wrapper = command.split(' ')[0]!;
    expect(await decide(command, { allow: ['Bash(rm:*)', `Bash(${wrapper}:*)`] })).toBe(ASK);
    expect(await decide(command, { mode: PermissionMode.ACCEPT_EDITS, allow: ['Bash(rm:*)'] })).toBe(ASK);
  });

  it.each([
    'env --split-s="rm x"',
    "env --split-string='rm x'",
    "env -S'rm x'",
    "env --s='rm x'",
    'timeout --bogus 5 rm x',
    'timeout --ver 5 rm x',
    'env --ig X rm x',
    'nice --bogus rm x',
    'env --bogus rm x',
    'flock f -c "rm x"',
    'flock f --command "rm x"',
    'flock --comm "rm x" f',
    'flock -c"rm x" f',
    'timeout $T rm x',
    'nice $OPT rm x',
    'xargs -I $R rm $R',
    'sudo -s rm x',
    'sudo --sh',
    'doas -s',
  ])('%j is opaque: a deny rule matches it, an allow rule does not', async (command) => {
    const analysis = await analyzeCommand(command);
    expect(analysis.commands.some((c) => c.opaque)).toBe(true);
    expect(await decide(command, { mode: PermissionMode.BYPASS, deny: ['Bash(rm:*)'] })).toBe(DENY);
    const name = analysis.commands[0]!.words[0]!.text;
    expect(await decide(command, { allow: [`Bash(${name}:*)`] })).not.toBe(ALLOW);
  });

  it('a wrapper that runs nothing runs nothing', async () => {
    for (const command of ['ionice -p 1', 'ionice --pid=1', 'chrt -p 1', 'chrt -m', 'taskset -p 1', 'command -v rm', 'sudo -l', 'timeout 5', 'env']) {
      const analysis = await analyzeCommand(command);
      expect(analysis.commands[0]!.views).toHaveLength(1);
      expect(analysis.commands[0]!.opaque).toBe(false);
    }
  });

  it.each(['xargs -a .env echo', 'xargs --arg-file=.env echo', 'xargs --arg-f .env echo', 'xargs -a.env echo', 'xargs -0a .env cat'])('%j exposes the file xargs reads itself', async (command) => {
    const [c] = (await analyzeCommand(command)).commands;
    expect(c!.wrapperReads.map((w) => w.text)).toEqual(['.env']);
  });

  it.each([
    ['env -C /etc touch passwd', PermissionMode.ACCEPT_EDITS],
    ['env --ch=/etc touch passwd', PermissionMode.ACCEPT_EDITS],
    ['time -o /etc/x touch y', PermissionMode.ACCEPT_EDITS],
    ['sudo touch y', PermissionMode.ACCEPT_EDITS],
  ] as const)('%j: a wrapper that changes folder, user or writes keeps the in-folder allowance off', async (command, mode) => {
    expect(await decide(command, { mode })).not.toBe(ALLOW);
    expect(await decide('nice touch y', { mode })).toBe(ALLOW);
  });
});
