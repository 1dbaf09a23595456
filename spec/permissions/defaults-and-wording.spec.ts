import { Type } from '@sinclair/typebox';
import {
  Action,
  executeToolCalls,
  runToolCalls,
  ToolBase,
  ToolEffect,
  Tools,
} from '../../lib';
import {
  PermissionBehavior,
  PermissionDecision,
  PermissionEngine,
  PermissionMiddleware,
  PermissionMode,
} from '../../lib/permissions';

const { ALLOW, ASK, PASSTHROUGH } = PermissionBehavior;
const Input = Type.Object({ x: Type.Optional(Type.String()) });

class Kinds {
  @Action('Pure computation.', { params: Input, effects: [] })
  pure(): string {
    return 'ran';
  }

  @Action('Reads.', { params: Input, effects: [ToolEffect.READS_WORKSPACE] })
  reads(): string {
    return 'ran';
  }

  @Action('Writes.', { params: Input, effects: [ToolEffect.WRITES_WORKSPACE] })
  writes(): string {
    return 'ran';
  }

  @Action('Starts a process.', { params: Input, effects: [ToolEffect.SPAWNS_PROCESS] })
  spawns(): string {
    return 'ran';
  }

  @Action('Calls the network.', { params: Input, effects: [ToolEffect.NETWORK] })
  network(): string {
    return 'ran';
  }

  @Action('Reads and writes.', { params: Input, effects: [ToolEffect.READS_WORKSPACE, ToolEffect.WRITES_WORKSPACE] })
  mixed(): string {
    return 'ran';
  }

  @Action('Declares nothing.', { params: Input })
  undeclared(): string {
    return 'ran';
  }

  @Action('Declared read-only by hand.', { params: Input, effects: [ToolEffect.NETWORK], readOnly: true })
  readOnlyOverride(): string {
    return 'ran';
  }

  @Action('Read-only for some inputs.', { params: Input, effects: [ToolEffect.WRITES_WORKSPACE], readOnly: (p: { x?: string }) => p.x === 'peek' })
  sometimes(): string {
    return 'ran';
  }

  @Action('Needs approval.', { params: Input, effects: [ToolEffect.WRITES_WORKSPACE], requiresApproval: true })
  approval(): string {
    return 'ran';
  }
}

const tools = new Tools().register(new Kinds());
const SIDE_EFFECTS = ['writes', 'spawns', 'network', 'mixed', 'undeclared', 'sometimes'];
const NO_SIDE_EFFECTS = ['pure', 'reads', 'readOnlyOverride'];

type Row = [tool: string, own: PermissionBehavior, def: string, allowRule: string, dontAsk: string, bypass: string, explore: string];

/** The decision table of docs/permissions.md for `@Action` tools (behaviour and reason). */
const TABLE: Row[] = [
  ['pure', ALLOW, 'allow read_only', 'allow read_only', 'allow read_only', 'allow read_only', 'allow read_only'],
  ['reads', ALLOW, 'allow read_only', 'allow read_only', 'allow read_only', 'allow read_only', 'allow read_only'],
  ['readOnlyOverride', ALLOW, 'allow read_only', 'allow read_only', 'allow read_only', 'allow read_only', 'allow read_only'],
  ['writes', PASSTHROUGH, 'ask default', 'allow rule', 'deny default', 'allow mode', 'deny mode'],
  ['spawns', PASSTHROUGH, 'ask default', 'allow rule', 'deny default', 'allow mode', 'deny mode'],
  ['network', PASSTHROUGH, 'ask default', 'allow rule', 'deny default', 'allow mode', 'deny mode'],
  ['mixed', PASSTHROUGH, 'ask default', 'allow rule', 'deny default', 'allow mode', 'deny mode'],
  ['undeclared', PASSTHROUGH, 'ask default', 'allow rule', 'deny default', 'allow mode', 'deny mode'],
  ['sometimes', PASSTHROUGH, 'ask default', 'allow rule', 'deny default', 'allow mode', 'deny mode'],
  ['approval', ASK, 'ask tool', 'allow rule', 'deny tool', 'allow mode', 'deny mode'],
];

