import { mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  isInsideWorkingDirectories,
  PathResolutionError,
  pathMatchesRule,
  pathRule,
  PermissionBehavior,
  PermissionConfigError,
  PermissionContext,
  PermissionEngine,
  PermissionMode,
  realPathOf,
} from '../../lib/permissions';
import { file, read, scratch, write } from './fixtures';

const { ALLOW, DENY, ASK } = PermissionBehavior;

/**
 * Layout: <base>/wd (the working directory, the engine's cwd), <base>/outside with key.txt and sub/, and links in wd
 * that lead outside in various ways.
 */
function layout() {
  const base = scratch('paths');
  const wd = join(base, 'wd');
  const outside = join(base, 'outside');
  file(join(outside, 'key.txt'), 'secret');
  file(join(outside, 'sub', 'inner.txt'));
  file(join(wd, 'own.txt'));
  mkdirSync(join(wd, 'dir'));
  symlinkSync(join(outside, 'sub'), join(wd, 'link')); // absolute target
  symlinkSync('../outside/sub', join(wd, 'rel')); // relative target
  symlinkSync(join(wd, 'hop2'), join(wd, 'hop1')); // a chain: hop1 -> hop2 -> outside/sub
  symlinkSync(join(outside, 'sub'), join(wd, 'hop2'));
  symlinkSync(join(outside, 'key.txt'), join(wd, 'notes.txt')); // a file link
  symlinkSync(join(outside, 'missing.txt'), join(wd, 'dangling')); // a dangling link out
  symlinkSync(join(wd, 'loop'), join(wd, 'loop')); // a loop
  symlinkSync(join(wd, 'pong'), join(wd, 'ping'));
  symlinkSync(join(wd, 'ping'), join(wd, 'pong'));
  symlinkSync(join(wd, 'own.txt'), join(wd, 'notdir')); // a file used as a folder below
  return { base, wd, outside };
}

