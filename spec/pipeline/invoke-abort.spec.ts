import { type ToolMiddleware, Tools } from '../../lib';

const quiet = () => ({ warn: jest.fn(), error: jest.fn() });

const ticks = async (n = 3) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** A promise the spec settles when it wants to. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => ((resolve = ok), (reject = fail)));
  return { promise, resolve, reject };
}

const CANCELLED = "Tool 'slow' was cancelled before it finished.";

describe('a call with a signal whose tool returns a promise', () => {
  it('answers cancelled as soon as the signal aborts, and a value that settles later is neither wrapped nor logged', async () => {
    const logger = quiet();
    const tools = new Tools({ logger });
    const late = deferred<string>();
    tools.action({ name: 'slow', description: 'Slow.' }, () => late.promise);
    const controller = new AbortController();
    const pending = tools.execute('slow', {}, { signal: controller.signal });
    await ticks();
    controller.abort();
    expect((await pending).error).toBe(CANCELLED);
    late.reject(new Error('too late'));
    await ticks();
    expect(logger.warn).not.toHaveBeenCalled();
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('answers with the value when it settles first, and removes its abort listener', async () => {
    const tools = new Tools({ logger: quiet() });
    const value = deferred<string>();
    tools.action({ name: 'slow', description: 'Slow.' }, () => value.promise);
    const controller = new AbortController();
    const removed = jest.spyOn(controller.signal, 'removeEventListener');
    const pending = tools.execute('slow', {}, { signal: controller.signal });
    await ticks();
    value.resolve('done');
    const result = await pending;
    expect(result).toMatchObject({ ok: true, result: 'done' });
    expect(removed).toHaveBeenCalledWith('abort', expect.any(Function));
    controller.abort();
    await ticks();
    expect(result.ok).toBe(true);
  });

  it('answers with the value when it settles in the same turn, before any abort listener is added', async () => {
    const tools = new Tools({ logger: quiet() });
    tools.action({ name: 'slow', description: 'Slow.' }, () => Promise.resolve('now'));
    const controller = new AbortController();
    const added = jest.spyOn(controller.signal, 'addEventListener');
    expect(await tools.execute('slow', {}, { signal: controller.signal })).toMatchObject({ ok: true, result: 'now' });
    expect(added.mock.calls.filter(([type]) => type === 'abort')).toHaveLength(0);
  });

  it('answers with the failure when the promise rejects, logged once', async () => {
    const logger = quiet();
    const tools = new Tools({ logger });
    const value = deferred<string>();
    tools.action({ name: 'slow', description: 'Slow.' }, () => value.promise);
    const pending = tools.execute('slow', {}, { signal: new AbortController().signal });
    await ticks();
    value.reject(new Error('disk full'));
    expect((await pending).error).toBe("Tool 'slow' failed: disk full");
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });

  it('accumulates a stream the promise settles to', async () => {
    const tools = new Tools({ logger: quiet() });
    tools.action({ name: 'slow', description: 'Slow.' }, async () =>
      (async function* () {
        yield 'a';
        yield 'b';
      })(),
    );
    const result = await tools.execute('slow', {}, { signal: new AbortController().signal });
    expect(result.ok).toBe(true);
    expect(JSON.stringify(result.result)).toContain('a');
    expect(JSON.stringify(result.result)).toContain('b');
  });

  it.each([
    ['in its body', (controller: AbortController) => controller.abort()],
    ['in a microtask it queued before returning', (controller: AbortController) => queueMicrotask(() => controller.abort())],
  ])('answers cancelled when the signal aborts %s, and the promise rejecting later is handled', async (_, abort) => {
    const logger = quiet();
    const tools = new Tools({ logger });
    const controller = new AbortController();
    const value = deferred<string>();
    tools.action({ name: 'slow', description: 'Slow.' }, () => {
      abort(controller);
      return value.promise;
    });
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      expect((await tools.execute('slow', {}, { signal: controller.signal })).error).toBe(CANCELLED);
      value.reject(new Error('after the abort'));
      await ticks();
      expect(unhandled).not.toHaveBeenCalled();
      expect(logger.warn).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});

describe('a call without a signal that middleware renamed', () => {
  it('wraps the value and the failure under the name the middleware gave', async () => {
    const rename: ToolMiddleware = { handle: (call, next) => next(call.with({ name: 'renamed' })) };
    const tools = new Tools({ logger: quiet(), middleware: [rename] });
    tools.action({ name: 'ok', description: 'Fine.' }, async () => 'fine');
    tools.action({ name: 'bad', description: 'Fails.' }, async () => {
      throw new Error('broken');
    });
    expect(await tools.execute('ok', {})).toMatchObject({ ok: true, result: 'fine' });
    expect((await tools.execute('bad', {})).error).toBe("Tool 'renamed' failed: broken");
  });
});
