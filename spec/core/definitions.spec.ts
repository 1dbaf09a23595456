/**
 * The definition ergonomics a new user meets first: undeclared fields, status lines, expected failures and their
 * logging, and registering one class more than once.
 */
import { Type } from 'typebox';
import { Type as Type034 } from '@sinclair/typebox';
import { z } from 'zod';
import { Action, ActionResult, Param, Tools, ToolChunk, ToolResultState, ToolError, ToolDefinitionError, ToolGroup, FunctionTool, type Static, type ToolChunkMiddleware, type ToolLogger } from '../../lib';
import { compileUndeclaredStripper } from '../../lib/schema/strip-undeclared';

function spyLogger() {
  const lines: Array<{ level: string; message: string; details: Record<string, unknown> | undefined }> = [];
  const logger: ToolLogger = {
    // Expected failures arrive at debug level ("Tool '<name>' failed: ..."); the per-call lines ("tool <name> ...") are left out.
    debug: (message, details) => void (message.startsWith("Tool '") && lines.push({ level: 'debug', message, details })),
    warn: (message, details) => lines.push({ level: 'warn', message, details }),
    error: (message, details) => lines.push({ level: 'error', message, details }),
  };
  return { logger, lines };
}

describe('undeclared fields', () => {
  it('never reach the method, the approval predicate or the status line (TypeBox 1.x and 0.34, zod)', async () => {
    for (const Params of [Type.Object({ a: Type.String() }), Type034.Object({ a: Type034.String() }), z.object({ a: z.string() })]) {
      const seen: unknown[] = [];
      const tools = new Tools();
      const tool = tools.action(
        {
          name: 'f',
          description: 'x',
          params: Params,
          status: (p) => `keys ${Object.keys(p).join(',')}`,
          requiresApproval: (p) => (seen.push(p), false),
        },
        (p) => p,
      );
      expect((await tools.execute('f', { a: '1', injected: 'surprise' })).result).toEqual({ a: '1' });
      expect((await tools.execute('f', '{"a":"1","injected":"surprise","__proto__":{"x":1}}')).result).toEqual({ a: '1' });
      expect(tool.formatStatus({ a: '1', injected: 'surprise' })).toBe('keys a');
      tool.needsApproval({ a: '1', injected: 'surprise' });
      // Each execute asks the predicate too (an approval-gated call runs only when approved).
      expect(seen).toEqual([{ a: '1' }, { a: '1' }, { a: '1' }]);
    }
  });

  it('are removed in nested objects, array items, unions, intersections and local references', async () => {
    const Item = Type.Object({ id: Type.String() });
    const Params = Type.Object({
      order: Type.Object({ id: Type.String(), lines: Type.Array(Item) }),
      pair: Type.Tuple([Item, Type.Integer()]),
      either: Type.Union([Type.Object({ x: Type.String() }), Type.Object({ y: Type.String() })]),
      both: Type.Intersect([Type.Object({ p: Type.String() }), Type.Object({ q: Type.String() })]),
    });
    const input = {
      order: { id: 'o', lines: [{ id: 'l', price: 0 }], extra: 1 },
      pair: [{ id: 'i', hidden: true }, 1],
      either: { x: 'x', z: 'z' },
      both: { p: 'p', q: 'q', r: 'r' },
      injected: 'surprise',
    };
    const stripped = { order: { id: 'o', lines: [{ id: 'l' }] }, pair: [{ id: 'i' }, 1], either: { x: 'x' }, both: { p: 'p', q: 'q' } };
    const tools = new Tools();
    tools.action({ name: 'f', description: 'x', params: Params, strict: false }, (p) => p);
    expect((await tools.execute('f', input)).result).toEqual(stripped);
    expect(input.order.extra).toBe(1);

    const strip = compileUndeclaredStripper({
      type: 'object',
      properties: { node: { $ref: '#/$defs/Node' }, remote: { $ref: 'https://example.com/s.json' }, bad: { $ref: '#/%E0%A4%A' } },
      $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' }, root: { $ref: '#' } } } },
    })!;
    const data = { node: { next: { next: {}, drop: 1 }, drop: 2, root: { node: {}, drop: 3 } }, remote: { keep: 1 }, bad: { keep: 2 }, drop: 4 };
    strip(data);
    expect(data).toEqual({ node: { next: { next: {} }, root: { node: {} } }, remote: { keep: 1 }, bad: { keep: 2 } });
  });

  it('stay where the schema says what to do with them (additionalProperties, patternProperties, unevaluatedProperties)', async () => {
    const tools = new Tools();
    tools.action({ name: 'open', description: 'x', params: Type.Object({ a: Type.String() }, { additionalProperties: true }), strict: false }, (p) => p);
    tools.action({ name: 'typed', description: 'x', params: Type.Object({ a: Type.String() }, { additionalProperties: Type.Object({ k: Type.String() }) }), strict: false }, (p) => p);
    tools.action({ name: 'pattern', description: 'x', params: { type: 'object', properties: { a: { type: 'string' } }, patternProperties: { '^x_': { type: 'number' } } }, strict: false }, (p) => p);
    tools.action({ name: 'free', description: 'x', params: Type.Object({ meta: Type.Object({}) }), strict: false }, (p) => p);
    expect((await tools.execute('open', { a: '1', b: 2 })).result).toEqual({ a: '1', b: 2 });
    expect((await tools.execute('typed', { a: '1', b: { k: 'v', drop: 1 } })).result).toEqual({ a: '1', b: { k: 'v' } });
    expect((await tools.execute('pattern', { a: '1', x_n: 2, other: 3 })).result).toEqual({ a: '1', x_n: 2, other: 3 });
    expect((await tools.execute('free', { meta: { anything: 1 } })).result).toEqual({ meta: { anything: 1 } });
    expect((await tools.execute('open', { b: 2 })).ok).toBe(false);
    expect(compileUndeclaredStripper({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false })).toBeUndefined();
  });
});

