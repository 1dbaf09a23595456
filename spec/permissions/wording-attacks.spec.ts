import { Type } from '@sinclair/typebox';
import {
  Action,
  executeToolCalls,
  FunctionTool,
  runToolCalls,
  ToolEffect,
  Tools,
} from '../../lib';
import {
  pathRule,
  PermissionBehavior,
  PermissionDecision,
  PermissionEngine,
  PermissionMiddleware,
  PermissionMode,
} from '../../lib/permissions';
import { cutText } from '../../lib/text/cut-text';

const { ALLOW, ASK, DENY, PASSTHROUGH } = PermissionBehavior;
const Input = Type.Object({ path: Type.Optional(Type.String()), x: Type.Optional(Type.String()) });

/** Well-formed text (no lone surrogate) of at most `max` characters. */
function expectClean(text: string | undefined, max: number): void {
  expect(typeof text).toBe('string');
  expect(text!.isWellFormed()).toBe(true);
  expect(text!.length).toBeLessThanOrEqual(max);
}

describe('only `true` makes a call read-only', () => {
  class Liars {
    // An `async` predicate returns a Promise: truthy, and it says nothing about the call.
    @Action('Async predicate.', { params: Input, effects: [ToolEffect.WRITES_WORKSPACE], readOnly: (async () => false) as unknown as () => boolean })
    asyncPredicate(): string {
      return 'ran';
    }

    @Action('Truthy string.', { params: Input, effects: [ToolEffect.WRITES_WORKSPACE], readOnly: (() => 'yes') as unknown as () => boolean })
    truthyString(): string {
      return 'ran';
    }

    @Action('Truthy number.', { params: Input, effects: [ToolEffect.SPAWNS_PROCESS], readOnly: (() => 1) as unknown as () => boolean })
    truthyNumber(): string {
      return 'ran';
    }
  }
  const tools = new Tools()
    .register(new Liars())
    .register(new FunctionTool(() => 'ran', { name: 'fn_truthy', description: 'x', params: Input, isReadOnly: 'yes' as unknown as boolean }));

  it.each([['asyncPredicate'], ['truthyString'], ['truthyNumber'], ['fn_truthy']])('%s is not allowed as read-only in any mode', async (name) => {
    const tool = tools.get(name)!;
    const seen: string[] = [];
    for (const mode of [PermissionMode.DEFAULT, PermissionMode.EXPLORE, PermissionMode.DONT_ASK]) {
      const decision = await new PermissionEngine({ mode }).check(tool, {});
      seen.push(`${decision.behavior} ${decision.reason.type}`);
    }
    expect(seen[0]).toMatch(/^ask /);
    expect(seen.slice(1)).toEqual(['deny mode', expect.stringMatching(/^deny /)]);
    const own = await tool.checkPermissions({}, new PermissionEngine().context);
    expect(own.behavior).not.toBe(ALLOW);
    expect([ASK, PASSTHROUGH]).toContain(own.behavior);
  });

  it('a deny rule still wins, and an allow rule still allows', async () => {
    const tool = tools.get('asyncPredicate')!;
    expect((await new PermissionEngine({ settings: { deny: ['asyncPredicate'] } }).check(tool, {})).behavior).toBe(DENY);
    expect((await new PermissionEngine({ settings: { allow: ['asyncPredicate'] } }).check(tool, {})).reason.type).toBe('rule');
  });
});

/**
 * Text the model chose (a path) comes back inside a denial: it must be capped, well-formed, and quick to word. The
 * old trailing-stop trim (`/[.\s]+$/`) took quadratic time on a run of dots: 30,000 dots took two seconds. Here the
 * wording is checked; its speed on these inputs is measured by `npm run bench -- adversarial`.
 */
