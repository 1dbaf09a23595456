/** Which SDK line `McpClientTools` creates its client with when `sdk` is not set. */
import { dialectOf } from '../../../lib/mcp/client/client-dialect';

const missing = (): never => {
  throw Object.assign(new Error("Cannot find module '@modelcontextprotocol/client'"), { code: 'MODULE_NOT_FOUND' });
};

describe('the default SDK line of the client', () => {
  it('is SDK v2 when @modelcontextprotocol/client resolves', () => {
    expect(dialectOf({ name: 'x', url: 'http://127.0.0.1:1/mcp' }).sdk).toBe(2);
  });

  it('is SDK 1.x when @modelcontextprotocol/client does not resolve', () => {
    expect(dialectOf({ name: 'x', url: 'http://127.0.0.1:1/mcp' }, missing).sdk).toBe(1);
  });

  it('is SDK 1.x when setupClient (a hook for 1.x clients) is given, so its handlers are installed', () => {
    expect(dialectOf({ name: 'x', url: 'http://127.0.0.1:1/mcp', setupClient: () => undefined }).sdk).toBe(1);
  });

  it('follows sdk when set, whatever else is given', () => {
    expect(dialectOf({ name: 'x', url: 'http://127.0.0.1:1/mcp', sdk: 1 }).sdk).toBe(1);
    expect(dialectOf({ name: 'x', url: 'http://127.0.0.1:1/mcp', sdk: 2, setupClient: () => undefined }).sdk).toBe(2);
  });
});
