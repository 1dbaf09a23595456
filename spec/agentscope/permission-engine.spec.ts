import { Type } from '@sinclair/typebox';
import {
  Action,
  FunctionTool,
  Tools,
  ToolEffect,
} from '../../lib';
import {
  PermissionBehavior,
  PermissionDecision,
  PermissionEngine,
  PermissionMode,
  formatPermissionRule,
  pathRule,
  permissionRule,
} from '../../lib/permissions';
import { Probe } from './probe-tool';
import { loadBashParser } from '../../lib/builtins';

const Path = Type.Object({ path: Type.String() });

class Files {
  @Action('Read a file.', { params: Path, effects: [ToolEffect.READS_WORKSPACE], permissions: pathRule('path') })
  read(): string {
    return 'content';
  }

  @Action('Write a file.', { params: Path, effects: [ToolEffect.WRITES_WORKSPACE], permissions: pathRule('path'), requiresApproval: true })
  write(): string {
    return 'written';
  }

  @Action('Delete a file.', { params: Path, effects: [ToolEffect.WRITES_WORKSPACE], requiresApproval: (p: { path: string }) => p.path.startsWith('/') })
  remove(): string {
    return 'removed';
  }

  @Action('Run a query.', { params: Type.Object({ sql: Type.String() }), readOnly: (p: { sql: string }) => /^select\b/i.test(p.sql) })
  query(): string {
    return 'rows';
  }

  @Action('Compute a hash.', {})
  hash(): string {
    return 'h';
  }
}

const tools = new Tools().register(new Files());
const tool = (name: string) => tools.get(name)!;

describe('tool traits from @Action options', () => {
  it('derives read-only and concurrency-safety from the effects', () => {
    expect([tool('read').isReadOnly, tool('read').isConcurrencySafe]).toEqual([true, true]);
    expect([tool('write').isReadOnly, tool('write').isConcurrencySafe]).toEqual([false, false]);
    expect([tool('hash').isReadOnly, tool('hash').isConcurrencySafe]).toEqual([false, false]);
    expect([tool('read').isExternalTool, tool('read').isStateInjected, tool('read').isMcp, tool('read').mcpName]).toEqual([false, false, false, undefined]);
  });

  it('checks read-only per call with a predicate', () => {
    expect(tool('query').isReadOnly).toBe(false);
    expect(tool('query').checkReadOnly({ sql: 'SELECT 1' })).toBe(true);
    expect(tool('query').checkReadOnly({ sql: 'DELETE FROM t' })).toBe(false);
  });

  it('asks for requiresApproval tools unless an allow rule covers them', async () => {
    const engine = new PermissionEngine();
    const asked = await engine.check(tool('write'), { path: 'src/a.ts' });
    expect(asked.behavior).toBe(PermissionBehavior.ASK);
    expect(asked.suggestions.map(formatPermissionRule)).toEqual(['write(src/**)']);
    engine.addRules(['write(src/**)'], PermissionBehavior.ALLOW, 'session');
    expect((await engine.check(tool('write'), { path: 'src/a.ts' })).behavior).toBe(PermissionBehavior.ALLOW);
    expect((await engine.check(tool('write'), { path: 'lib/a.ts' })).behavior).toBe(PermissionBehavior.ASK);
    expect((await engine.check(tool('write'), { path: 'src/../.ssh/id' })).behavior).toBe(PermissionBehavior.ASK);
  });

  it('applies a requiresApproval predicate to the validated params; a writing tool without approval passes through', async () => {
    const engine = new PermissionEngine();
    const own = await tool('remove').checkPermissions({ path: 'a' }, engine.context);
    expect([own.behavior, own.message]).toEqual([PermissionBehavior.PASSTHROUGH, 'remove declares side effects (writes_workspace); the permission rules and mode decide.']);
    expect((await engine.check(tool('remove'), { path: 'a' })).reason).toEqual({ type: 'default' });
    const decision = await engine.check(tool('remove'), JSON.stringify({ path: '/a' }));
    expect([decision.behavior, decision.reason.type]).toEqual([PermissionBehavior.ASK, 'tool']);
    expect(decision.suggestions).toEqual([permissionRule('remove', PermissionBehavior.ALLOW)]);
    engine.addRules(['remove'], PermissionBehavior.ALLOW);
    expect((await engine.check(tool('remove'), { path: 'a' })).behavior).toBe(PermissionBehavior.ALLOW);
  });

  it('gives tools without a matcher tool-wide rules only', async () => {
    const engine = new PermissionEngine({ settings: { deny: ['hash(anything)'] } });
    expect(tool('hash').matchRule('anything', {}, engine.context, PermissionBehavior.DENY)).toBe(false);
    // A deny rule with content the tool cannot judge would match nothing: the call is denied, naming the fix.
    const misfit = await engine.check(tool('hash'), {});
    expect(misfit.behavior).toBe(PermissionBehavior.DENY);
    expect(misfit.message).toContain('Write hash without content');
    engine.removeRule(permissionRule('hash', PermissionBehavior.DENY, 'anything'));
    // `hash` declares no effects: treated as having side effects, so the engine asks.
    expect((await engine.check(tool('hash'), {})).behavior).toBe(PermissionBehavior.ASK);
    engine.addRules(['hash'], PermissionBehavior.ALLOW);
    expect((await engine.check(tool('hash'), {})).behavior).toBe(PermissionBehavior.ALLOW);
    engine.addRules([permissionRule('hash', PermissionBehavior.DENY)]);
    expect((await engine.check(tool('hash'), {})).behavior).toBe(PermissionBehavior.DENY);
  });
});

