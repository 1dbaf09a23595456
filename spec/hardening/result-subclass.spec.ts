import { Type } from '@sinclair/typebox';
import { ActionResult, TimeoutMiddleware, type ToolMiddleware, Tools } from '../../lib';

class TracedResult<T = unknown> extends ActionResult<T> {
  static override readonly fields = ActionResult.extendFields('traceId');
  declare readonly traceId?: string;
}

describe('review: the registry-wide result class is used for every outcome', () => {
  const hang: ToolMiddleware = { handle: (call, next) => (call.name === 'hang' ? new Promise(() => undefined) : next(call)) };
  function registry(): Tools<TracedResult> {
    const tools = new Tools<TracedResult>({ resultType: TracedResult, logger: { warn: jest.fn(), error: jest.fn() }, middleware: [hang, new TimeoutMiddleware(50)] });
    tools.action({ name: 'ok', description: 'Fine.', params: Type.Object({ a: Type.Integer() }) }, ({ a }) => a);
    tools.action({ name: 'throws', description: 'Throws.' }, () => {
      const revocable = Proxy.revocable({}, {});
      revocable.revoke();
      throw revocable.proxy;
    });
    tools.action({ name: 'slow', description: 'Slow.' }, () => new Promise(() => undefined));
    tools.action({ name: 'hang', description: 'Hangs in middleware.' }, () => 1);
    tools.action({ name: 'foreign', description: 'Returns a base result.' }, () => ActionResult.fail('no'));
    return tools;
  }

  it('for successes, every kind of failure and declines', async () => {
    const tools = registry();
    const controller = new AbortController();
    const hung = tools.execute('hang', {}, { signal: controller.signal });
    controller.abort();
    const results = [
      await tools.execute('ok', { a: 1 }),
      await tools.execute('ok', { a: 'x' }),
      await tools.execute('ok', { get a(): number { throw new Error('x'); } }),
      await tools.execute('missing', {}),
      await tools.execute('throws', {}),
      await tools.execute('slow', {}),
      await tools.execute('foreign', {}),
      await hung,
      tools.declined('ok'),
    ];
    for (const result of results) expect(result).toBeInstanceOf(TracedResult);
    expect(results.map((r) => r.ok)).toEqual([true, false, false, false, false, false, false, false, false]);
  });
});

describe('results the registry did not build', () => {
  it('recognises a result from another copy of the library by its registered brand', async () => {
    const foreign = Object.freeze(Object.assign(Object.create({ [Symbol.for('agenttoolkit.ActionResult')]: true }), { ok: false, error: 'from another copy' }));
    const tools = new Tools();
    tools.action({ name: 'foreign', description: 'x' }, () => foreign);
    const result = await tools.execute('foreign', {});
    expect(result).toBeInstanceOf(ActionResult);
    expect(result.toJSON()).toEqual({ ok: false, error: 'from another copy' });
  });

  it('treats a middleware that forgets to return a result as an internal error, never a success', async () => {
    const logger = { warn: jest.fn(), error: jest.fn() };
    const forgetful: ToolMiddleware = {
      async handle(call, next) {
        await next(call);
        return undefined as never;
      },
    };
    const tools = new Tools({ middleware: [forgetful], logger });
    tools.action({ name: 'ping', description: 'x' }, () => 'pong');
    const result = await tools.execute('ping', {});
    expect(result.ok).toBe(false);
    expect(result.error).toBe("Internal error while running tool 'ping'. It was logged; try again or use another tool.");
    expect(logger.error).toHaveBeenCalledWith("Internal error while executing tool 'ping': a middleware returned undefined instead of an ActionResult", expect.anything());
  });
});

describe('a result class whose extra field is a plain class field', () => {
  // With useDefineForClassFields (target ES2022+) a plain declaration runs after the base constructor and resets the
  // field to undefined: the registry refuses such a class instead of losing the field on every result.
  class PlainFieldResult<T = unknown> extends ActionResult<T> {
    static override readonly fields = ActionResult.extendFields('traceId');
    readonly traceId?: string;
  }
  class SecondFieldPlain<T = unknown> extends ActionResult<T> {
    static override readonly fields = ActionResult.extendFields('traceId', 'spanId');
    declare readonly traceId?: string;
    readonly spanId: string | undefined = undefined;
  }

  it('loses the field on construction (the fault the check exists for)', () => {
    expect(new PlainFieldResult({ ok: true, traceId: 't-1' }).traceId).toBeUndefined();
  });

  it.each([
    ['the only extra field', PlainFieldResult, 'traceId'],
    ['the second of two, with an initialiser', SecondFieldPlain, 'spanId'],
  ])('is refused by new Tools({ resultType }) when %s is plain', (_case, type, field) => {
    expect(() => new Tools({ resultType: type as typeof ActionResult })).toThrow(
      expect.objectContaining({ code: 'INVALID_RESULT', message: expect.stringContaining(`'${field}'`) }),
    );
    expect(() => new Tools({ resultType: type as typeof ActionResult })).toThrow(/declare readonly/);
  });

  it('accepts the base class and a subclass declaring its fields with `declare readonly`', () => {
    expect(() => new Tools({ resultType: TracedResult })).not.toThrow();
    expect(() => new Tools({ resultType: ActionResult })).not.toThrow();
  });
});