describe('deny rules judge the file the kernel opens', () => {
  const { wd, outside } = layout();
  const engine = new PermissionEngine({ workingDirectories: [wd], settings: { deny: [`read(${outside}/key.txt)`, `write(${outside}/**)`] } });

  it.each([
    // the demonstrated input: `..` applied after the link, as the kernel does
    ['link/../key.txt'],
    [`${wd}/link/../key.txt`],
    ['rel/../key.txt'],
    ['hop1/../key.txt'],
    ['link/../sub/../key.txt'],
    ['link/./../key.txt'],
    ['link//..//key.txt'],
    [`${wd}//link/../key.txt`],
    ['./link/../key.txt'],
    ['notes.txt'],
    ['dir/../notes.txt'],
    ['link/../../outside/key.txt'],
  ])('read %s is denied', async (path) => {
    const decision = await engine.check(read, { path });
    expect([decision.behavior, decision.reason.type]).toEqual([DENY, 'rule']);
  });

  it.each([['link/../new.txt'], ['link/inner.txt'], ['rel/x/y'], ['hop1/../z'], ['dangling'], ['link/'], ['link/../']])('write %s is denied', async (path) => {
    expect((await engine.check(write, { path })).behavior).toBe(DENY);
  });

  it('magic links in /proc lead where the kernel goes', async () => {
    const e = new PermissionEngine({ cwd: wd, settings: { deny: ['read(/etc/**)'] } });
    for (const path of ['/proc/self/root/etc/passwd', '/proc/thread-self/root/etc/hostname', '/proc/self/root/proc/self/root/etc/x']) {
      expect([path, (await e.check(read, { path })).behavior]).toEqual([path, DENY]);
    }
  });

  it('leaves the working directory itself alone', async () => {
    expect((await engine.check(read, { path: 'own.txt' })).behavior).toBe(ALLOW);
    expect((await engine.check(write, { path: 'dir/../own.txt' })).behavior).toBe(ASK);
  });

  it('fails closed when a path cannot be resolved: loops, long chains, a file used as a folder', async () => {
    for (const path of ['loop', 'loop/x', 'ping/key.txt', 'notdir/x', 'own.txt/x', 'a\0b']) {
      const decision = await engine.check(write, { path });
      expect([path, decision.behavior]).toEqual([path, DENY]);
      expect(decision.message).toMatch(/could not judge this call, so it applies \(Cannot resolve path/);
    }
    expect(() => realPathOf('loop', wd)).toThrow(PathResolutionError);
  });

  it('a link created after the rule was added is judged when the call comes', async () => {
    const late = join(wd, 'late');
    expect((await engine.check(read, { path: 'late/../key.txt' })).behavior).toBe(ALLOW);
    symlinkSync(join(outside, 'sub'), late);
    try {
      expect((await engine.check(read, { path: 'late/../key.txt' })).behavior).toBe(DENY);
    } finally {
      unlinkSync(late);
    }
  });
});

describe('allow rules must cover the real path too', () => {
  const { wd, outside } = layout();
  const engine = new PermissionEngine({ workingDirectories: [wd], settings: { allow: [`write(${wd}/**)`] } });

  it.each([['link/key'], ['link/inner.txt'], ['rel/x'], ['hop1/x'], ['notes.txt'], ['dangling'], ['link/../key.txt'], ['dir/../link/x'], [`${wd}/link/x`], ['link']])(
    'write %s asks instead of running',
    async (path) => {
      const decision = await engine.check(write, { path });
      expect([decision.behavior, decision.reason.type]).toEqual([ASK, 'default']);
    },
  );

  it('allows what really lies inside', async () => {
    for (const path of ['own.txt', 'dir/new.txt', `${wd}/dir/a/b`, './x', 'dir/../y', wd]) {
      expect([path, (await engine.check(write, { path })).behavior]).toEqual([path, ALLOW]);
    }
  });

  it('a loop is never allowed (fail closed), in any mode that consults allow rules', async () => {
    for (const mode of [PermissionMode.DEFAULT, PermissionMode.ACCEPT_EDITS]) {
      const e = new PermissionEngine({ mode, cwd: wd, settings: { allow: ['write(**)', `write(${wd}/**)`] } });
      expect((await e.check(write, { path: 'loop' })).behavior).toBe(ASK);
      expect((await e.check(write, { path: 'ping/x' })).behavior).toBe(ASK);
    }
  });

  it('a link swapped in after the rule was added is not allowed', async () => {
    const swap = join(wd, 'swap');
    mkdirSync(swap);
    expect((await engine.check(write, { path: 'swap/x' })).behavior).toBe(ALLOW);
    renameSync(swap, join(wd, 'swap-old'));
    symlinkSync(outside, swap);
    expect((await engine.check(write, { path: 'swap/x' })).behavior).toBe(ASK);
  });

  it('an allow rule naming a link of the project does not follow it: the project cannot widen its own rules', async () => {
    // A cloned repository can ship `link -> <outside>`; a rule written for the folder must not allow the outside.
    const e = new PermissionEngine({ cwd: wd, settings: { allow: ['write(link/**)', 'write(rel)', 'write(hop1/**)', 'write(notes.txt)'] } });
    for (const path of ['link/inner.txt', join(outside, 'sub', 'inner.txt'), join(outside, 'key.txt'), 'rel/x', 'hop1/x', 'notes.txt', join(outside, 'sub', 'x')]) {
      expect([path, (await e.check(write, { path })).behavior]).toEqual([path, ASK]);
    }
    // a working directory's links are the project's too
    const other = new PermissionEngine({ cwd: outside, workingDirectories: [outside, wd], settings: { allow: [`write(${wd}/link/**)`] } });
    expect((await other.check(write, { path: join(wd, 'link', 'inner.txt') })).behavior).toBe(ASK);
  });

  it('links above the project (the system\'s, such as /tmp on macOS) are still followed by allow rules', async () => {
    const alias = join(wd, '..', 'alias');
    symlinkSync(wd, alias);
    const e = new PermissionEngine({ cwd: wd, settings: { allow: [`write(${alias}/dir/**)`] } });
    expect((await e.check(write, { path: 'dir/a.txt' })).behavior).toBe(ALLOW);
    expect((await e.check(write, { path: join(alias, 'dir', 'a.txt') })).behavior).toBe(ALLOW);
    const viaAlias = new PermissionEngine({ cwd: alias, settings: { allow: ['write(dir/**)'] } });
    expect((await viaAlias.check(write, { path: 'dir/a.txt' })).behavior).toBe(ALLOW);
    expect((await viaAlias.check(write, { path: join(wd, 'dir', 'a.txt') })).behavior).toBe(ALLOW);
    expect((await viaAlias.check(write, { path: 'own.txt' })).behavior).toBe(ASK);
  });
});

describe('rule patterns with links and `..`', () => {
  const { wd, outside } = layout();

  it('a deny pattern through a link covers the link target, spelled either way', async () => {
    const e = new PermissionEngine({ cwd: wd, settings: { deny: ['read(link/**)'] } });
    expect((await e.check(read, { path: join(outside, 'sub', 'inner.txt') })).behavior).toBe(DENY);
    expect((await e.check(read, { path: 'rel/inner.txt' })).behavior).toBe(DENY);
    expect((await e.check(read, { path: join(outside, 'key.txt') })).behavior).toBe(ALLOW);
  });

  it("a deny pattern with '..' after a link covers what the kernel reaches and what it spells", async () => {
    const e = new PermissionEngine({ cwd: wd, settings: { deny: ['read(link/../key.txt)', `read(${wd}/rel/../*.txt)`] } });
    expect((await e.check(read, { path: join(outside, 'key.txt') })).behavior).toBe(DENY);
    expect((await e.check(read, { path: join(wd, 'key.txt') })).behavior).toBe(DENY);
    expect((await e.check(read, { path: join(outside, 'other.txt') })).behavior).toBe(DENY);
    expect((await e.check(read, { path: join(outside, 'sub', 'inner.txt') })).behavior).toBe(ALLOW);
  });

  it("refuses '..' after a wildcard; a rule whose own links cannot be followed covers what it names as written", async () => {
    expect(() => pathMatchesRule('src/**/../x', '/p/x')).toThrow(PermissionConfigError);
    const e = new PermissionEngine({ cwd: wd, settings: { deny: ['read(loop/**)', 'read(notdir/x/**)'], allow: ['write(loop/**)'] } });
    expect((await e.check(read, { path: 'own.txt' })).behavior).toBe(ALLOW);
    expect((await e.check(read, { path: 'loop/x' })).behavior).toBe(DENY);
    expect((await e.check(read, { path: 'notdir/x/y' })).behavior).toBe(DENY);
    expect((await e.check(write, { path: 'loop/x' })).behavior).toBe(ASK);
    // a call that reaches the unresolvable spot through another spelling cannot be resolved either: denied
    symlinkSync(join(wd, 'loop'), join(wd, 'toloop'));
    expect((await e.check(read, { path: 'toloop/x' })).behavior).toBe(DENY);
  });
});

describe('relative paths and relative patterns resolve against the context cwd', () => {
  const { base, wd } = layout();
  file(join(wd, 'secret', 'a'));

  it('defaults the cwd to the first working directory, never the process cwd', async () => {
    expect(new PermissionContext({ workingDirectories: [wd, base] }).cwd).toBe(wd);
    expect(new PermissionContext({ workingDirectories: [wd], cwd: base }).cwd).toBe(base);
    expect(new PermissionContext().cwd).toBe(process.cwd());
    const engine = new PermissionEngine({ workingDirectories: [wd], settings: { deny: ['read(secret/**)'] } });
    expect(process.cwd()).not.toBe(wd);
    for (const path of ['secret/a', './secret/a', 'x/../secret/a', 'secret//a', 'secret/a/', 'secret', `${wd}/secret/a`, 'dir/../secret/new']) {
      expect([path, (await engine.check(read, { path })).behavior]).toEqual([path, DENY]);
    }
    expect((await engine.check(read, { path: join(base, 'secret', 'a') })).behavior).toBe(ALLOW);
    expect((await engine.check(read, { path: join(process.cwd(), 'secret', 'a') })).behavior).toBe(ALLOW);
  });

  it('keeps the cwd across mode and rule changes', async () => {
    const engine = new PermissionEngine({ cwd: wd, caseInsensitive: true });
    engine.setMode(PermissionMode.DONT_ASK).addRules(['read(SECRET/**)'], DENY);
    expect([engine.context.cwd, engine.context.caseInsensitive]).toEqual([wd, true]);
    expect((await engine.check(read, { path: 'secret/a' })).behavior).toBe(DENY);
  });
});

describe('~/ in a rule means the home directory', () => {
  // The real home directory (os.homedir()); nothing is created in it.
  const home = homedir();

  it('Read(~/.ssh/**) matches the home directory', async () => {
    const engine = new PermissionEngine({ cwd: scratch('elsewhere'), settings: { deny: ['read(~/.ssh/**)', 'write(~)'] } });
    expect((await engine.check(read, { path: join(home, '.ssh', 'id_rsa') })).behavior).toBe(DENY);
    expect((await engine.check(read, { path: join(home, '.ssh') })).behavior).toBe(DENY);
    expect((await engine.check(read, { path: join(home, 'notes') })).behavior).toBe(ALLOW);
    expect((await engine.check(write, { path: join(home, 'anything') })).behavior).toBe(DENY);
    expect(pathMatchesRule('~/.ssh/**', join(home, '.ssh', 'id_rsa'))).toBe(true);
    expect(pathMatchesRule('~/.ssh/**', '~/.ssh/id_rsa', { cwd: '/p' })).toBe(false); // an input '~' is a folder named '~'
    expect(pathMatchesRule('\\~/x', '/p/~/x', { cwd: '/p' })).toBe(true);
  });

  it('an input ~/... is judged as the home directory too, since tools may expand the tilde', async () => {
    const cwd = scratch('tilde');
    const engine = new PermissionEngine({ cwd, settings: { deny: ['read(~/.ssh/**)'], allow: ['write(/**)'] } });
    expect((await engine.check(read, { path: '~/.ssh/id_rsa' })).behavior).toBe(DENY);
    expect((await engine.check(read, { path: '~/.ssh/../.ssh/id_rsa' })).behavior).toBe(DENY);
    expect((await engine.check(read, { path: '~/notes' })).behavior).toBe(ALLOW);
    // one allow rule must cover both readings
    expect((await engine.check(write, { path: '~/notes' })).behavior).toBe(ALLOW);
    const split = new PermissionEngine({ cwd, settings: { allow: ['write(~/**)', `write(${cwd}/**)`] } });
    expect((await split.check(write, { path: '~/notes' })).behavior).toBe(ASK);
    const onlyHome = new PermissionEngine({ cwd, settings: { allow: ['write(~/**)'] } });
    const asked = await onlyHome.check(write, { path: '~/notes' });
    expect([asked.behavior, asked.suggestions]).toEqual([ASK, []]);
    expect((await onlyHome.check(write, { path: '~x/notes' })).behavior).toBe(ASK);
  });

  it.each(['~bob/.ssh/**', '~root', '~+/x', '~-/x', '~~/x'])('refuses %s with a coded error, never a rule that matches nothing', async (pattern) => {
    const error = (() => {
      try {
        pathMatchesRule(pattern, '/x');
      } catch (e) {
        return e;
      }
    })() as PermissionConfigError;
    expect(error).toBeInstanceOf(PermissionConfigError);
    expect(error.code).toBe('INVALID_PERMISSION_RULE');
    expect(error.message).toMatch(/only '~\/' \(your home directory\) may start a pattern/);
    // In the engine the broken rule fails closed: as a deny rule it denies (and says why), as an allow rule it never allows.
    const deny = await new PermissionEngine({ settings: { deny: [`read(${pattern})`] } }).check(read, { path: '/tmp/x' });
    expect([deny.behavior, deny.message]).toEqual([DENY, expect.stringMatching(/could not judge this call, so it applies \(Path rule pattern/)]);
    expect((await new PermissionEngine({ settings: { allow: [`write(${pattern})`] } }).check(write, { path: '/x' })).behavior).toBe(ASK);
  });
});

describe('isInsideWorkingDirectories uses the one containment rule', () => {
  const { base, wd, outside } = layout();

  it('answers for the root, siblings, links out, loops and relative paths', () => {
    expect(isInsideWorkingDirectories(wd, [wd])).toBe(true);
    expect(isInsideWorkingDirectories(`${wd}/`, [wd])).toBe(true);
    expect(isInsideWorkingDirectories(`${wd}-evil/x`, [wd])).toBe(false);
    expect(isInsideWorkingDirectories('link/../key.txt', [wd])).toBe(false);
    expect(isInsideWorkingDirectories('hop1/x', [wd])).toBe(false);
    expect(isInsideWorkingDirectories('hop1/x', [wd, outside])).toBe(true);
    expect(isInsideWorkingDirectories('loop', [wd])).toBe(false);
    expect(isInsideWorkingDirectories('x', [join(wd, 'loop')])).toBe(false);
    expect(isInsideWorkingDirectories('own.txt', [wd], { cwd: base })).toBe(false);
    expect(isInsideWorkingDirectories('wd/own.txt', [wd], { cwd: base })).toBe(true);
    expect(isInsideWorkingDirectories(join(wd, 'OWN.txt').toUpperCase(), [wd], { caseInsensitive: true })).toBe(true);
    const context = new PermissionContext({ workingDirectories: [wd], cwd: base });
    expect(context.isInsideWorkingDirectory('wd/dir/x')).toBe(true);
    expect(context.isInsideWorkingDirectory('dir/x')).toBe(false);
  });

  it('a dangerous-path check through a loop fails closed', () => {
    const context = new PermissionContext({ cwd: wd });
    expect(context.isDangerousPath('loop')).toBe(true);
    expect(context.isDangerousPath('own.txt')).toBe(false);
    symlinkSync(join(base, '.bashrc'), join(wd, 'harmless.txt'));
    expect(context.isDangerousPath('harmless.txt')).toBe(true);
    rmSync(join(wd, 'harmless.txt'));
  });
});

describe('path rule hooks called by hand', () => {
  it('need the rule behaviour (allow and deny judge links differently)', () => {
    const hooks = pathRule('path');
    const call = () => (hooks.matchRule as (...args: unknown[]) => boolean)('**', { path: '/x' }, new PermissionContext());
    expect(call).toThrow(expect.objectContaining({ code: 'INVALID_RULE_BEHAVIOR' }));
    expect((hooks.matchRule as (...args: unknown[]) => boolean)('/x', { path: '/x' }, undefined, DENY)).toBe(true);
  });
});
