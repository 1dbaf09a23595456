/**
 * sed scripts under the layered check. In ACCEPT_EDITS, `sed -i` on a file inside the working directories is allowed
 * as an edit; a script that runs a command (`e`, `s///e`), writes or reads another file (`w`, `W`, `s///w`, `r`, `R`),
 * comes from a file (`-f`) or puts its backup in another folder must never ride on that allowance. The attacks are
 * first run with the real sed, to show each one does what it claims.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionBehavior, PermissionContext, PermissionMode } from '../../../lib/permissions';
import { analyzeCommand, checkShellCommand } from '../../../lib/builtins';
import { sedInvocation, sedScriptRisk } from '../../../lib/builtins/shell/sed-invocation';
import { literalWord } from '../../../lib/builtins/shell/shell-word';

let dir: string;
beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'sed-scripts-')));
  mkdirSync(join(dir, 'src'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function decide(command: string, mode: PermissionMode) {
  const context = new PermissionContext({ mode, cwd: dir, workingDirectories: [dir] });
  return checkShellCommand(await analyzeCommand(command), context);
}

describe('the attacks are real (GNU sed)', () => {
  const sed = (script: string[], cwd: string) => execFileSync('sed', script, { cwd, stdio: 'pipe' });
  it.each([
    ['the e command', ['-i', '1e touch pwned', 'f.txt']],
    ['the e flag of s', ['-i', 's/.*/touch pwned/e', 'f.txt']],
    ['the w command', ['-i', 'w pwned', 'f.txt']],
    ['the w flag of s', ['-i', 's/a/b/w pwned', 'f.txt']],
    ['a backup suffix naming a folder', ['-i../pwned/*', 's/a/b/', 'f.txt']],
  ])('%s creates a file outside what the command names', (_, args) => {
    const work = mkdtempSync(join(dir, 'real-'));
    mkdirSync(join(work, 'in'));
    mkdirSync(join(work, 'pwned'));
    writeFileSync(join(work, 'in', 'f.txt'), 'a\n');
    sed(args, join(work, 'in'));
    expect(existsSync(join(work, 'in', 'pwned')) || existsSync(join(work, 'pwned', 'f.txt'))).toBe(true);
  });

  it('the r command copies another file into the edited one', () => {
    const work = mkdtempSync(join(dir, 'real-'));
    writeFileSync(join(work, 'secret'), 'TOKEN\n');
    writeFileSync(join(work, 'f.txt'), 'a\n');
    sed(['-i', 'r secret', 'f.txt'], work);
    expect(readFileSync(join(work, 'f.txt'), 'utf8')).toBe('a\nTOKEN\n');
  });
});

describe('sed under ACCEPT_EDITS and DEFAULT', () => {
  const risky = [
    "sed -i '1e rm -rf ~' src/f.txt",
    "sed -i 'e id' src/f.txt",
    "sed -i '$!e id' src/f.txt",
    "sed -i '/x/{e id\n}' src/f.txt",
    "sed -i 's/.*/id/e' src/f.txt",
    "sed -i 's|a|b|ge' src/f.txt",
    "sed -i 's/a/b/2e' src/f.txt",
    "sed -i 'w /etc/cron.d/x' src/f.txt",
    "sed -i '1W /tmp/x' src/f.txt",
    "sed -i 's/a/b/w /tmp/x' src/f.txt",
    "sed -i 's/a/b/gw /tmp/x' src/f.txt",
    "sed -i 'r ~/.ssh/id_rsa' src/f.txt",
    "sed -i '1R /etc/shadow' src/f.txt",
    "sed -i -e 's/a/b/' -e '1e id' src/f.txt",
    "sed -i --expression='1e id' src/f.txt",
    "sed -i --expression '1e id' src/f.txt",
    "sed -ie '1e id' src/f.txt",
    "sed -i -e1eid src/f.txt",
    "sed -n -i 's/a/b/;1e id' src/f.txt",
    "sed -i 's/a/b/\n1e id' src/f.txt",
    "sed -i 'p;w /tmp/x' src/f.txt",
    "sed -i -f script.sed src/f.txt",
    "sed -i --file=script.sed src/f.txt",
    "sed -i'../../etc/*' 's/a/b/' src/f.txt",
    "sed --in-place=/tmp/bak/* 's/a/b/' src/f.txt",
    "sed -i \"$SCRIPT\" src/f.txt",
    "sed -i --unknown-option 's/a/b/' src/f.txt",
    "sed -i 's/a/b' src/f.txt",
    "sed -i 'k' src/f.txt",
    "sed -i \\\\%x%e src/f.txt",
    "/bin/sed -i '1e id' src/f.txt",
    "mkdir -p src/x && sed -i '1e id' src/f.txt",
  ];
  it.each(risky)('%j is a bypass-immune ask in both modes', async (command) => {
    for (const mode of [PermissionMode.ACCEPT_EDITS, PermissionMode.DEFAULT]) {
      const d = await decide(command, mode);
      expect([d.behavior, d.bypassImmune]).toEqual([PermissionBehavior.ASK, true]);
    }
  });

  const safe = [
    "sed -i 's/a/b/' src/f.txt",
    "sed -i 's/a/b/g;s|x|y|2' src/f.txt",
    "sed -i -E 's/(a)+/b/I' src/f.txt",
    "sed -i '/^#/d' src/f.txt",
    "sed -i '1,5{s/a/b/;p}' src/f.txt",
    "sed -i '$a last line; with e and w' src/f.txt",
    "sed -i '0~3d' src/f.txt",
    "sed -i 'y/abc/xyz/' src/f.txt",
    "sed -i ':a;N;$!ba;s/\\n/ /g' src/f.txt",
    "sed -i.bak 's/a/b/' src/f.txt",
    "sed -i -e 's/a/b/' -e '/x/d' src/f.txt src/g.txt",
    "sed -n -i '1,3p' src/f.txt",
    "sed -i 's/e/w/' src/f.txt",
    "sed -i '# a comment with e and w\ns/a/b/' src/f.txt",
  ];
  it.each(safe)('%j edits files in the working directory: allowed in ACCEPT_EDITS, passed on in DEFAULT', async (command) => {
    expect((await decide(command, PermissionMode.ACCEPT_EDITS)).behavior).toBe(PermissionBehavior.ALLOW);
    expect((await decide(command, PermissionMode.DEFAULT)).behavior).toBe(PermissionBehavior.PASSTHROUGH);
  });

  it('a safe script on a file outside the working directories is not allowed by ACCEPT_EDITS', async () => {
    expect((await decide("sed -i 's/a/b/' /tmp/elsewhere.txt", PermissionMode.ACCEPT_EDITS)).behavior).toBe(PermissionBehavior.PASSTHROUGH);
  });

  it('names the reason', async () => {
    expect((await decide("sed -i '1e id' src/f.txt", PermissionMode.ACCEPT_EDITS)).message).toBe('The sed command cannot be allowed: its script runs a command (e).');
    expect((await decide("sed -i 's/a/b/w x' src/f.txt", PermissionMode.ACCEPT_EDITS)).message).toMatch(/writes another file \(the w flag of s\)/);
  });
});

