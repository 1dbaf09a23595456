import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, symlinkSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { formatPermissionRule, parsePermissionRule, PermissionBehavior, PermissionEngine } from '../../lib/permissions';
import { isCI } from '../../scripts/ci-flag';
import { file, read, scratch, write } from './fixtures';
import { skippedTitle } from '../support/skip-reason';

const { ALLOW, DENY, ASK } = PermissionBehavior;

/**
 * Names a path rule must see through beyond links: line breaks inside names (a folder rule covers everything in the
 * folder), bind mounts and hard links (the same file under another name, with no link to follow), and Unicode
 * spellings that file systems which normalise names treat as one.
 */
describe('a folder rule covers names with line breaks', () => {
  const base = scratch('breaks');
  const wd = join(base, 'wd');
  mkdirSync(wd);
  const engine = new PermissionEngine({
    cwd: wd,
    settings: { deny: [`read(${base}/secret)`, 'read(secrets/)', 'read(.env)'], ask: [`write(${base}/secret)`] },
  });

  it.each([
    [`${base}/secret/a\nb`],
    [`${base}/secret/\n`],
    [`${base}/secret/x\n/y`],
    [`${base}/secret/a\rb`],
    [`${base}/secret/a\u2028b`],
    [`${base}/secret/a\u2029b`],
    ['secrets/a\nb'],
    ['deep/er/secrets/\n/k'],
    ['.env/\n'],
  ])('read %j is denied', async (path) => {
    expect((await engine.check(read, { path })).behavior).toBe(DENY);
  });

  it('an ask rule on a folder asks for a name with a line break', async () => {
    expect((await engine.check(write, { path: `${base}/secret/a\nb` })).behavior).toBe(ASK);
  });

  it('an allow rule on a folder allows such a name, and only inside the folder', async () => {
    const allowing = new PermissionEngine({ cwd: wd, settings: { allow: ['write(out)'] } });
    expect((await allowing.check(write, { path: 'out/a\nb' })).behavior).toBe(ALLOW);
    expect((await allowing.check(write, { path: 'out\n/b' })).behavior).toBe(ASK);
    expect((await allowing.check(write, { path: 'other/a\nb' })).behavior).toBe(ASK);
  });
});

describe('a suggestion allows the call and not much more', () => {
  const base = scratch('broad');
  const wd = join(base, 'proj', 'wd');
  mkdirSync(wd, { recursive: true });
  const engine = new PermissionEngine({ cwd: wd });

  /** The first suggestion for `path`, checked to allow the call after a round trip through the rule string. */
  async function suggestion(path: string): Promise<string> {
    const asked = await engine.check(write, { path });
    expect(asked.behavior).toBe(ASK);
    const text = formatPermissionRule(asked.suggestions[0]!);
    const allowing = new PermissionEngine({ cwd: wd, rules: [parsePermissionRule(text, ALLOW)] });
    expect([path, (await allowing.check(write, { path })).behavior]).toEqual([path, ALLOW]);
    return text;
  }

  /** Whether the rule allows `path`. */
  async function allows(rule: string, path: string): Promise<boolean> {
    const allowing = new PermissionEngine({ cwd: wd, rules: [parsePermissionRule(rule, ALLOW)] });
    return (await allowing.check(write, { path })).behavior === ALLOW;
  }

  it.each([
    // a file in the root: `//**` would allow every file on the machine
    ['/x', '/etc/passwd'],
    ['/x.txt', '/root/.ssh/authorized_keys'],
    // a file in the home directory: `<home>/**` would allow ~/.ssh and ~/.bashrc
    [join(homedir(), 'notes.txt'), join(homedir(), '.ssh', 'authorized_keys')],
    [join(homedir(), '.bashrc'), join(homedir(), '.profile')],
    // a file in a folder above the cwd: `<parent>/**` would allow the whole project and its neighbours
    ['../x.txt', join(wd, 'src', 'a.ts')],
    ['../../x.txt', join(base, 'other', 'a')],
    [join(dirname(base), 'x'), join(base, 'other', 'a')],
  ])('the suggestion for %s names that file and does not allow %s', async (path, other) => {
    const text = await suggestion(path);
    expect(text.endsWith('/**')).toBe(false);
    expect(await allows(text, other)).toBe(false);
  });

  it.each([['*'], ['**'], ['[ab]'], ['?'], ['a)'], ['(x'], ['a\nb'], ['\\'], ['x\\'], ['~$lock.docx'], ['~~'], [' lead'], ['trail ']])(
    'the suggestion for a file named %j allows it and not its neighbours',
    async (name) => {
      const text = await suggestion(name);
      expect(await allows(text, 'neighbour')).toBe(false);
      expect(await allows(text, 'a')).toBe(false);
    },
  );

  it('a file in a subfolder of the cwd still gets the subfolder', async () => {
    expect(await suggestion('sub/dir/a.txt')).toBe('write(sub/dir/**)');
  });
});