describe('PermissionEngine', () => {
  it('passes the mode to the tool and switches modes', async () => {
    const probe = new Probe('passthrough');
    const engine = new PermissionEngine({ mode: PermissionMode.ACCEPT_EDITS, workingDirectories: ['/work'] });
    await engine.check(probe, { command: 'ls' });
    engine.setMode(PermissionMode.DEFAULT);
    await engine.check(probe, { command: 'ls' });
    expect(probe.seenModes).toEqual(['accept_edits', 'default']);
    expect(engine.mode).toBe(PermissionMode.DEFAULT);
    expect(engine.context.workingDirectories).toEqual(['/work']);
  });

  it('keeps the reason and suggestions when DONT_ASK turns an ask into a deny', async () => {
    await loadBashParser(); // suggestions of a shell command need the parser, which commandRule starts loading
    const decision = await new PermissionEngine({ mode: PermissionMode.DONT_ASK }).check(new Probe('ask'), { command: 'git commit -m "fix bug"' });
    expect(decision.behavior).toBe(PermissionBehavior.DENY);
    expect(decision.reason.type).toBe('tool');
    expect(decision.message).toMatch(/tool asks.*dont-ask/);
    expect(decision.suggestions.map(formatPermissionRule)).toEqual(['Bash(git commit:*)']);
  });

  it('keeps suggestions a tool gave with its ask', async () => {
    const own = [permissionRule('Bash', PermissionBehavior.ALLOW, 'make:*')];
    const tool = new FunctionTool(() => 'x', { name: 'Bash', description: 'd', params: Type.Object({ command: Type.String() }), permissions: { checkPermissions: () => PermissionDecision.ask('mine', { suggestions: own }) } });
    expect((await new PermissionEngine().check(tool, { command: 'make' })).suggestions).toEqual(own);
  });

  it('carries an updated input and checks it against the deny rules again', async () => {
    const rewrite = (path: string) =>
      new FunctionTool(() => 'x', {
        name: 'Write',
        description: 'd',
        params: Path,
        permissions: { ...pathRule('path'), checkPermissions: () => PermissionDecision.passthrough('normalised', { updatedInput: { path } }) },
      });
    const engine = new PermissionEngine({ settings: { allow: ['Write(src/**)'], deny: ['Write(secrets/**)'] } });
    const allowed = await engine.check(rewrite('src/b.ts'), { path: './src/b.ts' });
    expect([allowed.behavior, allowed.updatedInput]).toEqual([PermissionBehavior.ALLOW, { path: 'src/b.ts' }]);
    const denied = await engine.check(rewrite('secrets/key'), { path: 'src/innocent' });
    expect([denied.behavior, denied.reason.type]).toEqual([PermissionBehavior.DENY, 'rule']);
    const asked = await new PermissionEngine().check(rewrite('x'), { path: 'y' });
    expect([asked.behavior, asked.updatedInput]).toEqual([PermissionBehavior.ASK, { path: 'x' }]);
    const bypass = await new PermissionEngine({ mode: PermissionMode.BYPASS }).check(rewrite('z'), { path: 'y' });
    expect([bypass.behavior, bypass.updatedInput]).toEqual([PermissionBehavior.ALLOW, { path: 'z' }]);
  });

  it('fails closed when a tool check or a matcher throws', async () => {
    const throwing = new FunctionTool(() => 'x', {
      name: 'Flaky',
      description: 'd',
      permissions: {
        checkPermissions: () => {
          throw new Error('boom');
        },
      },
    });
    const decision = await new PermissionEngine({ mode: PermissionMode.BYPASS }).check(throwing, {});
    expect([decision.behavior, decision.reason.type]).toEqual([PermissionBehavior.DENY, 'error']);
    expect(decision.message).toMatch(/boom/);
    const badMatcher = new FunctionTool(() => 'x', {
      name: 'Odd',
      description: 'd',
      permissions: {
        checkPermissions: () => PermissionDecision.allow('fine'),
        matchRule: () => {
          throw new Error('bad');
        },
        generateSuggestions: () => {
          throw new Error('bad');
        },
      },
    });
    expect((await new PermissionEngine({ settings: { deny: ['Odd(x)'] } }).check(badMatcher, {})).behavior).toBe(PermissionBehavior.DENY);
    expect((await new PermissionEngine({ settings: { ask: ['Odd(x)'] } }).check(badMatcher, {})).suggestions).toEqual([]);
    const asksWithAllow = new FunctionTool(() => 'x', { name: 'Odd', description: 'd', permissions: { matchRule: () => { throw new Error('bad'); } } });
    expect((await new PermissionEngine({ settings: { allow: ['Odd(x)'] } }).check(asksWithAllow, {})).behavior).toBe(PermissionBehavior.ASK);
    const throwingReadOnly = new FunctionTool(() => 'x', { name: 'Ro', description: 'd' });
    jest.spyOn(throwingReadOnly, 'checkReadOnly').mockImplementation(() => {
      throw new Error('bad');
    });
    expect((await new PermissionEngine({ mode: PermissionMode.EXPLORE }).check(throwingReadOnly, {})).behavior).toBe(PermissionBehavior.DENY);
  });

  it('allows arguments that do not validate (they run nothing) unless a tool-wide deny rule applies', async () => {
    const decision = await new PermissionEngine({ mode: PermissionMode.EXPLORE }).check(tool('write'), { nope: 1 });
    expect([decision.behavior, decision.reason.type]).toEqual([PermissionBehavior.ALLOW, 'invalid_input']);
    const denied = await new PermissionEngine({ settings: { deny: ['write', 'write(x)'] } }).check(tool('write'), 'not json');
    expect(denied.behavior).toBe(PermissionBehavior.DENY);
    const contentOnly = await new PermissionEngine({ settings: { deny: ['write(x)'] } }).check(tool('write'), 'not json');
    expect(contentOnly.behavior).toBe(PermissionBehavior.ALLOW);
  });

  it('adds and removes rules', async () => {
    const engine = new PermissionEngine({ rules: [permissionRule('Bash', PermissionBehavior.ALLOW, 'ls:*', 'user')] });
    expect((await engine.check(new Probe('passthrough'), { command: 'ls -la' })).behavior).toBe(PermissionBehavior.ALLOW);
    engine.removeRule(permissionRule('Bash', PermissionBehavior.ALLOW, 'ls:*'));
    expect(engine.context.rules).toEqual([]);
    expect((await engine.check(new Probe('passthrough'), { command: 'ls -la' })).behavior).toBe(PermissionBehavior.ASK);
    const denied = await new PermissionEngine({ rules: [permissionRule('Bash', PermissionBehavior.DENY, undefined, 'policy')] }).check(new Probe('allow'), { command: 'ls' });
    expect(denied.message).toBe('The permission rule Bash (from policy) denies this call of Bash.');
  });
});

describe('PermissionDecision', () => {
  it('is frozen and copies with with()', () => {
    const ask = PermissionDecision.ask('why', { bypassImmune: true });
    expect(Object.isFrozen(ask)).toBe(true);
    expect(ask.bypassImmune).toBe(true);
    expect(PermissionDecision.allow('x', { bypassImmune: true }).bypassImmune).toBe(false);
    const copy = ask.with({ message: 'other', updatedInput: { a: 1 } });
    expect([copy.behavior, copy.message, copy.bypassImmune, copy.updatedInput, copy.isAllowed]).toEqual([PermissionBehavior.ASK, 'other', true, { a: 1 }, false]);
    expect(copy.with({ updatedInput: undefined }).updatedInput).toBeUndefined();
    expect(PermissionDecision.passthrough().behavior).toBe(PermissionBehavior.PASSTHROUGH);
  });
});
