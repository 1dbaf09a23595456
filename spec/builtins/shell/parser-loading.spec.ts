/**
 * Loading the parser: a failure (here the WebAssembly runtime refusing to start once, injected through the module
 * registry) rejects with a coded error, and the next use loads it for real.
 */
describe('loadBashParser', () => {
  it('rejects with SHELL_PARSER_UNAVAILABLE when the runtime cannot start, then loads on the next use', async () => {
    const actual = jest.requireActual<typeof import('web-tree-sitter')>('web-tree-sitter');
    let failures = 1;
    const realInit = actual.Parser.init.bind(actual.Parser);
    class FlakyParser extends actual.Parser {
      static override init(...args: Parameters<typeof actual.Parser.init>): Promise<void> {
        return failures-- > 0 ? Promise.reject(new Error('no WebAssembly here')) : realInit(...args);
      }
    }
    jest.doMock('web-tree-sitter', () => ({ ...actual, Parser: FlakyParser }));
    await jest.isolateModulesAsync(async () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh module instance inside the isolated registry
      const { loadBashParser, analyzeCommandSync } = require('../../../lib/builtins') as typeof import('../../../lib/builtins');
      expect(analyzeCommandSync('ls')).toBeUndefined();
      await expect(loadBashParser()).rejects.toMatchObject({ code: 'SHELL_PARSER_UNAVAILABLE', message: expect.stringContaining('no WebAssembly here') });
      const parser = await loadBashParser();
      expect(parser.parse('ls')!.rootNode.type).toBe('program');
      expect(analyzeCommandSync('ls')!.commands[0]!.program).toBe('ls');
    });
    jest.dontMock('web-tree-sitter');
  });
});