describe('options of cp, mv and ln that name the destination', () => {
  it.each([
    'cp src/a.ts --target-directory=/etc',
    'mv --target-directory=/tmp src/a.ts',
    'cp -t/etc src/a.ts',
    'mv -vt/tmp src/a.ts',
    'ln -st/usr/local/bin src/a.ts',
    'mv -S/../x -b src/a.ts src/b.ts',
  ])('%j is not allowed by ACCEPT_EDITS', async (command) => {
    expect((await decide(command, PermissionMode.ACCEPT_EDITS)).behavior).not.toBe(PermissionBehavior.ALLOW);
  });

  it.each(['cp -t src src/a.ts', 'cp --target-directory=src src/a.ts', 'cp -v src/a.ts src/b.ts', 'mkdir -m755 src/x'])('%j inside the working directory stays allowed', async (command) => {
    expect((await decide(command, PermissionMode.ACCEPT_EDITS)).behavior).toBe(PermissionBehavior.ALLOW);
  });

  it('a destination option naming a sensitive path is a bypass-immune ask', async () => {
    const d = await decide('cp x --target-directory=.git', PermissionMode.DEFAULT);
    expect([d.behavior, d.bypassImmune]).toEqual([PermissionBehavior.ASK, true]);
  });
});

describe('sedInvocation and sedScriptRisk', () => {
  const words = (...texts: string[]) => texts.map(literalWord);
  it('takes the first operand as the script unless -e gave one', () => {
    expect(sedInvocation(words('s/a/b/', 'f', 'g')).files.map((w) => w.text)).toEqual(['f', 'g']);
    expect(sedInvocation(words('-e', 's/a/b/', 'f')).files.map((w) => w.text)).toEqual(['f']);
    expect(sedInvocation(words('-l', '40', 's/a/b/', 'f')).files.map((w) => w.text)).toEqual(['f']);
    expect(sedInvocation(words('--line-length', '40', 's/a/b/', 'f')).files.map((w) => w.text)).toEqual(['f']);
    expect(sedInvocation(words('--', '-script-', '-f')).files.map((w) => w.text)).toEqual(['-f']);
  });
  it.each([
    [[], 'it has no script'],
    [['-e'], '-e has no script'],
    [['--expression'], '--expression has no script'],
    [['-x', 's/a/b/'], 'the option -x is not known to be safe'],
  ])('refuses %j: %s', (args, why) => {
    expect(sedInvocation(words(...args)).risk).toBe(why);
  });
  it.each(['s', 's/a', 'y/ab/', '/unterminated', '\\', '\\\nx', '1,', 's\nab\n', 'p x'])('cannot read %j', (script) => {
    expect(sedScriptRisk(script)).toMatch(/cannot be read|unknown|differently/);
  });
  it.each(['', 'p', '=;l 40;q 5;Q', '/a/I,/b/M!d', '1,+3p', '2,~4p', 'b end;:end', 'tx;Tx;v 4.2', '\\,x,p', 'F;z;x;h;H;g;G;n;N;P;D'])('reads %j as safe', (script) => {
    expect(sedScriptRisk(script)).toBeUndefined();
  });
});
