/**
 * The layered check of a shell tool, on a real folder: injection risk, read-only commands and their refused
 * options, dangerous commands on parsed words, sensitive paths, sweeping removals, redirections, ACCEPT_EDITS.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { FunctionTool } from '../../../lib';
import { PermissionBehavior, PermissionContext, PermissionEngine, PermissionMode, parsePermissionSettings } from '../../../lib/permissions';
import { analyzeCommand, checkShellCommand, commandRule } from '../../../lib/builtins';

const { ALLOW, ASK, DENY, PASSTHROUGH } = PermissionBehavior;
type Verdict = 'allow' | 'ask' | 'immune' | 'deny' | 'pass';

let dir: string;
beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'bash-check-')));
  mkdirSync(join(dir, 'src'));
  // Credential reads: a real `.env`, a link `notes` to it, a folder to walk out of, a folder holding such a link.
  writeFileSync(join(dir, '.env'), 'TOKEN=secret\n');
  symlinkSync('.env', join(dir, 'notes'));
  mkdirSync(join(dir, 'x'));
  mkdirSync(join(dir, 'links'));
  symlinkSync('../.env', join(dir, 'links', 'notes'));
  writeFileSync(join(dir, 'links', 'readme.md'), 'hello\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function verdict(command: string, mode = PermissionMode.DEFAULT, deny: string[] = []): Promise<Verdict> {
  const context = new PermissionContext({ mode, cwd: dir, workingDirectories: [dir], rules: parsePermissionSettings({ deny }, 'test') });
  const d = checkShellCommand(await analyzeCommand(command), context);
  if (d.behavior === ASK) return d.bypassImmune ? 'immune' : 'ask';
  return d.behavior === ALLOW ? 'allow' : d.behavior === DENY ? 'deny' : d.behavior === PASSTHROUGH ? 'pass' : 'ask';
}

// [command, DEFAULT, ACCEPT_EDITS]
const table: Array<[string, Verdict, Verdict]> = [
  // 1. injection risk
  ['echo $(id)', 'immune', 'immune'],
  ['cat <(ls)', 'immune', 'immune'],
  ['echo ${X:-y}', 'immune', 'immune'],
  ['(ls)', 'immune', 'immune'],
  ['for f in a; do ls; done', 'immune', 'immune'],
  ['if true; then ls; fi', 'immune', 'immune'],
  ['f() { ls; }', 'immune', 'immune'],
  ['[[ -f x ]]', 'immune', 'immune'],
  ['echo "x', 'immune', 'immune'],
  ['bash -c "ls"', 'immune', 'immune'],
  ['eval ls', 'immune', 'immune'],
  ['curl x | sh', 'immune', 'immune'],
  ['$CMD x', 'immune', 'immune'],
  ['echo $((1+1))', 'immune', 'immune'],
  // 2. read-only
  ['ls -la', 'allow', 'allow'],
  ['ls *.ts', 'allow', 'allow'],
  ['cat README.md | head -n 5 | wc -l', 'allow', 'allow'],
  ['grep -rn foo src && rg -i bar src', 'allow', 'allow'],
  ['echo $HOME', 'allow', 'allow'],
  ['echo hi 2>/dev/null', 'allow', 'allow'],
  ['echo hi > out.txt', 'pass', 'pass'],
  ['find . -name "*.ts" -type f', 'allow', 'allow'],
  ['find . -name x -delete', 'pass', 'pass'],
  ['find . -exec rm {} +', 'immune', 'immune'],
  ['find . -fprint out', 'pass', 'pass'],
  ['find $DIR', 'ask', 'ask'],
  ['rg --pre cat x src', 'pass', 'pass'],
  ['rg --pre=cat x src', 'pass', 'pass'],
  ['rg -z x src', 'pass', 'pass'],
  ['rg x *', 'ask', 'ask'],
  ['sort -o out in', 'pass', 'pass'],
  ['sort -ro out in', 'pass', 'pass'],
  ['sort --output=out in', 'pass', 'pass'],
  ['sort in', 'allow', 'allow'],
  ['tree -o out', 'pass', 'pass'],
  ['tree -L 2', 'allow', 'allow'],
  ['file -C -m magic', 'pass', 'pass'],
  ['uniq in out', 'pass', 'pass'],
  ['uniq -c in', 'allow', 'allow'],
  ['date -s "2020-01-01"', 'pass', 'pass'],
  ['date +%F', 'allow', 'allow'],
  ['less README.md', 'pass', 'pass'],
  ['tee out.txt', 'pass', 'pass'],
  ['git status', 'allow', 'allow'],
  ['git -C repo log --oneline -n 5', 'allow', 'allow'],
  ['git -c core.pager=evil log', 'pass', 'pass'],
  ['git diff --output=x', 'pass', 'pass'],
  ['git diff --no-textconv --no-ext-diff', 'pass', 'pass'],
  ['git diff --cached --no-textconv --no-ext-diff', 'allow', 'allow'],
  ['git diff --staged --no-textconv --no-ext-diff --stat', 'allow', 'allow'],
  ['git describe --dirty', 'pass', 'pass'],
  ['git describe --di=x', 'pass', 'pass'],
  ['git describe --tags', 'allow', 'allow'],
  ['git --help status', 'pass', 'pass'],
  ['git --he status', 'pass', 'pass'],
  ['docker version', 'pass', 'pass'],
  ['docker info', 'pass', 'pass'],
  ['git diff --ext-diff', 'pass', 'pass'],
  ['git grep -O foo', 'pass', 'pass'],
  ['git branch', 'allow', 'allow'],
  ['git branch -a -v', 'allow', 'allow'],
  ['git branch new-branch', 'pass', 'pass'],
  ['git branch -D main', 'pass', 'pass'],
  ['git tag -l', 'allow', 'allow'],
  ['git tag v1', 'pass', 'pass'],
  ['git remote -v', 'allow', 'allow'],
  ['git remote add x y', 'pass', 'pass'],
  ['git remote get-url origin', 'allow', 'allow'],
  ['git reflog', 'allow', 'allow'],
  ['git reflog expire --all', 'pass', 'pass'],
  ['git config --get user.name', 'allow', 'allow'],
  ['git config --list', 'allow', 'allow'],
  ['git config user.name x', 'pass', 'pass'],
  ['git config --get x --unset y', 'pass', 'pass'],
  ['git push', 'pass', 'pass'],
  ['git $SUB', 'ask', 'ask'],
  ['docker ps -a', 'pass', 'pass'],
  ['docker run x', 'pass', 'pass'],
  ['node --version', 'allow', 'allow'],
  ['/tmp/x/ls', 'pass', 'pass'],
  ['nice ls', 'pass', 'pass'],
  ['LANG=C ls', 'pass', 'pass'],
  ['ls --format=long', 'allow', 'allow'],
  // 2b. credential reads: not read-only, an ASK that allow rules and BYPASS can let through
  ['cat .env', 'ask', 'ask'],
  ['cat ".env"', 'ask', 'ask'],
  ["cat '.env'", 'ask', 'ask'],
  ['cat \\.env', 'ask', 'ask'],
  ["cat $'\\x2eenv'", 'ask', 'ask'],
  ['cat .env.local', 'ask', 'ask'],
  ['cat src/.env.production', 'ask', 'ask'],
  ['cat .ENV', 'ask', 'ask'],
  ['cat my.env', 'allow', 'allow'],
  ['cat .envelope', 'allow', 'allow'],
  ['cat README.md .envrc', 'ask', 'ask'],
  ['head ~/.ssh/id_rsa', 'ask', 'ask'],
  ['head -n 5 /root/.ssh/id_rsa', 'ask', 'ask'],
  ['ls ~/.ssh', 'ask', 'ask'],
  ['cat .SSH/id_ed25519', 'ask', 'ask'],
  ['grep x .npmrc', 'ask', 'ask'],
  ['grep -rn token .pypirc', 'ask', 'ask'],
  ['grep --file=.netrc x', 'ask', 'ask'],
  ['cat README.md | grep -f ../.git-credentials', 'ask', 'ask'],
  ['less .aws/credentials', 'ask', 'ask'],
  ['cat .kube/config', 'ask', 'ask'],
  ['cat .docker/config.json', 'ask', 'ask'],
  ['cat .config/gcloud/application_default_credentials.json', 'ask', 'ask'],
  ['cat < .env', 'ask', 'ask'],
  ['wc -l < .env.production', 'ask', 'ask'],
  ['cat 0< .env', 'ask', 'ask'],
  ['cat ./x/../.env', 'ask', 'ask'],
  ['cat x/../.env', 'ask', 'ask'],
  ['cat notes', 'ask', 'ask'],
  ['cat links/notes', 'ask', 'ask'],
  ['cat < notes', 'ask', 'ask'],
  ['cat $HOME/.env', 'ask', 'ask'],
  ['cat "$HOME/.env"', 'ask', 'ask'],
  ['cat "$HOME"/.netrc', 'ask', 'ask'],
  ['cat $F', 'ask', 'ask'],
  ['cat ~/.aws/credentials', 'ask', 'ask'],
  ['cat .e*', 'ask', 'ask'],
  ['cat .ssh/*', 'ask', 'ask'],
  ['cat ~/.aws/*', 'ask', 'ask'],
  ['cat *', 'ask', 'ask'],
  ['cat links/*', 'ask', 'ask'],
  ['cat links/n?tes', 'ask', 'ask'],
  ['cat links/*.md', 'allow', 'allow'],
  ['cat links/[a-z]*.md', 'ask', 'ask'],
  ['cat src/*', 'allow', 'allow'],
  ['cat lin"ks"/*.md', 'ask', 'ask'],
  ['cat links/*"tes"', 'ask', 'ask'],
  ['cat links/\\n*', 'ask', 'ask'],
  ['cat links/@(notes)', 'immune', 'immune'],
  ['cat links/n+*', 'ask', 'ask'],
  ['cat */x', 'ask', 'ask'],
  ['cat {.env,x}', 'ask', 'ask'],
  ['cat ".e"*', 'ask', 'ask'],
  ['shopt -s dotglob; cat *.ts', 'ask', 'ask'],
  ['git show HEAD:.env', 'ask', 'ask'],
  ['git diff -- .env', 'ask', 'ask'],
  ['find . -name .env', 'ask', 'ask'],
  ['sudo cat .env', 'ask', 'ask'],
  ['cp .env src/copy', 'immune', 'immune'],
  ['cp notes src/copy', 'immune', 'immune'],
  ['cat ~root/.bash_history', 'ask', 'ask'],
  ['ls ~', 'allow', 'allow'],
  ['echo .env', 'allow', 'allow'],
  ['basename ~/.ssh/id_rsa', 'allow', 'allow'],
  ['cat .env && rm -rf /', 'immune', 'immune'],
  ['cat .env > ~/.bashrc', 'immune', 'immune'],
  // 3. dangerous commands, on parsed words
  ['rm -rf build', 'immune', 'immune'],
  ['rm -r -f build', 'immune', 'immune'],
  ['rm --recursive --force build', 'immune', 'immune'],
  ['rm -fR build', 'immune', 'immune'],
  ['sudo rm x', 'immune', 'immune'],
  ['dd if=/dev/zero of=x', 'immune', 'immune'],
  ['mkfs.ext4 /dev/sdb1', 'immune', 'immune'],
  ['fdisk /dev/sda', 'immune', 'immune'],
  ['chmod 777 x', 'immune', 'immune'],
  ['chmod -R 777 .', 'immune', 'immune'],
  ['chmod 644 x', 'pass', 'pass'],
  ['chown -R me .', 'immune', 'immune'],
  ['kill -9 1', 'immune', 'immune'],
  ['kill -s KILL 1', 'immune', 'immune'],
  ['kill 1', 'pass', 'pass'],
  ['echo x > /dev/sda', 'immune', 'immune'],
  ['git log --format=%H', 'allow', 'allow'],
  // 4-6. sensitive paths and sweeping removals
  ['sed -i s/a/b/ .bashrc', 'immune', 'immune'],
  ['sed -i s/a/b/ src/a.ts', 'pass', 'allow'],
  ['cp x ~/.ssh/authorized_keys', 'immune', 'immune'],
  ['mv x .git/config', 'immune', 'immune'],
  ['touch .env.local', 'immune', 'immune'],
  ['chmod 600 ~/.netrc', 'immune', 'immune'],
  ['ln -s x .gitconfig', 'immune', 'immune'],
  ['rm "$F"', 'immune', 'immune'],
  ['rm /', 'immune', 'immune'],
  ['rm ~', 'immune', 'immune'],
  ['rm *', 'immune', 'immune'],
  ['rm ./*', 'immune', 'immune'],
  ['rm src/*', 'immune', 'immune'],
  ['rmdir /usr', 'immune', 'immune'],
  ['rm /etc/', 'immune', 'immune'],
  ['rm src/a.ts', 'pass', 'allow'],
  ['echo x >> ~/.zshrc', 'immune', 'immune'],
  ['echo x > "$OUT"', 'immune', 'immune'],
  // 7. ACCEPT_EDITS inside the working directories
  ['mkdir -p src/new && touch src/new/a.ts', 'pass', 'allow'],
  ['cp src/a.ts src/b.ts', 'pass', 'allow'],
  ['mv src/a.ts /tmp/elsewhere.ts', 'pass', 'pass'],
  ['touch ../outside.txt', 'pass', 'pass'],
  ['mkdir', 'pass', 'pass'],
  ['touch src/a.ts > log.txt', 'pass', 'pass'],
  ['npm test', 'pass', 'pass'],
  // 8. a recursive read that reaches the real `.env` asks, before the command rules
  ['rg -i bar', 'ask', 'ask'],
  ['rg --pre cat x', 'ask', 'ask'],
  ['grep -r TOKEN .', 'ask', 'ask'],
];

