import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { commandMatchesRule } from '../../lib/builtins';
import {
  formatPermissionRule,
  formatPermissionSettings,
  isDangerousPath,
  parsePermissionRule,
  parsePermissionSettings,
  pathMatchesRule,
  pathRule,
  permissionRule,
  PermissionBehavior,
  PermissionContext,
  PermissionDecision,
  type RuleBehavior,
  PermissionEngine,
  PermissionMode,
} from '../../lib/permissions';
import { ToolBase } from '../../lib';
import { Probe } from '../agentscope/probe-tool';

const { ALLOW, DENY, ASK } = PermissionBehavior;

describe('review: rule strings round-trip with awkward content', () => {
  it.each([
    'Bash(echo (a) b)',
    'Bash(echo ))',
    'Bash(a\\(b\\))',
    'Bash(git commit:*)',
    'Bash(C:\\Users\\x y)',
    'Write(src/**)',
    'Read(/héllo/wörld/日本.txt)',
    'Bash( leading and trailing )',
    'Bash(line1\nline2)',
    'mcp__github__*',
    'Read',
  ])('%j parses and prints back', (text) => {
    for (const behavior of [ALLOW, DENY, ASK] as const) {
      expect(formatPermissionRule(parsePermissionRule(text, behavior))).toBe(text);
    }
  });

  it('refuses rules that cannot be printed back to a parseable string', () => {
    expect(() => parsePermissionRule('Bash()', ALLOW)).toThrow(/empty content/);
    expect(() => parsePermissionRule('Bash(   )', ALLOW)).toThrow(/empty content/);
    expect(() => parsePermissionRule('Bash(x', ALLOW)).toThrow();
    expect(() => parsePermissionRule('Bad Name(x)', ALLOW)).toThrow();
    expect(() => parsePermissionRule('', ALLOW)).toThrow();
  });

  it('a programmatic rule always prints to a string parsePermissionRule accepts (settings round trip)', () => {
    expect(() => permissionRule('Bash', DENY, '   ')).toThrow(/blank content/);
    expect(() => permissionRule('my tool', DENY)).toThrow(/tool name/);
    expect(() => permissionRule('', DENY)).toThrow(/tool name/);
    const rules = [permissionRule('Bash', DENY, ' x'), permissionRule('Bash', ALLOW, ''), permissionRule('Read', ASK, 'a (b) c')];
    const back = parsePermissionSettings(formatPermissionSettings(rules));
    expect(back.map(formatPermissionRule).sort()).toEqual(rules.map(formatPermissionRule).sort());
  });
});

const PathInput = Type.Object({ path: Type.String() });
class ReadTool extends ToolBase<typeof PathInput> {
  private readonly rules = pathRule('path');
  constructor(name = 'Read', private readonly verdict?: () => PermissionDecision) {
    super({ name, description: 'Reads a file.', inputSchema: PathInput });
  }
  override checkPermissions(input: Static<typeof PathInput>): PermissionDecision {
    return this.verdict ? this.verdict() : PermissionDecision.passthrough(`no opinion on ${input.path}`);
  }
  override matchRule(content: string, input: Static<typeof PathInput>, context: PermissionContext, behavior: RuleBehavior): boolean {
    return this.rules.matchRule(content, input, context, behavior);
  }
  override call(): string {
    return 'ok';
  }
}

describe('review: path rules', () => {
  it.each([
    // a rule naming a folder covers what is inside it (.gitignore semantics, which the docs promise); relative
    // patterns are relative to the cwd (here /p), and one without an inner '/' matches at any depth below it
    ['secrets', '/p/secrets/key.pem', true],
    ['secrets', '/p/a/b/secrets/key.pem', true],
    ['secrets/', '/p/secrets/key.pem', true],
    ['.git', 'repo/.git/config', true],
    ['/etc', '/etc/passwd', true],
    ['/etc/', '/etc/passwd', true],
    ['/etc/**', '/etc/', true],
    ['secrets', '/p/secrets', true],
    ['secrets', '/elsewhere/secrets/key', false],
    ['secrets', '/p/not-secrets/key', false],
    ['/etc', '/p/etc/passwd', false],
    ['src/**', '/p/src/../../etc/passwd', false],
    ['/p/src/**', '/p/src/../../etc/passwd', false],
    ['/etc/**', '/p/../etc/passwd', true],
    ['/etc/**', '/etc/./passwd', true],
    ['/etc/**', '//etc//passwd', true],
    ['docs/日本/**', '/p/docs/日本/a.md', true],
  ])('%s covers %s: %s', (pattern, path, expected) => expect(pathMatchesRule(pattern, path, { cwd: '/p', caseInsensitive: false })).toBe(expected));

  it('a deny rule on a folder denies reads inside it, in every mode', async () => {
    for (const mode of Object.values(PermissionMode)) {
      const engine = new PermissionEngine({ mode, cwd: '/p', settings: { deny: ['Read(secrets)'], allow: ['Read'] } });
      expect((await engine.check(new ReadTool(), { path: '/p/secrets/id_rsa' })).behavior).toBe(DENY);
      expect((await engine.check(new ReadTool(), { path: 'secrets/id_rsa' })).behavior).toBe(DENY);
    }
  });
});

