import { type ToolMiddleware, Tools } from '../../lib';

const quiet = () => ({ warn: jest.fn(), error: jest.fn() });

describe('review: a cancelled call resolves even when middleware hangs', () => {
  it('resolves as cancelled when a middleware never calls next', async () => {
    const hang: ToolMiddleware = { handle: () => new Promise(() => undefined) };
    const tools = new Tools({ logger: quiet(), middleware: [hang] });
    tools.action({ name: 'noop', description: 'Nothing.' }, () => 1);
    const controller = new AbortController();
    const pending = tools.execute('noop', {}, { signal: controller.signal });
    controller.abort();
    expect((await pending).error).toBe("Tool 'noop' was cancelled before it finished.");
  });

  it('resolves as cancelled when a middleware hangs after next returned', async () => {
    let ran = false;
    const after: ToolMiddleware = { handle: async (call, next) => { await next(call); return new Promise(() => undefined); } };
    const tools = new Tools({ logger: quiet(), middleware: [after] });
    tools.action({ name: 'noop', description: 'Nothing.' }, () => (ran = true));
    const controller = new AbortController();
    const pending = tools.execute('noop', {}, { signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    expect((await pending).ok).toBe(false);
    expect(ran).toBe(true);
  });
});
