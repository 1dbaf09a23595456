import { type ToolLogger, Tools } from '../../lib';

const quiet = () => ({ warn: jest.fn(), error: jest.fn() });

function throwingTool(thrown: () => unknown, logger: ToolLogger = quiet()): Tools {
  const tools = new Tools({ logger });
  tools.action({ name: 'boom', description: 'Throws.' }, () => {
    throw thrown();
  });
  return tools;
}

describe('review: execute never rejects for anything a tool throws', () => {
  it('turns an error whose message getter throws into a failed result', async () => {
    const error = new Error('x');
    Object.defineProperty(error, 'message', { get: () => { throw new Error('getter'); } });
    const result = await throwingTool(() => error).execute('boom', {});
    expect(result.toJSON()).toEqual({ ok: false, error: "Tool 'boom' failed with an error that could not be read." });
  });

  it('turns a thrown revoked Proxy into a failed result', async () => {
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    const result = await throwingTool(() => revocable.proxy).execute('boom', {});
    expect(result.ok).toBe(false);
  });

  it('still returns the model-facing failure when the logger itself throws', async () => {
    const logger = { warn: () => { throw new Error('log down'); }, error: () => { throw new Error('log down'); } };
    const result = await throwingTool(() => new Error('disk full'), logger).execute('boom', {});
    expect(result.error).toBe("Tool 'boom' failed: disk full");
    const tools = new Tools({ logger, middleware: [{ handle: () => { throw new Error('bug'); } }] });
    tools.action({ name: 'noop', description: 'Nothing.' }, () => 1);
    expect((await tools.execute('noop', {})).error).toMatch(/^Internal error while running tool 'noop'/);
  });
});