/** Root can bind-mount; CI runs as root, so the bind mount attack is required there. */
const canMount = process.getuid?.() === 0;

describe('other names of the same file', () => {
  const base = scratch('names');
  const wd = join(base, 'wd');
  const secret = join(base, 'secret');
  file(join(secret, 'key'), 'secret');
  file(join(secret, 'deep', 'inner.pem'), 'secret');
  file(join(wd, 'own.txt'));

  it('a hard link to a denied file is denied', async () => {
    linkSync(join(secret, 'key'), join(wd, 'hard'));
    mkdirSync(join(wd, 'd'));
    linkSync(join(secret, 'key'), join(wd, 'd', 'again'));
    symlinkSync(join(wd, 'hard'), join(wd, 'soft-to-hard'));
    const engine = new PermissionEngine({ cwd: wd, settings: { deny: [`read(${secret}/key)`], ask: [`write(${secret}/key)`] } });
    for (const path of ['hard', 'd/again', 'soft-to-hard', `${wd}/d/../hard`]) {
      expect([path, (await engine.check(read, { path })).behavior]).toEqual([path, DENY]);
    }
    expect((await engine.check(write, { path: 'hard' })).behavior).toBe(ASK);
    expect((await engine.check(read, { path: 'own.txt' })).behavior).toBe(ALLOW);
  });

  if (!canMount && !isCI()) {
    it.skip(skippedTitle('a bind mount of a denied folder is denied', 'mounting needs root'), () => undefined);
    return;
  }

  it('a bind mount of a denied folder is denied, under every spelling', async () => {
    expect(canMount).toBe(true);
    const mnt = join(wd, 'mnt');
    const nested = join(wd, 'nested');
    mkdirSync(mnt);
    mkdirSync(nested);
    execFileSync('mount', ['--bind', secret, mnt]);
    execFileSync('mount', ['--bind', base, nested]); // a folder above the denied one
    symlinkSync(mnt, join(wd, 'via-link'));
    try {
      const engine = new PermissionEngine({
        cwd: wd,
        settings: { deny: [`read(${secret}/**)`, `write(${secret}/deep/*.pem)`], ask: [`read(${secret}/deep)`] },
      });
      for (const path of ['mnt/key', 'mnt', `${mnt}/deep/inner.pem`, 'via-link/key', 'mnt/../mnt/key', 'nested/secret/key', 'nested/secret/deep', 'mnt/new-file']) {
        expect([path, (await engine.check(read, { path })).behavior]).toEqual([path, DENY]);
      }
      expect((await engine.check(write, { path: 'nested/secret/deep/inner.pem' })).behavior).toBe(DENY);
      expect((await engine.check(write, { path: 'mnt/deep/other.txt' })).behavior).toBe(ASK);
      expect((await engine.check(read, { path: 'nested/wd/own.txt' })).behavior).toBe(ALLOW);
      // the rest of the pattern still has to match below the mount
      const narrow = new PermissionEngine({ cwd: wd, settings: { deny: [`read(${secret}/deep/*.pem)`] } });
      expect((await narrow.check(read, { path: 'mnt/deep/inner.pem' })).behavior).toBe(DENY);
      expect((await narrow.check(read, { path: 'nested/secret/deep/inner.pem' })).behavior).toBe(DENY);
      expect((await narrow.check(read, { path: 'mnt/key' })).behavior).toBe(ALLOW);
      expect((await narrow.check(read, { path: 'own.txt' })).behavior).toBe(ALLOW);
    } finally {
      execFileSync('umount', [nested]);
      execFileSync('umount', [mnt]);
    }
  });
});

describe('names that look the same', () => {
  const base = scratch('nfc');
  const composed = 'caf\u00e9';
  const decomposed = 'cafe\u0301';
  file(join(base, composed, 'k'));
  const engine = new PermissionEngine({
    cwd: base,
    settings: { deny: [`read(${base}/${composed}/**)`, `read(${decomposed}-d/**)`, 'read(**/r\u00e9sum\u00e9.pdf)'] },
  });

  it.each([
    [`${base}/${decomposed}/k`],
    [`${decomposed}/k`],
    [`${composed}-d/x`],
    [`x/re\u0301sume\u0301.pdf`],
  ])('a deny rule written in one normal form denies %j in the other', async (path) => {
    expect((await engine.check(read, { path })).behavior).toBe(DENY);
  });

  it('an allow rule stays exact (the call asks)', async () => {
    const allowing = new PermissionEngine({ cwd: base, settings: { allow: [`write(${composed}/**)`] } });
    expect((await allowing.check(write, { path: `${composed}/k` })).behavior).toBe(ALLOW);
    expect((await allowing.check(write, { path: `${decomposed}/k` })).behavior).toBe(ASK);
  });
});