describe('denials that echo hostile text are capped and well-formed, on every path', () => {
  class Files {
    @Action('Reads a file.', { params: Input, effects: [ToolEffect.READS_WORKSPACE], permissions: pathRule('path') })
    read(): string {
      return 'read';
    }

    @Action('Checks itself.', {
      params: Input,
      effects: [ToolEffect.WRITES_WORKSPACE],
      permissions: { checkPermissions: (input: { x?: string }) => PermissionDecision.deny(`refused ${input.x ?? ''}`) },
    })
    guarded(): string {
      return 'ran';
    }
  }
  const hostile = [
    `${'.'.repeat(300000)}\0`, // a run of dots, and a NUL byte so that the path cannot be resolved (the error echoes it)
    `${' .'.repeat(150000)}x\0`,
    `\uD800${'x'.repeat(2000)}\uDC00\0`,
    `line one\nline two\r\n${'\uDBFF'.repeat(5)}\0`,
    `${'🎉'.repeat(100000)}\0`,
  ];
  const engine = () => new PermissionEngine({ cwd: '/tmp', settings: { deny: ['read(/secret/**)'] } });

  it.each(hostile.map((path, i) => [i, path]))('runToolCalls, hostile path %i', async (_i, path) => {
    const tools = new Tools().register(new Files());
    const { ran } = await runToolCalls(tools, [{ id: 'c', name: 'read', args: { path } }], { engine: engine() });
    expectClean(ran[0]!.result.error, 1400);
    expect(ran[0]!.result.error).toMatch(/^Permission denied for tool 'read': /);
  });

  it.each(hostile.map((path, i) => [i, path]))('PermissionMiddleware, hostile path %i', async (_i, path) => {
    const tools = new Tools({ middleware: [new PermissionMiddleware(engine())] }).register(new Files());
    expectClean((await tools.execute('read', { path })).error, 1400);
  });

  it.each(hostile.map((x, i) => [i, x]))("a tool's own denial quoting hostile text %i, with and without an engine", async (_i, x) => {
    const tools = new Tools().register(new Files());
    for (const options of [{}, { engine: new PermissionEngine() }]) {
      const { ran } = await runToolCalls(tools, [{ id: 'c', name: 'guarded', args: { x } }], options);
      expectClean(ran[0]!.result.error, 1200);
    }
    const viaMiddleware = new Tools({ middleware: [new PermissionMiddleware(new PermissionEngine())] }).register(new Files());
    expectClean((await viaMiddleware.execute('guarded', { x })).error, 1200);
  });

  it.each(hostile.map((x, i) => [i, x]))('host-side refusals quoting hostile text %i', async (_i, reason) => {
    const tools = new Tools().register(new Files());
    for (const text of [tools.denied('t', reason).error, tools.declined('t', reason).error, tools.unapproved('t', reason).error]) expectClean(text, 1200);
  });

  it('a cut reason keeps its marker and gets no extra full stop', () => {
    const tools = new Tools();
    expect(tools.denied('t', 'x'.repeat(5000)).error).toMatch(/x\.\.\. Do not retry/);
    expect(tools.declined('t', `${'x'.repeat(5000)}.`).error).toMatch(/x\.\.\.\)\. Do not retry/);
  });

  it('executeToolCalls: refusal and no approval step stay well-formed for a hostile tool name', async () => {
    const name = `bad\uD800name${'.'.repeat(100000)}`;
    const [outcome] = await executeToolCalls(new Tools().register(new Files()), [{ id: '1', name, args: {} }], { approve: () => false });
    expectClean(outcome!.result.error, 1200);
  });
});

describe('cutText keeps to its budget', () => {
  it.each([
    ['abcdef', 2, '...', 'ab'],
    ['abcdef', 0, '...', ''],
    ['🎉🎉🎉', 1, '...', ''],
    ['🎉🎉🎉', 3, '', '🎉'],
    ['abcdef', 4, '...', 'a...'],
  ])('cutText(%j, %i, %j) is %j', (text, max, marker, expected) => {
    const cut = cutText(text, max, marker);
    expect(cut).toBe(expected);
    expect(cut.length).toBeLessThanOrEqual(max);
    expect(cut.isWellFormed()).toBe(true);
  });
});

/**
 * A tool's own check is awaited: the host may change the engine meanwhile (a mode switch, rules added or removed).
 * One call is judged against one state of the engine, the one it had when the check began.
 */
describe('one check, one snapshot of the engine', () => {
  it('rules and mode changed while the tool check runs do not apply to that call', async () => {
    const engine = new PermissionEngine({ mode: PermissionMode.DEFAULT });
    let changed = 0;
    class Slow {
      @Action('Checks slowly.', {
        params: Input,
        effects: [ToolEffect.WRITES_WORKSPACE],
        permissions: {
          checkPermissions: async () => {
            engine.addRules(['slow'], ALLOW);
            engine.setMode(PermissionMode.DONT_ASK);
            changed++;
            await new Promise((done) => setTimeout(done, 5));
            return PermissionDecision.passthrough('no opinion');
          },
        },
      })
      slow(): string {
        return 'ran';
      }
    }
    const tool = new Tools().register(new Slow()).get('slow')!;
    const first = await engine.check(tool, {});
    expect(changed).toBe(1); // the change happened during the check
    expect([first.behavior, first.reason.type]).toEqual([ASK, 'default']);
    // the next call sees the new state
    const second = await engine.check(tool, {});
    expect([second.behavior, second.reason.type]).toEqual([ALLOW, 'rule']);
  });
});
