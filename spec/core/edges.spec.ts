import { Type } from '@sinclair/typebox';
import { Action, ActionResult, consoleLogger, Inject, InjectionToken, Param, ToolContext, ToolGroup, Tools, MissingDependencyError } from '../../lib';
import { anthropicToolResult } from '../../lib/providers/anthropic';
import { openAIChatToolCalls } from '../../lib/providers/openai';

describe('edge cases of definitions', () => {
  it('ignores @Param and @Inject on constructor parameters and names anonymous tokens', () => {
    class Service {}
    class WithCtor {
      constructor(@Param('x') readonly x: string, @Inject(Service) readonly s?: Service) {}
      @Action('Run.')
      run(): string {
        return 'ran';
      }
    }
    const tools = new Tools().register(new WithCtor('x'));
    expect(tools.get('run')!.parameters).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    const Anonymous = (() => class {})();
    expect(new MissingDependencyError(Anonymous).message).toContain('No anonymous class is provided');
  });

  it('accepts a method decorated by hand without design metadata, and a group without description', async () => {
    @ToolGroup('manual')
    class Manual {
      hello(): string {
        return 'hi';
      }
    }
    Action('Say hello.')(Manual.prototype, 'hello', Object.getOwnPropertyDescriptor(Manual.prototype, 'hello')!);
    const tools = new Tools().register(new Manual());
    expect((await tools.execute('hello', {})).result).toBe('hi');
    expect(tools.get('hello')!.group).toBe('manual');
  });

  it('says to enable emitDecoratorMetadata when a @Param has no schema and no parameter types were emitted', () => {
    class Unreflected {
      greet(name: string): string {
        return name;
      }
    }
    Param('name')(Unreflected.prototype, 'greet', 0);
    Action('Greet.')(Unreflected.prototype, 'greet', Object.getOwnPropertyDescriptor(Unreflected.prototype, 'greet')!);
    expect(() => new Tools().register(new Unreflected())).toThrow(
      `Unreflected.greet: parameter #0 'name' has no schema and TypeScript emitted no parameter types for this method. Enable "emitDecoratorMetadata"`,
    );
  });

  it('refuses a decorated member that is not a method on the instance', () => {
    class Odd {
      declare run: () => string;
    }
    Action('Odd.')(Odd.prototype, 'run', {});
    expect(() => new Tools().register(new Odd())).toThrow('Odd.run is not a method on the registered instance');
  });

  it('refuses non-JSON values in nested schema places and bad statuses', () => {
    const make = (params: unknown) => () => new Tools().action({ name: 'n', description: 'x', params: params as never }, () => 1);
    expect(make({ type: 'object', properties: { a: 5 } })).toThrow("tool 'n': the schema at #/properties/a is a number, not a JSON Schema object");
    expect(make({ type: 'object', properties: { a: null } })).toThrow('#/properties/a is null');
    expect(make({ type: 'object', properties: { a: { enum: ['x', Symbol('y')] } } })).toThrow('holds a symbol at #/properties/a/enum/1');
    expect(make({ type: 'object', properties: { a: { type: 'integer', default: BigInt(1) } } })).toThrow('holds a bigint');
    expect(make({ type: 'object', properties: { a: { type: 'string', default: undefined } } })).toThrow('holds undefined');
    expect(make({ type: 'object', allOf: [{ type: 'object' }, 'oops'] })).toThrow("tool 'n': the schema at #/allOf/1 is a string, not a JSON Schema object");
    expect(make({})).toThrow('got an empty schema');
    expect(make(5)).toThrow('got 5');
    expect(() => new Tools().action({ name: 'n', description: 'x', params: Type.Object({ a: Type.String() }), status: 'go {}' }, () => 1)).toThrow('names {}, which is not a parameter');
    const tool = new Tools().action({ name: 'n', description: 'x', params: Type.Object({ a: Type.String() }), status: 'a}}{a}' }, () => 1);
    expect(tool.formatStatus({ a: 'A' })).toBe('a}A');
  });

  it('describes received values of every kind in validation messages', async () => {
    const tools = new Tools();
    tools.action({ name: 'kinds', description: 'x', params: Type.Object({ s: Type.String(), t: Type.String(), u: Type.String(), v: Type.Integer(), w: Type.String({ maxLength: 1 }) }) }, () => 1);
    const result = await tools.execute('kinds', { s: null, t: [1], u: { a: 1 }, v: 'x'.repeat(80), w: 'toolong' });
    expect(result.error).toContain('- s: must be string, got null');
    expect(result.error).toContain('- t: must be string, got an array');
    expect(result.error).toContain('- u: must be string, got an object');
    expect(result.error).toMatch(/- v: must be integer, got string "x{56}\.\.\."/);
    expect(result.error).toContain('- w: must NOT have more than 1 characters');
    const root = new Tools();
    root.action({ name: 'root', description: 'x', params: Type.Object({}, { minProperties: 1 }) }, () => 1);
    expect((await root.execute('root', {})).error).toContain('- (arguments): must NOT have fewer than 1 properties');
  });

  it('cancels when the tool aborts the signal synchronously, and errors without messages stay readable', async () => {
    const controller = new AbortController();
    const tools = new Tools({ logger: { warn: jest.fn(), error: jest.fn() } });
    tools.action({ name: 'self_abort', description: 'x' }, () => {
      controller.abort();
      return new Promise(() => undefined);
    });
    tools.action({ name: 'empty', description: 'x' }, () => {
      throw new Error('');
    });
    tools.action({ name: 'odd', description: 'x' }, () => {
      throw 42;
    });
    tools.action({ name: 'long', description: 'x' }, () => {
      throw new Error('y'.repeat(600));
    });
    expect((await tools.execute('self_abort', {}, { signal: controller.signal })).error).toBe("Tool 'self_abort' was cancelled before it finished.");
    expect((await tools.execute('empty', {})).error).toBe("Tool 'empty' failed: an error without a message");
    expect((await tools.execute('odd', {})).error).toBe("Tool 'odd' failed: an unknown error");
    expect((await tools.execute('long', {})).error).toHaveLength("Tool 'long' failed: ".length + 500);
  });

  it('logs a failed call at debug level and writes warnings and errors to the console by default', async () => {
    const debug = jest.fn();
    const tools = new Tools({ logger: { debug, warn: jest.fn(), error: jest.fn() } });
    tools.action({ name: 'fails', description: 'x' }, () => ActionResult.fail('no'));
    await tools.execute('fails', {});
    // The expected failure is a debug line too, never a warning.
    expect(debug).toHaveBeenCalledWith("Tool 'fails' failed: no");
    expect(debug).toHaveBeenCalledWith('tool fails failed', expect.objectContaining({ ok: false }));
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    consoleLogger.warn('w');
    consoleLogger.error('e', { a: 1 });
    // No trailing argument (which printed a trailing space) when there are no details.
    expect(warn).toHaveBeenCalledWith('w');
    expect(warn.mock.calls[0]).toHaveLength(1);
    expect(error).toHaveBeenCalledWith('e', { a: 1 });
    warn.mockRestore();
    error.mockRestore();
  });

  it('reads only function tool calls and renders empty and structured results', () => {
    expect(openAIChatToolCalls({ tool_calls: null })).toEqual([]);
    expect(openAIChatToolCalls({ tool_calls: [{ id: 'c', type: 'custom' }] })).toEqual([]);
    expect(anthropicToolResult('t', ActionResult.success(undefined)).content).toBe('');
    expect(anthropicToolResult('t', ActionResult.success({ a: 1 })).content).toBe('{"a":1}');
    expect(anthropicToolResult('t', new ActionResult({ ok: false })).content).toBe('The tool failed without a message.');
  });

  it('resolves an InjectionToken that is bound to a falsy value', () => {
    const FLAG = new InjectionToken<number>('Flag');
    expect(new ToolContext().provide(FLAG, 0).resolve(FLAG)).toBe(0);
  });
});

describe('status lines', () => {
  it('never calls a status function with arguments that do not validate, and survives one that throws', () => {
    const tools = new Tools();
    const status = jest.fn((p: { orderId: string }) => `Refunding ${p.orderId.toUpperCase()}`);
    const tool = tools.action({ name: 'refund', description: 'x', params: Type.Object({ orderId: Type.String() }), status }, () => 1);
    expect(tool.formatStatus({ orderId: 'o-1' })).toBe('Refunding O-1');
    expect(tool.formatStatus({})).toBe('Running refund...');
    expect(status).toHaveBeenCalledTimes(1);
    const throwing = tools.action({ name: 'odd', description: 'x', status: () => { throw new Error('bad'); } }, () => 1);
    expect(throwing.formatStatus({})).toBe('Running odd...');
  });
});