describe('defaults of @Action tools with the engine', () => {
  const decide = async (name: string, mode: PermissionMode, allow = false) => {
    const engine = new PermissionEngine({ mode, settings: allow ? { allow: [name] } : {} });
    const decision = await engine.check(tools.get(name)!, {});
    return `${decision.behavior} ${decision.reason.type}`;
  };

  it.each(TABLE)('%s: own verdict %s; DEFAULT %s; with an allow rule %s; DONT_ASK %s; BYPASS %s; EXPLORE %s', async (name, own, def, allowRule, dontAsk, bypass, explore) => {
    const tool = tools.get(name)!;
    expect((await tool.checkPermissions({}, new PermissionEngine().context)).behavior).toBe(own);
    expect(await decide(name, PermissionMode.DEFAULT)).toBe(def);
    expect(await decide(name, PermissionMode.ACCEPT_EDITS)).toBe(def);
    expect(await decide(name, PermissionMode.DEFAULT, true)).toBe(allowRule);
    expect(await decide(name, PermissionMode.DONT_ASK)).toBe(dontAsk);
    expect(await decide(name, PermissionMode.BYPASS)).toBe(bypass);
    expect(await decide(name, PermissionMode.EXPLORE)).toBe(explore);
  });

  it('a per-call read-only answer allows that call only', async () => {
    const engine = new PermissionEngine();
    expect((await engine.check(tools.get('sometimes')!, { x: 'peek' })).behavior).toBe(ALLOW);
    expect((await engine.check(tools.get('sometimes')!, { x: 'poke' })).behavior).toBe(ASK);
  });

  it('a read-only predicate that throws cannot vouch for the call: passes through, and still runs outside the engine', async () => {
    class Throwing {
      @Action('Throws in readOnly.', { params: Input, effects: [ToolEffect.WRITES_WORKSPACE], readOnly: () => { throw new Error('boom'); } })
      odd(): string {
        return 'ran';
      }
    }
    const own = new Tools().register(new Throwing());
    const odd = own.get('odd')!;
    expect((await odd.checkPermissions({}, new PermissionEngine().context)).behavior).toBe(PASSTHROUGH);
    expect((await new PermissionEngine().check(odd, {})).behavior).toBe(ASK);
    expect((await runToolCalls(own, [{ id: '1', name: 'odd', args: {} }])).ran[0]!.result.result).toBe('ran');
  });

  it('says why a side-effect tool passes through', async () => {
    const context = new PermissionEngine().context;
    expect((await tools.get('network')!.checkPermissions({}, context)).message).toBe('network declares side effects (network); the permission rules and mode decide.');
    expect((await tools.get('undeclared')!.checkPermissions({}, context)).message).toBe(
      'undeclared is not read-only and declares no effects, so it is treated as having side effects; the permission rules and mode decide.',
    );
  });
});

describe('outside the engine nothing changes', () => {
  const calls = [...SIDE_EFFECTS, ...NO_SIDE_EFFECTS].map((name, i) => ({ id: `c${i}`, name, args: {} }));

  it('runToolCalls without an engine runs every tool that does not ask', async () => {
    const { ran, waiting } = await runToolCalls(tools, calls);
    expect(waiting).toEqual([]);
    expect(ran.map((r) => [r.call.name, r.result.result])).toEqual(calls.map((c) => [c.name, 'ran']));
    const approval = await runToolCalls(tools, [{ id: 'a', name: 'approval', args: {} }]);
    expect(approval.waiting.map((w) => w.reason)).toEqual(['approval']);
  });

  it('executeToolCalls and execute run them too', async () => {
    const outcomes = await executeToolCalls(tools, calls);
    expect(outcomes.map((o) => o.result.result)).toEqual(calls.map(() => 'ran'));
    for (const name of SIDE_EFFECTS) expect((await tools.execute(name, {})).result).toBe('ran');
  });
});

class Guarded extends ToolBase<typeof Input> {
  constructor() {
    super({ name: 'guarded', description: 'Refuses x=no itself.', inputSchema: Input });
  }
  override checkPermissions(input: { x?: string }): PermissionDecision {
    return input.x === 'no' ? PermissionDecision.deny('guarded never touches no.') : PermissionDecision.ask('guarded wants a confirmation');
  }
  override call(): string {
    return 'ran';
  }
}

/** No doubled or stray punctuation: `..`, `.)`, `. .`, `).` after a full stop. */
const CLEAN = /^(?!.*(\.\.|\.\)|\.\s+\.|\?\.|!\.)).*$/s;
const DENIED = "Permission denied for tool 'guarded': ";
const RETRY_DENIED = ' Do not retry it unchanged; take another approach or ask the user.';
const DECLINED = "The user declined to run tool 'guarded'. Do not retry it unchanged; ask the user or take another approach.";

