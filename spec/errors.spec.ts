import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ActionResult, AgentToolkitError, CoreError, ExternalExecutionRequest, InjectionToken, TimeoutMiddleware, ToolContext, Tools } from '../lib';

describe('AgentToolkitError', () => {
  it('keeps its code, message, cause and subclass name', () => {
    class WorkspaceTestError extends AgentToolkitError {}
    const cause = new Error('root cause');
    const error = new WorkspaceTestError('SOME_CODE', 'what went wrong', { cause });
    expect(error.code).toBe('SOME_CODE');
    expect(error.message).toBe('what went wrong');
    expect(error.name).toBe('WorkspaceTestError');
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(Error);
  });
});

describe('docs/errors.md', () => {
  const root = join(__dirname, '..');

  function libFiles(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? libFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
    );
  }

  /** Every code the library declares: the members of each `...ErrorCode` union, and codes passed literally to `super`. */
  function declaredCodes(): Set<string> {
    const codes = new Set<string>();
    for (const file of libFiles(join(root, 'lib'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/ErrorCode\s*=([^;]*);|constructor\(code:([^,)]*)[,)]/g)) {
        for (const c of (m[1] ?? m[2]!).matchAll(/'([A-Z][A-Z_]+)'/g)) codes.add(c[1]!);
      }
      for (const m of text.matchAll(/super\(\s*'([A-Z][A-Z_]+)'/g)) codes.add(m[1]!);
    }
    return codes;
  }

  it('lists every error code the library declares', () => {
    const doc = readFileSync(join(root, 'docs', 'errors.md'), 'utf8');
    const codes = declaredCodes();
    expect(codes.size).toBeGreaterThan(30);
    for (const code of ['TOOL_DEFINITION', 'MISSING_DEPENDENCY', 'INVALID_OPTION', 'CALL_TIMED_OUT', 'PATH_UNRESOLVABLE', 'SANDBOX_CLOSED', 'IO_ERROR', 'SKILL_DISCOVERY']) {
      expect(codes).toContain(code);
    }
    expect([...codes].filter((code) => !doc.includes(`\`${code}\``))).toEqual([]);
  });
});

describe('CoreError', () => {
  it('is what the core throws for bad configuration and misuse, with a stable code', async () => {
    const codeOf = (fn: () => unknown): unknown => {
      try {
        fn();
      } catch (error) {
        expect(error).toBeInstanceOf(CoreError);
        return (error as InstanceType<typeof CoreError>).code;
      }
      return undefined;
    };
    expect(codeOf(() => new TimeoutMiddleware(-5))).toBe('INVALID_OPTION');
    expect(codeOf(() => new ActionResult({ ok: true, extra: 1 } as never))).toBe('INVALID_RESULT');
    const tools = new Tools();
    await expect(tools.completeExternal(new ExternalExecutionRequest('id', 'nothing', {}), 1)).rejects.toBeInstanceOf(CoreError);
    expect(codeOf(() => new ToolContext().provide(new InjectionToken<string>('db')))).toBe('INVALID_CONTEXT');
    tools.action({ name: 'gen', description: 'x' }, async function* () {
      yield 'a';
    });
    const stream = tools.stream('gen', {});
    for await (const _chunk of stream) void _chunk;
    expect(codeOf(() => stream[Symbol.asyncIterator]())).toBe('STREAM_CONSUMED');
  });
});