/**
 * A project can hold links it did not get from the user: a cloned repository ships `docs -> ~/.ssh`, a build step
 * or an earlier tool call makes one. An allow rule written for the project's folder must not follow them.
 */
describe("a project's links never widen an allow rule", () => {
  const base = scratch('shipped');
  const wd = join(base, 'repo');
  const ssh = join(base, 'home', '.ssh');
  file(join(ssh, 'authorized_keys'));
  file(join(wd, 'src', 'a.ts'));
  symlinkSync(ssh, join(wd, 'docs')); // the repository's own link
  mkdirSync(join(wd, 'pkg'));
  symlinkSync('../../home/.ssh', join(wd, 'pkg', 'deep')); // relative, one level down
  symlinkSync(join(wd, 'docs'), join(wd, 'chain')); // a chain through the first one
  symlinkSync(join(ssh, 'authorized_keys'), join(wd, 'NOTES.md')); // a file link

  it.each([
    ['write(docs/**)', 'docs/authorized_keys'],
    ['write(docs/**)', join(ssh, 'authorized_keys')],
    ['write(docs)', 'docs/authorized_keys'],
    [`write(${wd}/docs/**)`, join(ssh, 'new')],
    ['write(pkg/deep/**)', 'pkg/deep/authorized_keys'],
    ['write(pkg/deep/**)', join(ssh, 'authorized_keys')],
    ['write(chain/**)', 'chain/authorized_keys'],
    ['write(NOTES.md)', 'NOTES.md'],
    ['write(./NOTES.md)', join(ssh, 'authorized_keys')],
    ['write(pkg/**)', 'pkg/deep/authorized_keys'],
    ['write(./**)', 'docs/authorized_keys'],
  ])('%s does not allow %s', async (rule, path) => {
    const engine = new PermissionEngine({ cwd: wd, workingDirectories: [wd], settings: { allow: [rule] } });
    expect((await engine.check(write, { path })).behavior).toBe(ASK);
  });

  it('the same rules still allow the real folders of the project', async () => {
    const engine = new PermissionEngine({ cwd: wd, settings: { allow: ['write(src/**)', 'write(./**)'] } });
    for (const path of ['src/a.ts', 'src/new/b.ts', 'pkg/x', join(wd, 'README.md')]) {
      expect([path, (await engine.check(write, { path })).behavior]).toEqual([path, ALLOW]);
    }
  });

  it('deny rules still follow every link, the project\'s included', async () => {
    const engine = new PermissionEngine({ cwd: wd, settings: { deny: ['read(docs/**)'] } });
    expect((await engine.check(read, { path: join(ssh, 'authorized_keys') })).behavior).toBe(DENY);
  });
});

/**
 * A tool that expands the tilde (a shell, Python's `expanduser`) reads `~<user>/...` from that user's home. The
 * process's own user name is its home; another user's home cannot be looked up, so the path cannot be judged and
 * deny rules apply (fail closed); names that are not user names (`~$lock.docx`) stay plain file names.
 */
describe('~<user> paths', () => {
  const cwd = scratch('tilde-user');
  const me = userInfo().username;
  const engine = new PermissionEngine({ cwd, settings: { deny: ['read(~/.ssh/**)', 'write(/nowhere/**)'] } });

  it.each([[`~${me}/.ssh/id_rsa`], [`~${me}/.ssh`], [`~${me}/x/../.ssh/id`], ['~/.ssh/id'], ['~bob/.ssh/id_rsa'], ['~zz-other'], ['~www-data/.ssh/k']])(
    'read %s is denied',
    async (path) => {
      expect((await engine.check(read, { path })).behavior).toBe(DENY);
    },
  );

  it('another user\'s home is never allowed by a rule, and asks', async () => {
    const allowing = new PermissionEngine({ cwd, settings: { allow: ['write(./**)', 'write(/**)'] } });
    expect((await allowing.check(write, { path: '~bob/.bashrc' })).behavior).toBe(ASK);
    expect((await allowing.check(write, { path: `~${me}/notes.txt` })).behavior).toBe(ALLOW);
  });

  it.each([['~$lock.docx'], ['~~'], ['~1/x'], ['~.hidden']])('%s is only a file name', async (path) => {
    expect((await engine.check(read, { path })).behavior).toBe(ALLOW);
    const asked = await new PermissionEngine({ cwd }).check(write, { path });
    expect(asked.suggestions.length).toBe(1);
  });
});