describe('a rule denial and a person refusal are worded apart, the same on every path', () => {
  const registry = (middleware: PermissionMiddleware[] = []) => new Tools({ middleware }).register(new Guarded());
  const denyRule = () => new PermissionEngine({ settings: { deny: ['guarded'] } });
  const ruleText = 'The permission rule guarded (from settings) denies this call of guarded.';

  it('runToolCalls: a deny rule, dont-ask mode and the tool check are denials', async () => {
    const tools = registry();
    const byRule = await runToolCalls(tools, [{ id: '1', name: 'guarded', args: {} }], { engine: denyRule() });
    expect(byRule.ran[0]!.result.error).toBe(`${DENIED}${ruleText}${RETRY_DENIED}`);
    const dontAsk = await runToolCalls(tools, [{ id: '2', name: 'guarded', args: {} }], { engine: new PermissionEngine({ mode: PermissionMode.DONT_ASK }) });
    expect(dontAsk.ran[0]!.result.error).toBe(`${DENIED}guarded wants a confirmation. Denied: dont-ask mode never asks.${RETRY_DENIED}`);
    const own = await runToolCalls(tools, [{ id: '3', name: 'guarded', args: { x: 'no' } }]);
    expect(own.ran[0]!.result.error).toBe(`${DENIED}guarded never touches no.${RETRY_DENIED}`);
    for (const result of [byRule, dontAsk, own]) {
      expect(result.ran[0]!.result.error).toMatch(CLEAN);
      expect(result.ran[0]!.result.error).not.toMatch(/declined/);
    }
    // the host's "no" after an ASK is the user's refusal
    expect(tools.declined('guarded')).toEqual(expect.objectContaining({ error: DECLINED }));
  });

  it('PermissionMiddleware: denial by rule, refusal by the user, and no one to ask', async () => {
    expect((await registry([new PermissionMiddleware(denyRule())]).execute('guarded', {})).error).toBe(`${DENIED}${ruleText}${RETRY_DENIED}`);
    const refused = await registry([new PermissionMiddleware(new PermissionEngine(), { ask: () => false })]).execute('guarded', {});
    expect(refused.error).toBe(DECLINED);
    const nobody = await registry([new PermissionMiddleware(new PermissionEngine())]).execute('guarded', {});
    expect(nobody.error).toBe("Tool 'guarded' was not run: it needs approval and no approval step is configured (guarded wants a confirmation). Ask the user or take another approach.");
    const approved = await registry([new PermissionMiddleware(new PermissionEngine(), { ask: () => true })]).execute('guarded', {});
    expect(approved.result).toBe('ran');
    for (const error of [refused.error, nobody.error]) expect(error).not.toMatch(/denied/i);
  });

  it('executeToolCalls: refusal by the approval step, and no approval step', async () => {
    const tools = new Tools().register(new Kinds());
    const call = [{ id: '1', name: 'approval', args: {} }];
    const [refused] = await executeToolCalls(tools, call, { approve: () => false });
    expect(refused!.result.error).toBe("The user declined to run tool 'approval'. Do not retry it unchanged; ask the user or take another approach.");
    const [nobody] = await executeToolCalls(tools, call);
    expect(nobody!.result.error).toBe("Tool 'approval' was not run: it needs approval and no approval step is configured. Ask the user or take another approach.");
  });

  it('reasons that end in punctuation are never doubled', () => {
    const tools = new Tools();
    expect(tools.denied('t', 'Because.').error).toBe("Permission denied for tool 't': Because. Do not retry it unchanged; take another approach or ask the user.");
    expect(tools.denied('t', 'Really?').error).toMatch(/^Permission denied for tool 't': Really\? Do not/);
    expect(tools.denied('t', '  ').error).toMatch(/^Permission denied for tool 't'\. Do not/);
    expect(tools.declined('t', 'too expensive.').error).toBe("The user declined to run tool 't' (too expensive). Do not retry it unchanged; ask the user or take another approach.");
    expect(tools.unapproved('t', 'Rule x asks.').error).toMatch(/configured \(Rule x asks\)\. Ask/);
    for (const text of [tools.denied('t', 'a.').error, tools.declined('t', 'b...').error, tools.unapproved('t', 'c. ').error]) expect(text).toMatch(CLEAN);
  });

  it('a throwing tool check is a denial that quotes the error once', async () => {
    class Broken extends Guarded {
      override checkPermissions(): PermissionDecision {
        throw new Error('backend down.');
      }
    }
    const tools = new Tools().register(new Broken());
    const withEngine = await runToolCalls(tools, [{ id: '1', name: 'guarded', args: {} }], { engine: new PermissionEngine() });
    const without = await runToolCalls(tools, [{ id: '1', name: 'guarded', args: {} }]);
    for (const outcome of [withEngine, without]) {
      expect(outcome.ran[0]!.result.error).toBe(`${DENIED}The permission check of guarded failed (backend down), so the call is denied.${RETRY_DENIED}`);
    }
  });
});