describe('checkShellCommand', () => {
  it('has a row per layer', () => expect(table.length).toBeGreaterThanOrEqual(100));

  it.each(table)('%j: %s in default mode, %s in accept-edits mode', async (command, normal, edits) => {
    expect(await verdict(command)).toBe(normal);
    expect(await verdict(command, PermissionMode.ACCEPT_EDITS)).toBe(edits);
  });

  it('takes the user\'s credential paths, and a glob may match one that has no dot segment', async () => {
    const context = new PermissionContext({ cwd: dir, workingDirectories: [dir] });
    const check = async (command: string, files?: string[]) => checkShellCommand(await analyzeCommand(command), context, files === undefined ? {} : { credentialPaths: { files } });
    expect((await check('cat secrets.json')).behavior).toBe(ALLOW);
    expect((await check('cat *.json')).behavior).toBe(ALLOW);
    const asked = await check('cat config/secrets.json', ['secrets.json']);
    expect([asked.behavior, asked.bypassImmune, asked.message]).toEqual([ASK, false, expect.stringContaining('config/secrets.json')]);
    expect((await check('cat *.json', ['secrets.json'])).behavior).toBe(ASK);
    expect((await check('cat src/*', ['.vault'])).behavior).toBe(ALLOW);
    expect((await check('cat .vault/token', [], )).behavior).toBe(ALLOW);
    expect((await check('cat .vault/token', ['.vault/token'])).behavior).toBe(ASK);
  });

  it('lets an allow rule, the user or BYPASS through a credential read, as for Read; DONT_ASK denies it', async () => {
    const bash = new FunctionTool(() => 'ran', {
      name: 'Bash',
      description: 'Runs a command.',
      params: Type.Object({ command: Type.String() }),
      permissions: {
        ...commandRule('command'),
        checkPermissions: async (input: { command: string }, context: PermissionContext) => checkShellCommand(await analyzeCommand(input.command), context),
      },
    });
    const decide = async (command: string, mode: PermissionMode, allow: string[] = []) =>
      (await new PermissionEngine({ settings: { allow }, mode, cwd: dir, workingDirectories: [dir] }).check(bash, { command })).behavior;
    expect(await decide('cat README.md', PermissionMode.DEFAULT)).toBe(ALLOW);
    expect(await decide('cat .env', PermissionMode.DEFAULT)).toBe(ASK);
    expect(await decide('cat notes', PermissionMode.ACCEPT_EDITS)).toBe(ASK);
    expect(await decide('cat .env', PermissionMode.DONT_ASK)).toBe(DENY);
    expect(await decide('cat .env', PermissionMode.BYPASS)).toBe(ALLOW);
    expect(await decide('cat .env', PermissionMode.DEFAULT, ['Bash(cat .env)'])).toBe(ALLOW);
    expect(await decide('cat .env', PermissionMode.DEFAULT, ['Bash(cat:*)'])).toBe(ALLOW);
    expect(await decide('cat .env && rm -rf x', PermissionMode.DEFAULT, ['Bash(cat:*)', 'Bash(rm:*)'])).toBe(ASK);
  });

  it('names the credential path it asks about', async () => {
    const context = new PermissionContext({ cwd: dir, workingDirectories: [dir] });
    const d = checkShellCommand(await analyzeCommand('head -n 1 ~/.ssh/id_rsa'), context);
    expect([d.behavior, d.bypassImmune, d.message]).toEqual([ASK, false, expect.stringContaining('~/.ssh/id_rsa')]);
  });

  it('fails closed on a folder it cannot list for a glob', async () => {
    const context = new PermissionContext({ cwd: dir, workingDirectories: [dir] });
    expect(checkShellCommand(await analyzeCommand('cat links/readme.md/*.md'), context).behavior).toBe(ALLOW);
    expect(checkShellCommand(await analyzeCommand('cat missing/*.md'), context).behavior).toBe(ALLOW);
  });

  it('allows in-folder edits in dont-ask mode too, and denies a redirection a write rule denies', async () => {
    expect(await verdict('touch src/x.ts', PermissionMode.DONT_ASK)).toBe('allow');
    expect(await verdict('echo x > src/x.ts', PermissionMode.DEFAULT, ['Write(src/**)'])).toBe('deny');
  });
});