describe('status lines', () => {
  it('are rendered from validated params only: invalid arguments give the generic line, never blanks', () => {
    const tool = new Tools().action(
      { name: 'refund', description: 'x', params: Type.Object({ amount: Type.Number(), orderId: Type.String() }), status: 'Refunding {amount} for order {orderId}...' },
      () => 1,
    );
    expect(tool.formatStatus({ amount: 5, orderId: 'o-1' })).toBe('Refunding 5 for order o-1...');
    expect(tool.formatStatus({ orderId: 'o-1' })).toBe('Running refund...');
    expect(tool.formatStatus({ amount: 'lots', orderId: 'o-1' })).toBe('Running refund...');
    expect(tool.formatStatus('{"amount":5')).toBe('Running refund...');
  });
});

describe('expected failures', () => {
  class Orders {
    @Action('Look up an order.')
    find(@Param('id') id: string) {
      if (id === 'returned') return ActionResult.fail(`No order ${id}.`);
      if (id === 'thrown') throw new ToolError(`No order ${id}.\nList the orders first.`);
      if (id === 'async') return Promise.reject(new ToolError('No order async.'));
      throw new Error('database down');
    }
  }

  it('a returned failure or a thrown ToolError is logged once, one line, no stack; the model gets the message', async () => {
    const { logger, lines } = spyLogger();
    const tools = new Tools({ logger }).register(new Orders());
    expect((await tools.execute('find', { id: 'returned' })).error).toBe('No order returned.');
    expect((await tools.execute('find', { id: 'thrown' })).error).toBe('No order thrown.\nList the orders first.');
    expect((await tools.execute('find', { id: 'async' })).error).toBe('No order async.');
    expect(lines).toEqual([
      { level: 'debug', message: "Tool 'find' failed: No order returned.", details: undefined },
      { level: 'debug', message: "Tool 'find' failed: No order thrown.", details: undefined },
      { level: 'debug', message: "Tool 'find' failed: No order async.", details: undefined },
    ]);
  });

  it('the same through a middleware chain and a stream', async () => {
    const { logger, lines } = spyLogger();
    const tools = new Tools({ logger, middleware: [{ handle: (call, next) => next(call) }] }).register(new Orders());
    expect((await tools.execute('find', { id: 'thrown' })).ok).toBe(false);
    expect((await tools.stream('find', { id: 'returned' }).result).error).toBe('No order returned.');
    expect(lines.map((l) => l.message)).toEqual(["Tool 'find' failed: No order thrown.", "Tool 'find' failed: No order returned."]);
    expect(lines.every((l) => l.details === undefined)).toBe(true);
  });

  it('the same through a per-tool middleware chain, a per-tool middleware that answers with a failure, and a streamed body (a cancelled stream is not a failure)', async () => {
    const passThrough: ToolChunkMiddleware = { onToolCall: (_tool, input, next) => next(input) };
    const refuseLarge: ToolChunkMiddleware = {
      onToolCall: async function* (tool, input, next) {
        if ((input as { id: string }).id === 'big') {
          yield ToolChunk.text(`Order ids of tool '${tool.name}' must be short.`, { state: ToolResultState.ERROR });
          return;
        }
        yield* next(input);
      },
    };
    class Shop {
      @Action('Look up an order.', { middlewares: [passThrough, refuseLarge] })
      find(@Param('id') id: string) {
        if (id === 'thrown') throw new ToolError(`No order ${id}.`);
        return ActionResult.fail(`No order ${id}.`);
      }
      @Action('Stream an order.')
      async *track(@Param('id') id: string) {
        yield ToolChunk.text('looking... ');
        yield ToolChunk.text(`no order ${id}`, { state: ToolResultState.ERROR });
      }
      @Action('Stream then cancel.')
      async *watch(@Param('id') _id: string) {
        yield ToolChunk.text('partial', { state: ToolResultState.INTERRUPTED });
      }
    }
    const { logger, lines } = spyLogger();
    const tools = new Tools({ logger }).register(new Shop());
    expect((await tools.execute('find', { id: 'o-1' })).error).toBe('No order o-1.');
    expect((await tools.execute('find', { id: 'thrown' })).error).toBe('No order thrown.');
    expect((await tools.execute('find', { id: 'big' })).error).toBe("Order ids of tool 'find' must be short.");
    expect((await tools.stream('find', { id: 'o-2' }).result).error).toBe('No order o-2.');
    expect((await tools.execute('track', { id: 'o-3' })).error).toBe('looking... no order o-3');
    expect((await tools.stream('track', { id: 'o-4' }).result).error).toBe('looking... no order o-4');
    expect((await tools.execute('watch', { id: 'o-5' })).ok).toBe(false);
    expect(lines).toEqual(
      [
        "Tool 'find' failed: No order o-1.",
        "Tool 'find' failed: No order thrown.",
        "Tool 'find' failed: Order ids of tool 'find' must be short.",
        "Tool 'find' failed: No order o-2.",
        "Tool 'track' failed: looking... no order o-3",
        "Tool 'track' failed: looking... no order o-4",
      ].map((message) => ({ level: 'debug', message, details: undefined })),
    );
  });

  it('any other exception is a bug: logged with its stack', async () => {
    const { logger, lines } = spyLogger();
    const tools = new Tools({ logger }).register(new Orders());
    expect((await tools.execute('find', { id: 'other' })).error).toBe("Tool 'find' failed: database down");
    expect(lines).toHaveLength(1);
    expect(lines[0]!.message).toBe("Tool 'find' threw: database down");
    expect(String(lines[0]!.details?.stack)).toMatch(/Error: database down\n\s+at /);
  });

  it('ToolError is a coded error with its cause', () => {
    const cause = new Error('404');
    const error = new ToolError('No order.', { cause });
    expect(error).toMatchObject({ name: 'ToolError', code: 'TOOL_FAILED', message: 'No order.', cause });
  });
});