describe('review: dangerous files by path suffix', () => {
  it.each([
    ['/home/a/.ssh/config', true],
    ['C:\\Users\\a\\.ssh\\authorized_keys', true],
    ['/home/a/.SSH/CONFIG', true],
    ['/home/a/.bashrc/', true],
    ['/home/a/project/.env.local', true],
    ['/home/a/project/.git/hooks/pre-commit', true],
    ['/home/a/ssh/config', false],
    ['/home/a/config', false],
    ['/home/a/.environment', false],
    ['/home/a/x/../.zshrc', true],
    ['', false],
  ])('%s dangerous: %s', (path, expected) => expect(isDangerousPath(path)).toBe(expected));
});

describe('review: engine order per mode', () => {
  it('deny beats ask beats read-only in every mode; ask rules ask even in BYPASS', async () => {
    for (const mode of Object.values(PermissionMode)) {
      const both = new PermissionEngine({ mode, settings: { deny: ['Bash(rm:*)'], ask: ['Bash(rm:*)'], allow: ['Bash'] } });
      expect((await both.check(new Probe('allow', true), { command: 'rm -rf /' })).behavior).toBe(DENY);
      const ask = new PermissionEngine({ mode, settings: { ask: ['Bash(rm:*)'], allow: ['Bash'] } });
      expect((await ask.check(new Probe('allow', true), { command: 'rm x' })).behavior).toBe(mode === PermissionMode.DONT_ASK ? DENY : ASK);
    }
  });

  it('a rewritten input is checked against deny rules again and carried on the decision', async () => {
    const rewrite = (to: string) => () => PermissionDecision.allow('normalised', { updatedInput: { path: to } });
    const engine = new PermissionEngine({ settings: { deny: ['Read(/etc/**)'] } });
    const denied = await engine.check(new ReadTool('Read', rewrite('/etc/shadow')), { path: 'innocent.txt' });
    expect(denied.behavior).toBe(DENY);
    const allowed = await engine.check(new ReadTool('Read', rewrite('/tmp/fine.txt')), { path: 'innocent.txt' });
    expect(allowed.behavior).toBe(ALLOW);
    expect(allowed.updatedInput).toEqual({ path: '/tmp/fine.txt' });
    for (const mode of Object.values(PermissionMode)) {
      const bypass = new PermissionEngine({ mode, settings: { deny: ['Read(/etc/**)'], allow: ['Read'] } });
      const passthroughRewrite = () => PermissionDecision.passthrough('x', { updatedInput: { path: '/etc/shadow' } });
      const decision = await bypass.check(new ReadTool('Read', passthroughRewrite), { path: 'a' });
      expect(decision.behavior).toBe(DENY);
    }
  });

  it('a rewritten input that an ask rule covers still asks (ask rules are not silenced by a rewrite)', async () => {
    const tool = new ReadTool('Read', () => PermissionDecision.passthrough('x', { updatedInput: { path: '/home/a/private/x' } }));
    const engine = new PermissionEngine({ cwd: '/home/a', settings: { ask: ['Read(private/**)'], allow: ['Read'] } });
    expect((await engine.check(tool, { path: 'public.txt' })).behavior).toBe(ASK);
  });
});

