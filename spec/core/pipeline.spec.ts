import { Type } from '@sinclair/typebox';
import { ActionResult, CoreError, TimeoutMiddleware, ToolCall, Tools, type NextHandler, type ToolMiddleware } from '../../lib';

function recorder(name: string, order: string[]): ToolMiddleware {
  return {
    async handle(call: ToolCall, next: NextHandler) {
      order.push(`${name}:before:${call.tool.name}:${JSON.stringify(call.params)}`);
      const result = await next(call);
      order.push(`${name}:after:${String(result.ok)}`);
      return result;
    },
  };
}

describe('middleware', () => {
  it('runs after resolution and validation, first = outermost, then logging, then the tool', async () => {
    const order: string[] = [];
    const logger = { warn: jest.fn(), error: jest.fn(), debug: jest.fn((message: string) => order.push(`log:${message}`)) };
    const tools = new Tools({ middleware: [recorder('outer', order), recorder('inner', order)], logger });
    tools.action({ name: 'echo', description: 'x', params: Type.Object({ v: Type.Integer({ default: 1 }) }) }, ({ v }) => {
      order.push('tool');
      return v;
    });
    const result = await tools.execute('echo', {});
    expect(result.result).toBe(1);
    expect(order).toEqual(['outer:before:echo:{"v":1}', 'inner:before:echo:{"v":1}', 'tool', 'log:tool echo ok', 'inner:after:true', 'outer:after:true']);
    expect(logger.debug).toHaveBeenCalledWith('tool echo ok', expect.objectContaining({ tool: 'echo', ok: true, durationMs: expect.any(Number) }));
  });

  it('never reaches middleware for unknown tools or invalid arguments', async () => {
    const order: string[] = [];
    const tools = new Tools({ middleware: [recorder('m', order)] });
    tools.action({ name: 'echo', description: 'x', params: Type.Object({ v: Type.Integer() }) }, ({ v }) => v);
    await tools.execute('missing', {});
    await tools.execute('echo', { v: 'x' });
    expect(order).toEqual([]);
  });

  it('lets middleware rewrite the call, short-circuit, and map results; calls are immutable', async () => {
    const doubling: ToolMiddleware = { handle: (call, next) => next(call.with({ params: { v: (call.params.v as number) * 2 } })) };
    const blocker: ToolMiddleware = {
      handle: async (call, next) => (call.tool.tags.has('blocked') ? call.resultType.fail('blocked by policy') : next(call)),
    };
    const mapper: ToolMiddleware = { handle: async (call, next) => ActionResult.success(`mapped ${String((await next(call)).result)}`) };
    const tools = new Tools({ middleware: [mapper, blocker, doubling] });
    tools.action({ name: 'echo', description: 'x', params: Type.Object({ v: Type.Integer() }) }, ({ v }) => v);
    tools.action({ name: 'secret', description: 'x', tags: ['blocked'] }, () => 'never');
    expect((await tools.execute('echo', { v: 2 })).result).toBe('mapped 4');
    expect((await tools.execute('secret', {})).result).toBe('mapped undefined');
    const call = new ToolCall({ name: 'n', args: {}, context: tools.context, tool: tools.get('echo')!, params: {}, signal: new AbortController().signal, resultType: ActionResult });
    expect(Object.isFrozen(call)).toBe(true);
    expect(call.with({ name: 'm' }).name).toBe('m');
    expect(call.name).toBe('n');
  });
});

describe('TimeoutMiddleware', () => {
  it('fails a slow call with the registry result type and aborts the tool signal', async () => {
    class Traced<T = unknown> extends ActionResult<T> {
      static override readonly fields = ActionResult.extendFields('traceId');
    }
    const tools = new Tools({ middleware: [new TimeoutMiddleware(20)], resultType: Traced });
    let seen: AbortSignal | undefined;
    tools.action({ name: 'slow', description: 'x' }, (_p, _d, { signal }) => {
      seen = signal;
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve('stopped')));
    });
    tools.action({ name: 'fast', description: 'x' }, () => 'done');
    const result = await tools.execute('slow', {});
    expect(result).toBeInstanceOf(Traced);
    expect(result.error).toBe(
      "Tool 'slow' did not finish within 20 ms: the call was abandoned and the tool was asked to stop, but work it had started may still complete. Check its effects before retrying, or try a smaller request.",
    );
    expect(seen!.aborted).toBe(true);
    expect(seen!.reason).toBeInstanceOf(CoreError);
    expect(seen!.reason).toMatchObject({ code: 'CALL_TIMED_OUT', message: "Tool 'slow' was abandoned after 20 ms." });
    expect((await tools.execute('fast', {})).result).toBe('done');
  });

  it('forwards the caller abort to the tool signal', async () => {
    const tools = new Tools({ middleware: [new TimeoutMiddleware(10_000)] });
    let seen: AbortSignal | undefined;
    tools.action({ name: 'wait', description: 'x' }, (_p, _d, { signal }) => {
      seen = signal;
      return new Promise(() => undefined);
    });
    const controller = new AbortController();
    const pending = tools.execute('wait', {}, { signal: controller.signal });
    await new Promise((r) => setImmediate(r));
    controller.abort();
    expect((await pending).ok).toBe(false);
    expect(seen!.aborted).toBe(true);
  });

  it('returns while a tool that ignores its signal keeps running, and its side effect lands afterwards', async () => {
    const tools = new Tools({ middleware: [new TimeoutMiddleware(20)] });
    const effects: string[] = [];
    let finishBody!: () => void;
    const bodyMayFinish = new Promise<void>((resolve) => (finishBody = resolve));
    let bodyDone!: () => void;
    const bodyFinished = new Promise<void>((resolve) => (bodyDone = resolve));
    tools.action({ name: 'stubborn', description: 'x' }, async () => {
      effects.push('started');
      await bodyMayFinish;
      effects.push('file written');
      bodyDone();
      return 'done';
    });
    const result = await tools.execute('stubborn', {});
    expect(result.ok).toBe(false);
    expect(result.error).toContain('the call was abandoned and the tool was asked to stop');
    expect(effects).toEqual(['started']);
    finishBody();
    await bodyFinished;
    expect(effects).toEqual(['started', 'file written']);
  });

  it('rejects a non-positive limit with a coded error', () => {
    expect(() => new TimeoutMiddleware(0)).toThrow('TimeoutMiddleware needs a positive number of milliseconds, got 0.');
    for (const ms of [Number.NaN, -1, Infinity]) {
      let thrown: unknown;
      try {
        new TimeoutMiddleware(ms);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(CoreError);
      expect(thrown).toMatchObject({ code: 'INVALID_OPTION' });
    }
  });
});