describe('registering one class more than once', () => {
  class Billing {
    constructor(readonly tenant: string) {}
    @Action('Refund an order.')
    refund(@Param('orderId') orderId: string) {
      return `${this.tenant} refunded ${orderId}`;
    }
    @Action('Show the balance.', { name: 'balance' })
    showBalance() {
      return `${this.tenant} balance`;
    }
  }

  it('the second instance is refused, with a suggestion that exists (no { replace: true })', () => {
    const tools = new Tools().register(new Billing('acme'));
    let message = '';
    try {
      tools.register(new Billing('globex'));
    } catch (error) {
      expect(error).toBeInstanceOf(ToolDefinitionError);
      message = (error as Error).message;
    }
    expect(message).toContain("Tool 'refund' already registered (by Billing.refund; now by Billing.refund).");
    expect(message).toContain("tools.register({ instance, prefix: 'other_' })");
    expect(message).not.toContain('replace');
    expect(tools.list()).toHaveLength(2);
  });

  it('per-instance prefix, name map and group', async () => {
    const tools = new Tools().register(
      { instance: new Billing('acme'), prefix: 'acme_', group: 'acme' },
      { instance: new Billing('globex'), names: { refund: 'globex_refund' }, prefix: 'g_', group: 'globex' },
    );
    expect(tools.list().map((t) => [t.name, t.group])).toEqual([
      ['acme_refund', 'acme'],
      ['acme_balance', 'acme'],
      ['globex_refund', 'globex'],
      ['g_balance', 'globex'],
    ]);
    expect((await tools.execute('acme_refund', { orderId: 'o1' })).result).toBe('acme refunded o1');
    expect((await tools.execute('globex_refund', { orderId: 'o1' })).result).toBe('globex refunded o1');
  });

  it('two services inheriting one decorated base method', async () => {
    class Search {
      constructor(readonly index: string) {}
      @Action('Search.')
      search(@Param('q') q: string) {
        return `${this.index}:${q}`;
      }
    }
    @ToolGroup('docs')
    class DocsSearch extends Search {}
    class CodeSearch extends Search {}
    const tools = new Tools();
    tools.register(new DocsSearch('docs'));
    expect(() => tools.register(new CodeSearch('code'))).toThrow(/by Search\.search|by DocsSearch\.search/);
    tools.register({ instance: new CodeSearch('code'), prefix: 'code_' });
    expect((await tools.execute('code_search', { q: 'x' })).result).toBe('code:x');
    expect(tools.get('search')!.group).toBe('docs');
    expect(tools.get('code_search')!.group).toBe('CodeSearch');
  });

  it('refuses a name map key that names no tool, and a Tool instance in an entry', () => {
    expect(() => new Tools().register({ instance: new Billing('a'), names: { showBalance: 'x' } })).toThrow(/maps 'showBalance', which is not one of its tools \(refund, balance\)/);
    expect(() => new Tools().register({ instance: new Billing('a'), prefx: 'a_' })).toThrow("register({ instance, ... }) does not take 'prefx': its options are instance, prefix, names and group.");
    const fn = new FunctionTool(() => 1, { name: 'one', description: 'x' });
    expect(() => new Tools().register({ instance: fn, prefix: 'p_' })).toThrow(/Tool 'one' is a Tool instance/);
  });

  it('each clash suggests what its kind of definition can do', () => {
    const tools = new Tools();
    tools.action({ name: 'x', description: 'x' }, () => 1);
    expect(() => tools.action({ name: 'x', description: 'x' }, () => 1)).toThrow(/Pass another \{ name \} to tools\.action/);
    expect(() => tools.register(new FunctionTool(() => 1, { name: 'x', description: 'x' }))).toThrow(/Build one of them with another name\.$/);
    const other = new Tools();
    other.action({ name: 'x', description: 'y' }, () => 2);
    expect(() => tools.merge(other)).toThrow(/Pass \{ replace: true \} to merge/);
    expect(tools.merge(other, { replace: true }).get('x')!.resolveDescription()).toBe('y');
  });
});

describe('approval predicates', () => {
  it('the option form infers its params; the decorator form runs on validated, stripped params', () => {
    const Params = Type.Object({ amount: Type.Number() });
    class Billing {
      @Action('Refund.', { params: Params, requiresApproval: (p) => p.amount > 100 })
      refund(params: Static<typeof Params>) {
        return params.amount;
      }
    }
    const tool = new Tools().register(new Billing()).get('refund')!;
    expect(tool.needsApproval({ amount: 101 })).toBe(true);
    expect(tool.needsApproval({ amount: 5 })).toBe(false);
  });
});