describe('review: dangerous files behind symlinks', () => {
  it('treats a link leading to a dangerous file or directory as dangerous', () => {
    const home = mkdtempSync(join(tmpdir(), 'review2-'));
    try {
      writeFileSync(join(home, '.bashrc'), 'x');
      mkdirSync(join(home, '.ssh'));
      mkdirSync(join(home, 'project'));
      symlinkSync(join(home, '.bashrc'), join(home, 'project', 'notes.txt'));
      symlinkSync(join(home, '.ssh'), join(home, 'project', 'keys'));
      writeFileSync(join(home, 'project', 'plain.txt'), 'x');
      const context = new PermissionContext({ workingDirectories: [join(home, 'project')] });
      expect(context.isDangerousPath(join(home, 'project', 'notes.txt'))).toBe(true);
      expect(context.isDangerousPath('notes.txt')).toBe(true);
      expect(context.isDangerousPath('keys/new_key')).toBe(true);
      expect(context.isDangerousPath('plain.txt')).toBe(false);
      expect(context.isDangerousPath('missing/file.txt')).toBe(false);
      expect(context.isDangerousPath('')).toBe(false);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('review: command rules and whitespace', () => {
  it.each([
    ['rm:*', 'rm\t-rf /', true],
    ['rm:*', 'rm  -rf /', true],
    // A newline ends a command: `-rf /` is a second command that `rm:*` does not cover.
    ['rm:*', '  rm\n-rf /', false],
    ['rm:*', 'rmdir x', false],
    ['git push', 'git\tpush', true],
    ['git push', 'git  push  ', true],
    ['git  push:*', 'git push origin', true],
    ['git push *', 'git\tpush\torigin', true],
  ])('command rule %j covers %j: %s', async (pattern, command, expected) => expect(await commandMatchesRule(pattern, command)).toBe(expected));

  it('a deny rule cannot be dodged with a tab', async () => {
    const engine = new PermissionEngine({ settings: { deny: ['Bash(rm:*)'], allow: ['Bash'] } });
    expect((await engine.check(new Probe('passthrough'), { command: 'rm\t-rf /' })).behavior).toBe(DENY);
  });
});

describe('review: a tool check that returns garbage', () => {
  it.each([undefined, null, 'allow', { behavior: 'yes' }])('fails closed (DENY) instead of rejecting when checkPermissions returns %j', async (value) => {
    const tool = new ReadTool('Read', () => value as unknown as PermissionDecision);
    for (const mode of Object.values(PermissionMode)) {
      const decision = await new PermissionEngine({ mode, settings: { allow: ['Read'] } }).check(tool, { path: 'a' });
      expect(decision.behavior).toBe(DENY);
      expect(decision.reason.type).toBe(mode === PermissionMode.EXPLORE ? 'mode' : 'error');
    }
  });

  it('rebuilds a decision-shaped plain object instead of crashing on it', async () => {
    const tool = new ReadTool('Read', () => ({ behavior: 'ask', message: 'plain ask' }) as unknown as PermissionDecision);
    const decision = await new PermissionEngine().check(tool, { path: 'a' });
    expect([decision.behavior, decision.message, decision.suggestions.length]).toEqual([ASK, 'plain ask', 1]);
    const dontAsk = await new PermissionEngine({ mode: PermissionMode.DONT_ASK }).check(tool, { path: 'a' });
    expect(dontAsk.behavior).toBe(DENY);
  });
});

describe('review: path rules and case', () => {
  const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
  afterEach(() => Object.defineProperty(process, 'platform', platform));

  it.each([
    ['darwin', true],
    ['win32', true],
    ['linux', false],
  ])('on %s, secrets/** covers SECRETS/key: %s', (os, expected) => {
    Object.defineProperty(process, 'platform', { ...platform, value: os });
    expect(pathMatchesRule('secrets/**', '/p/SECRETS/key', { cwd: '/p' })).toBe(expected);
    expect(pathMatchesRule('/Etc', '/etc/passwd')).toBe(expected);
    expect(pathMatchesRule('secrets/**', '/p/secrets/key', { cwd: '/p' })).toBe(true);
    expect(new PermissionContext().caseInsensitive).toBe(expected);
  });
});

describe('review: path rules and symlinks', () => {
  it('a deny rule covers an absolute path whose link leads into what it names', async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'review2-links-')));
    try {
      mkdirSync(join(base, 'secrets'));
      writeFileSync(join(base, 'secrets', 'key'), 'k');
      mkdirSync(join(base, 'work'));
      symlinkSync(join(base, 'secrets'), join(base, 'work', 'innocent'));
      const engine = new PermissionEngine({ rules: [permissionRule('Read', DENY, `${base}/secrets/**`)], settings: { allow: ['Read'] } });
      expect((await engine.check(new ReadTool(), { path: join(base, 'work', 'innocent', 'key') })).behavior).toBe(DENY);
      expect((await engine.check(new ReadTool(), { path: join(base, 'work', 'other') })).behavior).toBe(ALLOW);
      expect((await engine.check(new ReadTool(), { path: 'work/innocent/key' })).behavior).toBe(ALLOW);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
